import { accountTexts as en } from "./en/account";
import type { Lang } from "./languages";
import { accountTexts as pt } from "./pt/account";

/**
 * The account's part of each language's dictionary (./pt/account.ts, ./en/account.ts), for the
 * account's client components (the sign-in's form, whose sentences take the phone typed): they
 * import this module, never ./dictionaries.ts, so the browser downloads these few sentences
 * rather than every page's in every language.
 */
export type AccountTexts = typeof pt.account;

const ACCOUNT_TEXTS = { pt: pt.account, en: en.account } as const satisfies Record<Lang, AccountTexts>;

export function accountTexts(lang: Lang): AccountTexts {
  return ACCOUNT_TEXTS[lang];
}
