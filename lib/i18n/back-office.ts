import type { Lang } from "./dictionaries";
import { adminDashboardTexts as en } from "./en/admin-dashboard";
import { adminDashboardTexts as pt } from "./pt/admin-dashboard";

/**
 * Words that only the back office says (the dashboard, the orders list's paid filter), kept out
 * of `Dictionary`: the shop's client components bundle that whole, so a word added there is a
 * byte more on every page of the shop. The dashboard's view, a client component, bundles these in
 * the back office home's own chunk. Same languages, Portuguese first.
 */
export type BackOfficeTexts = typeof pt;

export const BACK_OFFICE_TEXTS = { pt, en } as const satisfies Record<Lang, BackOfficeTexts>;

export const backOfficeTexts = (lang: Lang): BackOfficeTexts => BACK_OFFICE_TEXTS[lang];
