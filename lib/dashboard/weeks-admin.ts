/**
 * A long period's day series in weeks, for the revenue and checkouts pictures and their tables:
 * a point a day would be more bars than a phone is wide and more rows than anyone reads, and
 * would cost the page's render a row per day. The CSVs keep every day. Safe in the browser.
 */

import type { Dashboard, DayCheckouts, DayRevenue } from "./dashboard-admin";
import type { Period } from "./period";

/** Up to this many days, a day per point; past it, a week. */
export const DAILY_UP_TO_DAYS = 90;

/** A week: its first day's point with the week's numbers summed, and its last day. */
export type Week<T> = T & { to: string };

/** `days` in runs of `size` from the first; the last run may be shorter. */
function runsOf<T>(days: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(days.length / size) }, (_, index) =>
    days.slice(index * size, (index + 1) * size),
  );
}

/** One run of days as a point: its first day's with the run's numbers summed, and its last day. */
function pointOf<T extends { date: string }>(run: readonly T[]): Week<T> {
  const point: Record<string, unknown> = { ...run[0]!, to: run.at(-1)!.date };
  for (const day of run.slice(1)) {
    for (const [key, value] of Object.entries(day)) {
      if (typeof value === "number") point[key] = (point[key] as number) + value;
    }
  }
  return point as Week<T>;
}

/** `days` (a period's points, in order) in runs of seven from the first, numbers summed; the last run may be shorter. */
export function inWeeks<T extends { date: string }>(days: readonly T[]): Week<T>[] {
  return runsOf(days, 7).map(pointOf);
}

/**
 * The dashboard as its page sends it to the browser: the day series as points of a day or, past
 * {@link DAILY_UP_TO_DAYS}, a week; the period by its dates alone. Nothing but strings, numbers,
 * booleans, null, arrays and plain objects, so JSON carries it whole ({@link shownJson}).
 */
export type ShownDashboard = Omit<Dashboard, "revenueByDay" | "checkoutsByDay" | "period"> & {
  period: Omit<Period, "start" | "end" | "previousStart">;
  weekly: boolean;
  /** Each point's days, and the previous period's days at the same place (`previousDate` to `previousTo`). */
  revenue: (Week<DayRevenue> & { previousTo: string })[];
  checkouts: Week<DayCheckouts>[];
};

/** `dashboard` with its day series as shown (a year's 365 days would be most of the page's weight). */
export function asShown({ revenueByDay, checkoutsByDay, period, ...rest }: Dashboard): ShownDashboard {
  const { start: _start, end: _end, previousStart: _previousStart, ...dates } = period;
  const weekly = period.days > DAILY_UP_TO_DAYS;
  const runs = <T>(days: readonly T[]) => runsOf(days, weekly ? 7 : 1);
  return {
    ...rest,
    period: dates,
    weekly,
    // A point's previous days end where its last day's do (sent, so that the browser's bundle
    // needs none of the calendar's code, which the shop's own pages share).
    revenue: runs(revenueByDay).map((run) => ({ ...pointOf(run), previousTo: run.at(-1)!.previousDate })),
    checkouts: runs(checkoutsByDay).map(pointOf),
  };
}

/** A shown dashboard as JSON: what the page hands its view ({@link readShownJson} reads it back). */
export type ShownJson = string & { readonly shown: unique symbol };

/**
 * {@link asShown}'s dashboard as one string. React would otherwise describe each of its thousand
 * values to the browser one by one, and read each back again to render the page's HTML: the
 * largest part of the home's rendering. One string is written once and read by JSON.parse.
 */
export const shownJson = (dashboard: Dashboard): ShownJson => JSON.stringify(asShown(dashboard)) as ShownJson;

export const readShownJson = (json: ShownJson): ShownDashboard => JSON.parse(json) as ShownDashboard;
