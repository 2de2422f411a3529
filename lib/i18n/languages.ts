/**
 * The shop's languages, as many as ./dictionaries.ts has dictionaries. Portuguese (Angola) is the
 * default; the others are offered in the header. Framework-free, so the server, client
 * components and tests share it.
 */

import { shopCookie } from "../cookies";
import { DEFAULT_LANG, DICTIONARIES, type Lang } from "./dictionaries";

export { DEFAULT_LANG, type Lang };

export const LANGS = Object.keys(DICTIONARIES) as Lang[];

/** Holds the shopper's choice; not httpOnly-sensitive, but only the server reads it. */
export const LANG_COOKIE = "lang";

/** Anything that is not exactly a supported code (a missing or tampered cookie) means the default. */
export function parseLang(value: unknown): Lang {
  return LANGS.find((lang) => lang === value) ?? DEFAULT_LANG;
}

/** The `<html lang>` value, from the language's dictionary: prices and dates follow Angola's conventions in Portuguese. */
export function htmlLang(lang: Lang): string {
  return DICTIONARIES[lang].locale;
}

/**
 * The language of a page from its `<html lang>` (document.documentElement.lang), for client
 * components that cannot read the httpOnly cookie, such as app/error.tsx: the value
 * {@link htmlLang} gave it, else the default.
 */
export function langOfHtmlLang(value: unknown): Lang {
  return LANGS.find((lang) => htmlLang(lang) === value) ?? DEFAULT_LANG;
}

export const langCookie = (lang: Lang, appUrl: string) => shopCookie(LANG_COOKIE, lang, appUrl, 365 * 24 * 3600);
