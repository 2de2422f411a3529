import type { Lang } from "./dictionaries";
import { adminDashboardTexts as enDashboard } from "./en/admin-dashboard";
import { adminRefundFiguresTexts as enRefundFigures } from "./en/admin-refund-figures";
import { adminShellTexts as enShell } from "./en/admin-shell";
import { adminDashboardTexts as ptDashboard } from "./pt/admin-dashboard";
import { adminRefundFiguresTexts as ptRefundFigures } from "./pt/admin-refund-figures";
import { adminShellTexts as ptShell } from "./pt/admin-shell";

/**
 * Words that only the back office says (its frame and menu, the 403 page, the dashboard, the
 * orders list's paid filter, the refunds' figures and CSV), kept out of `Dictionary`: the shop's client components bundle that
 * whole, so a word added there is a byte more on every page of the shop. The dashboard's view, a
 * client component, bundles these in the back office home's own chunk. Same languages,
 * Portuguese first.
 */
const pt = { ...ptDashboard, ...ptShell, ...ptRefundFigures };
const en: typeof pt = { ...enDashboard, ...enShell, ...enRefundFigures };

export type BackOfficeTexts = typeof pt;

export const BACK_OFFICE_TEXTS = { pt, en } as const satisfies Record<Lang, BackOfficeTexts>;

export const backOfficeTexts = (lang: Lang): BackOfficeTexts => BACK_OFFICE_TEXTS[lang];
