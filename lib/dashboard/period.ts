import { luandaDate, luandaDayStart } from "../luanda-time";

/**
 * The dashboard's periods: whole days of the Luanda calendar (UTC+1 all year), from a Luanda
 * midnight to another, each compared with the period of the same length just before it. Safe in
 * the browser (the dashboard's view builds its links with it); ./period-query.ts reads one from a
 * query string.
 */

export const PERIOD_KINDS = ["today", "7d", "30d", "90d", "month", "last-month", "custom"] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

export const DEFAULT_PERIOD: Exclude<PeriodKind, "custom"> = "30d";
/** The longest custom range, in days: the orders export's. */
export const MAX_PERIOD_DAYS = 366;

const DAY_MS = 86_400_000;

export interface Period {
  kind: PeriodKind;
  /** The first and last Luanda dates of the period, both included (YYYY-MM-DD). */
  from: string;
  to: string;
  /** Its first instant, and the first instant after it. */
  start: Date;
  end: Date;
  /** The previous period of the same length: [previousStart, start). */
  previousStart: Date;
  /** Its first and last Luanda dates. */
  previousFrom: string;
  previousTo: string;
  /** Its length in days. */
  days: number;
}

const addDays = (date: string, days: number) => luandaDate(new Date(luandaDayStart(date) + days * DAY_MS));

/** The period of Luanda dates `from` to `to`, both included. */
export function periodOf(kind: PeriodKind, from: string, to: string): Period {
  const start = luandaDayStart(from);
  const end = luandaDayStart(to) + DAY_MS;
  const days = Math.round((end - start) / DAY_MS);
  const previousStart = start - days * DAY_MS;
  return {
    kind,
    from,
    to,
    start: new Date(start),
    end: new Date(end),
    previousStart: new Date(previousStart),
    previousFrom: luandaDate(new Date(previousStart)),
    previousTo: addDays(from, -1),
    days,
  };
}

/** The named period `kind` on the day of `now` (Luanda). */
export function namedPeriod(kind: Exclude<PeriodKind, "custom">, now: Date): Period {
  const today = luandaDate(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  switch (kind) {
    case "today":
      return periodOf(kind, today, today);
    case "7d":
      return periodOf(kind, addDays(today, -6), today);
    case "30d":
      return periodOf(kind, addDays(today, -29), today);
    case "90d":
      return periodOf(kind, addDays(today, -89), today);
    case "month":
      return periodOf(kind, monthStart, today);
    case "last-month": {
      const lastDay = addDays(monthStart, -1);
      return periodOf(kind, `${lastDay.slice(0, 7)}-01`, lastDay);
    }
  }
}

/** The Luanda dates of a period, in order. */
export function periodDates(from: string, days: number): string[] {
  return Array.from({ length: days }, (_, index) => addDays(from, index));
}

/** The query string of a period, for links and downloads. */
export function periodQuery(period: Pick<Period, "kind" | "from" | "to">): string {
  return period.kind === "custom"
    ? `period=custom&from=${period.from}&to=${period.to}`
    : `period=${encodeURIComponent(period.kind)}`;
}
