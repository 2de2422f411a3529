import { adminPaidAfterCancelTexts as en } from "./en/admin-paid-after-cancel";
import type { Lang } from "./languages";
import { adminPaidAfterCancelTexts as pt } from "./pt/admin-paid-after-cancel";

/**
 * The words of the owner's decision on an order paid after its cancellation (./pt/admin-paid-after-cancel.ts,
 * ./en/admin-paid-after-cancel.ts), for the server components that show it: kept out of
 * `Dictionary` and of ./back-office.ts, which client components bundle whole.
 */
export type PaidAfterCancelTexts = typeof pt;

export const PAID_AFTER_CANCEL_TEXTS = { pt, en } as const satisfies Record<Lang, PaidAfterCancelTexts>;

export function paidAfterCancelTexts(lang: Lang): PaidAfterCancelTexts {
  return PAID_AFTER_CANCEL_TEXTS[lang];
}
