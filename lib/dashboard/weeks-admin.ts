/**
 * A long period's day series in weeks, for the revenue and checkouts pictures and their tables:
 * a point a day would be more bars than a phone is wide and more rows than anyone reads, and
 * would cost the page's render a row per day. The CSVs keep every day. Safe in the browser.
 */

import type { Dashboard, DayCheckouts, DayRevenue } from "./dashboard-admin";

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

/** The dashboard as its page sends it to the browser: the day series as points of a day or, past {@link DAILY_UP_TO_DAYS}, a week. */
export type ShownDashboard = Omit<Dashboard, "revenueByDay" | "checkoutsByDay"> & {
  weekly: boolean;
  /** Each point's days, and the previous period's days at the same place (`previousDate` to `previousTo`). */
  revenue: (Week<DayRevenue> & { previousTo: string })[];
  checkouts: Week<DayCheckouts>[];
};

/** `dashboard` with its day series as shown (a year's 365 days would be most of the page's weight). */
export function asShown({ revenueByDay, checkoutsByDay, ...rest }: Dashboard): ShownDashboard {
  const weekly = rest.period.days > DAILY_UP_TO_DAYS;
  const runs = <T>(days: readonly T[]) => runsOf(days, weekly ? 7 : 1);
  return {
    ...rest,
    weekly,
    // A point's previous days end where its last day's do (sent, so that the browser's bundle
    // needs none of the calendar's code, which the shop's own pages share).
    revenue: runs(revenueByDay).map((run) => ({ ...pointOf(run), previousTo: run.at(-1)!.previousDate })),
    checkouts: runs(checkoutsByDay).map(pointOf),
  };
}
