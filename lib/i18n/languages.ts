/**
 * The shop's languages. Portuguese (Angola) is the default; English is offered in the header.
 * Framework-free, so the server, client components and tests share it.
 */

import { shopCookie } from "../cookies";

export const LANGS = ["pt", "en"] as const;
export type Lang = (typeof LANGS)[number];

export const DEFAULT_LANG: Lang = "pt";

/** Holds the shopper's choice; not httpOnly-sensitive, but only the server reads it. */
export const LANG_COOKIE = "lang";

/** Anything that is not exactly a supported code (a missing or tampered cookie) means the default. */
export function parseLang(value: unknown): Lang {
  return LANGS.find((lang) => lang === value) ?? DEFAULT_LANG;
}

/** The `<html lang>` value: prices and dates follow Angola's conventions in Portuguese. */
export function htmlLang(lang: Lang): string {
  return lang === "pt" ? "pt-AO" : "en";
}

export const langCookie = (lang: Lang, appUrl: string) => shopCookie(LANG_COOKIE, lang, appUrl, 365 * 24 * 3600);
