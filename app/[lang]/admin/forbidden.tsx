import type { Metadata } from "next";
import { currentStaff } from "@/lib/http/admin-guard";
import { backOfficeTexts } from "@/lib/i18n/back-office";
import { getLang } from "@/lib/http/request-lang";

// A back-office page the person's role may not open (lib/admin/roles.ts; requireStaff calls
// forbidden()): a 403, inside the back office's frame, saying so plainly and leading back home.

export async function generateMetadata(): Promise<Metadata> {
  const { lang } = await getLang();
  return { title: backOfficeTexts(lang).forbidden.title, robots: { index: false, follow: false } };
}

export default async function Forbidden() {
  const [{ lang }, actor] = await Promise.all([getLang(), currentStaff()]);
  const words = backOfficeTexts(lang);
  return (
    <section data-testid="forbidden" className="flex max-w-xl flex-col items-start gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{words.forbidden.title}</h1>
      {actor && <p className="text-stone-700">{words.forbidden.body(words.shell.roles[actor.role])}</p>}
      <a href="/admin" className="text-brand-700 underline hover:no-underline">
        {words.shell.home}
      </a>
    </section>
  );
}
