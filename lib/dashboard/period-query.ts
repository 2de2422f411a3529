import { z } from "zod";
import { namedPeriod, periodOf, type Period } from "./period";
import { DEFAULT_PERIOD, MAX_PERIOD_DAYS, PERIOD_KINDS } from "./period-names";

/**
 * The dashboard's period from a page's or an export's query string (`period`, and `from`/`to` for
 * a custom range); a bad one falls back to the default with a notice, never an error page. Apart
 * from ./period.ts so that zod stays out of the browser's bundle of the dashboard's view.
 */

export type PeriodResult = { period: Period; invalid: boolean };

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const kindParam = z.preprocess(single, z.enum(PERIOD_KINDS));
const dateParam = z.preprocess(single, z.iso.date());

/**
 * The period a query string asks for: `period` (a name; `custom` with `from` and `to`, dates of
 * the Luanda calendar, at most {@link MAX_PERIOD_DAYS} days, `from` not after `to`). Dates without
 * `period` mean a custom range. Anything else gives the default period and `invalid: true`.
 */
export function parsePeriod(params: Record<string, string | string[] | undefined>, now = new Date()): PeriodResult {
  const fallback = { period: namedPeriod(DEFAULT_PERIOD, now), invalid: true };
  const asked = params.period ?? (params.from !== undefined || params.to !== undefined ? "custom" : undefined);
  if (asked === undefined) return { period: namedPeriod(DEFAULT_PERIOD, now), invalid: false };
  const kind = kindParam.safeParse(asked);
  if (!kind.success) return fallback;
  const named = kind.data;
  if (named !== "custom") return { period: namedPeriod(named, now), invalid: false };
  const from = dateParam.safeParse(params.from);
  const to = dateParam.safeParse(params.to);
  if (!from.success || !to.success) return fallback;
  const period = periodOf("custom", from.data, to.data);
  if (!Number.isFinite(period.days) || period.days < 1 || period.days > MAX_PERIOD_DAYS) return fallback;
  return { period, invalid: false };
}
