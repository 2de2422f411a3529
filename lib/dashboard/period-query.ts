import { z } from "zod";
import { inShopCalendar, shopDateRule } from "../luanda-time";
import { namedPeriod, periodOf, type Period } from "./period";
import { DEFAULT_PERIOD, MAX_PERIOD_DAYS, PERIOD_KINDS, type PeriodProblem } from "./period-names";

/**
 * The dashboard's period from a page's or an export's query string (`period`, and `from`/`to` for
 * a custom range); a bad one falls back to the default with what was wrong, never an error page.
 * Apart from ./period.ts so that zod stays out of the browser's bundle of the dashboard's view.
 */

/** The period to show; `invalid` and the problem when the one asked for could not be shown. */
export type PeriodResult = { period: Period; invalid: boolean; problem?: PeriodProblem };

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const kindParam = z.preprocess(single, z.enum(PERIOD_KINDS));
// A date the database can count in: a year 1 or 9999 is a real date, but no period of the shop's.
const dateParam = z.preprocess(single, z.iso.date().refine(inShopCalendar));

/**
 * The period a query string asks for: `period` (a name; `custom` with `from` and `to`, dates of
 * the Luanda calendar within lib/luanda-time.ts' SHOP_CALENDAR, at most {@link MAX_PERIOD_DAYS} days, `from` not
 * after `to`). Dates without `period` mean a custom range. Anything else gives the default period,
 * `invalid: true` and the problem.
 */
export function parsePeriod(params: Record<string, string | string[] | undefined>, now = new Date()): PeriodResult {
  const fallback = (problem: PeriodProblem): PeriodResult => ({
    period: namedPeriod(DEFAULT_PERIOD, now),
    invalid: true,
    problem,
  });
  const asked = params.period ?? (params.from !== undefined || params.to !== undefined ? "custom" : undefined);
  if (asked === undefined) return { period: namedPeriod(DEFAULT_PERIOD, now), invalid: false };
  const kind = kindParam.safeParse(asked);
  if (!kind.success)
    return fallback({
      field: "period",
      reason: "unknown-period",
      message: `period must be one of ${PERIOD_KINDS.join(", ")} (custom with from and to)`,
    });
  const named = kind.data;
  if (named !== "custom") return { period: namedPeriod(named, now), invalid: false };
  const from = dateParam.safeParse(params.from);
  if (!from.success) return fallback({ field: "from", reason: "not-a-date", message: shopDateRule("from") });
  const to = dateParam.safeParse(params.to);
  if (!to.success) return fallback({ field: "to", reason: "not-a-date", message: shopDateRule("to") });
  const period = periodOf("custom", from.data, to.data);
  if (period.days < 1) return fallback({ field: "to", reason: "backwards", message: "to must not be before from" });
  if (period.days > MAX_PERIOD_DAYS)
    return fallback({
      field: "to",
      reason: "too-long",
      message: `to must be at most ${MAX_PERIOD_DAYS} days after from, both included`,
    });
  return { period, invalid: false };
}
