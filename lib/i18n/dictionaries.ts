import { en } from "./en";
import { pt, type Dictionary } from "./pt";

/**
 * The shop's languages: one dictionary each (./pt.ts, the default and the shape every other must
 * have; ./en.ts), each composed of its parts by area. The language list, the header's buttons and the `lang` cookie's accepted
 * values all come from this object (./languages.ts), so a language is added here and nowhere else.
 */
export const DICTIONARIES = { pt, en } as const satisfies Record<string, Dictionary>;

export type Lang = keyof typeof DICTIONARIES;

export const DEFAULT_LANG: Lang = "pt";

/** Fails the build when a language is added without a name in the dictionaries (the header's buttons). */
export const LANGUAGE_NAMES: Record<Lang, string> = pt.shop.languageNames;

export { en, pt, type Dictionary };

export function dictionary(lang: Lang = DEFAULT_LANG): Dictionary {
  return DICTIONARIES[lang];
}
