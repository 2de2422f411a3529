import { DAY_MS, luandaDate, luandaDayStart } from "../luanda-time";
import type { PeriodKind } from "./period-names";

/**
 * The dashboard's periods: whole days of the Luanda calendar (UTC+1 all year), from a Luanda
 * midnight to another, each compared with the period of the same length just before it. Their
 * names and query strings are ./period-names.ts (the browser's part); ./period-query.ts reads one
 * from a query string.
 */

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
