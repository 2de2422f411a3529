import { notFound } from "next/navigation";
import { dictionary, type Dictionary } from "../i18n/dictionaries";
import { LANGS, type Lang } from "../i18n/languages";

/**
 * The language of a page from its `[lang]` route segment (next.config.mjs's rewrites put it there
 * from the `lang` cookie). Anything else is not a page of the shop: a 404, never a guess.
 */
export async function routeLang(params: Promise<{ lang: string }>): Promise<{ lang: Lang; t: Dictionary }> {
  const { lang: segment } = await params;
  const lang = LANGS.find((code) => code === segment);
  if (!lang) notFound();
  return { lang, t: dictionary(lang) };
}

/** Every language, as `generateStaticParams` lists the `[lang]` segment. */
export const langParams = (): { lang: Lang }[] => LANGS.map((lang) => ({ lang }));
