import { storefrontTexts as en } from "./en/storefront";
import type { Lang } from "./languages";
import { storefrontTexts as pt } from "./pt/storefront";

/**
 * The storefront's part of each language's dictionary (./pt/storefront.ts, ./en/storefront.ts):
 * what the catalogue's client components show (the header's cart count, the cart's notices, the
 * option picker). Those import this module, never ./dictionaries.ts, so a shopper's browser
 * downloads a few kB of text instead of every page's in every language, the back office's
 * included: the data budget (e2e/support/data-budget.ts) has no room for them.
 */
export type StorefrontTexts = typeof pt;

const STOREFRONT_TEXTS = { pt, en } as const satisfies Record<Lang, StorefrontTexts>;

export function storefrontTexts(lang: Lang): StorefrontTexts {
  return STOREFRONT_TEXTS[lang];
}
