/**
 * What a promo code looks like, shared by the back office that makes codes and the checkout that
 * applies them (lib/promotions/promo-codes.ts). Pure, without zod, so the cart's browser code can
 * read it too. A code is stored in upper case; a shopper may type it in any case and with spaces.
 */

/** 3 to 32 characters: A–Z, 0–9, `_` and `-`, starting with a letter or digit (the database CHECKs it too). */
export const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
export const PROMO_CODE_MAX = 32;
/** What a code field accepts as typed (spaces around a code included); the server checks the rest. */
export const PROMO_CODE_INPUT_MAX = 40;

export const PROMO_KINDS = ["percent", "fixed"] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];

/** " bemvindo10 " → "BEMVINDO10". */
export function normalizePromoCode(raw: string): string {
  return raw.trim().toUpperCase();
}

export const isPromoCode = (code: string) => PROMO_CODE_PATTERN.test(code);
