import type { Metadata, Viewport } from "next";
import { setLanguageAction } from "@/app/actions/language";
import { AdminShell } from "@/components/admin/admin-shell";
import { DraftRestorer } from "@/components/admin/draft-restorer";
import { TestModeBanner } from "@/components/ui/test-mode-banner";
import type { Actor } from "@/lib/admin/staff-events";
import { getEnv } from "@/lib/env";
import { currentStaff, pendingDraft } from "@/lib/http/admin-guard";
import { routeLang } from "@/lib/http/route-lang";
import { backOfficeTexts } from "@/lib/i18n/back-office";
import { htmlLang } from "@/lib/i18n/languages";
import { THEME_COLOR } from "@/lib/seo/seo";
import "../../globals.css";

// The back office's root layout, apart from the shop's (app/[lang]/(shop)/layout.tsx): its own
// frame (components/admin/admin-shell.tsx), none of the shop's header, search or cart. Every page
// under it is rendered per request, for the person signed in on it.

export async function generateMetadata({ params }: { params: Promise<{ lang: string }> }): Promise<Metadata> {
  const { t } = await routeLang(params);
  return {
    title: { default: t.admin.title, template: `%s · ${t.shop.name}` },
    robots: { index: false, follow: false },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: THEME_COLOR };

/**
 * Who is signed in, for the frame; none when the sessions cannot be read: the frame then shows
 * no menu, and the page, which asks the same, shows the error (./error.tsx) inside it.
 */
async function signedIn(): Promise<Actor | undefined> {
  try {
    return await currentStaff();
  } catch {
    // currentStaff logged it.
    return undefined;
  }
}

export default async function AdminLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ lang: string }>;
}) {
  const [{ lang, t }, actor] = await Promise.all([routeLang(params), signedIn()]);
  // A form refused because its session had ended: once signed in again, the page puts what was
  // typed back into that form (lib/http/admin-draft.ts).
  const draft = actor ? await pendingDraft() : undefined;
  return (
    <html lang={htmlLang(lang)}>
      <body className="flex min-h-screen flex-col bg-stone-50 font-sans text-stone-900 antialiased print:bg-white">
        {/* Orders paid in the service's sandbox are not real: the people who pack them must know too. */}
        <TestModeBanner t={t} mode={getEnv().pay.mode} />
        <AdminShell t={t} words={backOfficeTexts(lang)} lang={lang} setLanguage={setLanguageAction} actor={actor}>
          {draft && (
            <DraftRestorer
              draft={{ id: draft.id, action: draft.action, fields: draft.fields }}
              notes={[
                t.admin.draft.restored,
                ...(draft.filesLost ? [t.admin.draft.filesLost] : []),
                ...(draft.textLost ? [t.admin.draft.textLost] : []),
              ]}
            />
          )}
          {children}
        </AdminShell>
      </body>
    </html>
  );
}
