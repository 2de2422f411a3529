import type { Metadata, Viewport } from "next";
import { setLanguageAction } from "@/app/actions/language";
import { topCategories } from "@/components/catalog/views";
import { SiteHeader } from "@/components/ui/site-header";
import { TestModeBanner } from "@/components/ui/test-mode-banner";
import { getEnv } from "@/lib/env";
import { consoleLogger, errorKind } from "@/lib/log";
import { htmlLang } from "@/lib/i18n/languages";
import { routeLang } from "@/lib/http/route-lang";
import { THEME_COLOR } from "@/lib/seo/seo";
import "../../globals.css";

// The root layout of every page of the shop, once per language (the address has none:
// next.config.mjs rewrites it from the `lang` cookie); the back office has its own
// (app/[lang]/admin/layout.tsx). It reads no cookie, so the catalogue and product pages under it can be
// built ahead and served from the cache; the header's cart count is fetched by the browser
// (components/cart/header-cart-count.tsx). It reads the top-level categories for the header: with the
// cached pages, that is once per rendering (a change of the categories renders them again).

export async function generateMetadata({ params }: { params: Promise<{ lang: string }> }): Promise<Metadata> {
  const { t } = await routeLang(params);
  return {
    // Relative canonical and Open Graph URLs resolve against the shop's public address.
    metadataBase: new URL(getEnv().appUrl),
    title: { default: t.shop.name, template: `%s · ${t.shop.name}` },
    description: t.shop.description,
  };
}

/** The header's categories; none when the database cannot be read (an error page must still render). */
async function headerCategories(): Promise<{ slug: string; name: string }[]> {
  try {
    return (await topCategories()).map(({ slug, name }) => ({ slug, name }));
  } catch (error) {
    consoleLogger("warn", "catalog.categories_unavailable", { error: errorKind(error), then: "the header shows none" });
    return [];
  }
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: THEME_COLOR };

export default async function RootLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ lang: string }>;
}) {
  const [{ lang, t }, categories] = await Promise.all([routeLang(params), headerCategories()]);
  return (
    <html lang={htmlLang(lang)}>
      {/* On paper (a receipt) only the page itself: no header, banner or margins of the screen. */}
      <body className="min-h-screen bg-stone-50 font-sans text-stone-900 antialiased print:bg-white">
        <TestModeBanner t={t} mode={getEnv().pay.mode} />
        <SiteHeader t={t} lang={lang} setLanguage={setLanguageAction} categories={categories} />
        <main className="mx-auto max-w-6xl px-4 py-8 print:max-w-none print:p-0">{children}</main>
      </body>
    </html>
  );
}
