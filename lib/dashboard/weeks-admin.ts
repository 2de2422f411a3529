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

/** `days` (a period's points, in order) in runs of seven from the first, numbers summed; the last run may be shorter. */
export function inWeeks<T extends { date: string }>(days: readonly T[]): Week<T>[] {
  const weeks: Week<T>[] = [];
  for (let first = 0; first < days.length; first += 7) {
    const run = days.slice(first, first + 7);
    const week: Record<string, unknown> = { ...run[0]!, to: run.at(-1)!.date };
    for (const day of run.slice(1)) {
      for (const [key, value] of Object.entries(day)) {
        if (typeof value === "number") week[key] = (week[key] as number) + value;
      }
    }
    weeks.push(week as Week<T>);
  }
  return weeks;
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
  const points = <T extends { date: string }>(days: T[]): Week<T>[] =>
    weekly ? inWeeks(days) : days.map((day) => ({ ...day, to: day.date }));
  // A week's previous days end where its last day's do (computed here: the browser's bundle then
  // needs none of the calendar's code, which the shop's own pages share).
  const revenue = points(revenueByDay).map((point, index) => ({
    ...point,
    previousTo: revenueByDay[Math.min((weekly ? 7 : 1) * (index + 1), revenueByDay.length) - 1]!.previousDate,
  }));
  return { ...rest, weekly, revenue, checkouts: points(checkoutsByDay) };
}
