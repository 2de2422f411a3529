import Link from "next/link";
import { HeaderCartCount } from "@/components/header-cart-count";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { LANGS, type Lang } from "@/lib/i18n/languages";

export function SiteHeader({
  t,
  lang,
  setLanguage,
}: {
  t: Dictionary;
  lang: Lang;
  /** The language switch's server action (app/actions/language.ts, handed in by the layout). */
  setLanguage: (formData: FormData) => Promise<void>;
}) {
  return (
    <header className="border-b border-stone-200 bg-white">
      <nav
        aria-label={t.shop.mainNavigation}
        className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4"
      >
        <Link href="/" className="text-lg font-semibold tracking-tight text-brand-700">
          {t.shop.name}
        </Link>
        <div className="flex items-center gap-4">
          <form action={setLanguage} className="flex items-center gap-1 text-sm">
            <span className="sr-only">{t.shop.language}</span>
            {LANGS.map((code) => (
              <button
                key={code}
                type="submit"
                name="lang"
                value={code}
                lang={code}
                aria-pressed={code === lang}
                className="min-w-9 rounded-md px-2 py-1 font-medium uppercase text-stone-600 hover:bg-stone-100 aria-pressed:bg-stone-900 aria-pressed:text-white"
              >
                {code}
                {/* The accessible name starts with what is visible (WCAG 2.5.3, "label in name"). */}
                <span className="sr-only normal-case"> — {t.shop.switchTo(t.shop.languageNames[code])}</span>
              </button>
            ))}
          </form>
          <HeaderCartCount lang={lang} />
        </div>
      </nav>
    </header>
  );
}
