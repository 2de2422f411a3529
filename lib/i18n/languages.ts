/**
 * The shop's languages. Portuguese (Angola) is the default; the others are offered in the header.
 * Framework-free and free of the dictionaries, so the server, client components and tests share
 * it without the browser downloading every sentence of the shop.
 *
 * A language is a line here, its dictionary (./dictionaries.ts) and its parts that the browser
 * loads (./storefront-texts.ts, ./state-texts.ts): the type checker refuses one without the others.
 */

import { shopCookie } from "../cookies";

/** Each language's code (the `[lang]` segment, the cookie's value) and its `<html lang>`: prices and dates follow it. */
const LOCALES = { pt: "pt-AO", en: "en" } as const;

export type Lang = keyof typeof LOCALES;

export const DEFAULT_LANG: Lang = "pt";

export const LANGS = Object.keys(LOCALES) as Lang[];

/** Holds the shopper's choice; not httpOnly-sensitive, but only the server reads it. */
export const LANG_COOKIE = "lang";

/** Anything that is not exactly a supported code (a missing or tampered cookie) means the default. */
export function parseLang(value: unknown): Lang {
  return LANGS.find((lang) => lang === value) ?? DEFAULT_LANG;
}

/** The `<html lang>` value: prices and dates follow Angola's conventions in Portuguese. */
export function htmlLang(lang: Lang): string {
  return LOCALES[lang];
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
