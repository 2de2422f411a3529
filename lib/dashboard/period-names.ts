/**
 * The dashboard's periods by name, and a period's query string: what the dashboard's view (a
 * client component) needs of ./period.ts. Imports nothing, so the browser's bundle of the view
 * carries none of the calendar's code, which the shop's own pages share.
 */

export const PERIOD_KINDS = ["today", "7d", "30d", "90d", "month", "last-month", "custom"] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

export const DEFAULT_PERIOD: Exclude<PeriodKind, "custom"> = "30d";
/** The longest custom range, in days: the orders export's. */
export const MAX_PERIOD_DAYS = 366;

/**
 * Why a period asked for could not be shown (./period-query.ts finds it): the field at fault, why
 * (the view says it in the owner's language), and a message naming the field for the exports' JSON.
 */
export interface PeriodProblem {
  field: "period" | "from" | "to";
  reason: "unknown-period" | "not-a-date" | "backwards" | "too-long";
  message: string;
}

/** The query string of a period, for links and downloads. */
export function periodQuery(period: { kind: PeriodKind; from: string; to: string }): string {
  return period.kind === "custom"
    ? `period=custom&from=${period.from}&to=${period.to}`
    : `period=${encodeURIComponent(period.kind)}`;
}
