import type { Lang } from "./dictionaries";
import { adminDashboardTexts as enDashboard } from "./en/admin-dashboard";
import { adminShellTexts as enShell } from "./en/admin-shell";
import { adminDashboardTexts as ptDashboard } from "./pt/admin-dashboard";
import { adminShellTexts as ptShell } from "./pt/admin-shell";

/**
 * Words that only the back office says (its frame and menu, the 403 page, the dashboard, the
 * orders list's paid filter), kept out of `Dictionary`: the shop's client components bundle that
 * whole, so a word added there is a byte more on every page of the shop. The dashboard's view, a
 * client component, bundles these in the back office home's own chunk. Same languages,
 * Portuguese first.
 */
const pt = { ...ptDashboard, ...ptShell };
const en: typeof pt = { ...enDashboard, ...enShell };

export type BackOfficeTexts = typeof pt;

export const BACK_OFFICE_TEXTS = { pt, en } as const satisfies Record<Lang, BackOfficeTexts>;

export const backOfficeTexts = (lang: Lang): BackOfficeTexts => BACK_OFFICE_TEXTS[lang];
