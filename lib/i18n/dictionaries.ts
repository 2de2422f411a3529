import { en } from "./en";
import { pt, type Dictionary } from "./pt";
import { DEFAULT_LANG, type Lang } from "./languages";

/**
 * The shop's languages (./languages.ts): one dictionary each (./pt.ts, the default and the shape
 * every other must have; ./en.ts), each composed of its parts by area. The type checker refuses a
 * language without its dictionary. The browser never loads this module: client components take
 * their parts (./storefront-texts.ts, ./state-texts.ts).
 */
export const DICTIONARIES = { pt, en } as const satisfies Record<Lang, Dictionary>;

export { DEFAULT_LANG, type Lang };

/** Fails the build when a language is added without a name in the dictionaries (the header's buttons). */
export const LANGUAGE_NAMES: Record<Lang, string> = pt.shop.languageNames;

export { en, pt, type Dictionary };

export function dictionary(lang: Lang = DEFAULT_LANG): Dictionary {
  return DICTIONARIES[lang];
}
