import type { Dictionary } from "@/lib/i18n/dictionaries";
import { LANGS, type Lang } from "@/lib/i18n/languages";

/**
 * The language switch of the shop's header and of the back office's: a button per language that
 * posts to the server action handed in (app/actions/language.ts), which stores the choice and
 * comes back to the same page. Works without JavaScript.
 */
export function LanguageSwitch({
  t,
  lang,
  setLanguage,
}: {
  t: Dictionary;
  lang: Lang;
  setLanguage: (formData: FormData) => Promise<void>;
}) {
  return (
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
  );
}
