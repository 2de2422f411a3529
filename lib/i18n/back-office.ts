import type { Lang } from "./dictionaries";
import { adminDashboardTexts as enDashboard } from "./en/admin-dashboard";
import { adminShellTexts as enShell } from "./en/admin-shell";
import { adminDashboardTexts as ptDashboard } from "./pt/admin-dashboard";
import { adminShellTexts as ptShell } from "./pt/admin-shell";
// The refunds of an order's page: a block of their own.
import { adminRefundTexts as enRefunds } from "./en/admin-refunds";
import { adminRefundTexts as ptRefunds } from "./pt/admin-refunds";

/**
 * Words that only the back office says (its frame and menu, the 403 page, the dashboard, the
 * orders list's paid filter, an order's refunds), kept out of `Dictionary`: the shop's client components bundle that
 * whole, so a word added there is a byte more on every page of the shop. The dashboard's view, a
 * client component, bundles these in the back office home's own chunk. Same languages,
 * Portuguese first.
 */
const pt = { ...ptDashboard, ...ptShell, ...ptRefunds };
const en: typeof pt = { ...enDashboard, ...enShell, ...enRefunds };

export type BackOfficeTexts = typeof pt;

export const BACK_OFFICE_TEXTS = { pt, en } as const satisfies Record<Lang, BackOfficeTexts>;

export const backOfficeTexts = (lang: Lang): BackOfficeTexts => BACK_OFFICE_TEXTS[lang];
