/**
 * The shop's calendar and clock: Luanda's (Africa/Luanda, West Africa Time, UTC+1 all year:
 * Angola has had no summer time since 1979), whatever the server's, the browser's or the
 * database's zone (UTC). The back office's dates, its totals and the CSV export count days here;
 * the pages and mails shoppers read show instants through luandaFormatter. Safe in the browser.
 */

const LUANDA_OFFSET_MS = 3600_000;

/** A day in Luanda is always 24 hours long (no summer time), so days are counted in these. */
export const DAY_MS = 86_400_000;

/** The IANA name of Luanda's zone, which Intl knows to be UTC+1 as well. */
const LUANDA_TIME_ZONE = "Africa/Luanda";

/**
 * Intl's formatter of instants in Luanda's time, in `locale` with `options` (their own timeZone
 * is overridden): for dates shoppers read in their language, where month names and order vary.
 */
export function luandaFormatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: LUANDA_TIME_ZONE });
}

/** "27/11, 14:05" in the shop's clock (Luanda), as the server and the browser both write it. */
export const luandaDayAndTime = (iso: string, locale: string): string =>
  luandaFormatter(locale, { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );

/** A date of the Luanda calendar, YYYY-MM-DD. */
export function luandaDate(instant: Date): string {
  return new Date(instant.getTime() + LUANDA_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The dates the back office's periods and exports may name, both included. The shop keeps no
 * order before the first, and PostgreSQL's timestamps cannot hold a year 0 (year 1 in Luanda is
 * 23:00 UTC on the day before it), so a date outside these is refused as bad input rather than
 * left to fail in the database; the last leaves room for dates planned decades ahead.
 */
export const SHOP_CALENDAR = { first: "2000-01-01", last: "2100-12-31" } as const;

/** Whether a valid YYYY-MM-DD date lies within {@link SHOP_CALENDAR} (such dates sort as text). */
export const inShopCalendar = (date: string): boolean => date >= SHOP_CALENDAR.first && date <= SHOP_CALENDAR.last;

/** The refusal of a date field that is not one of {@link SHOP_CALENDAR}'s, naming the field. */
export const shopDateRule = (field: string): string =>
  `${field} must be a date from ${SHOP_CALENDAR.first} to ${SHOP_CALENDAR.last}, YYYY-MM-DD`;

/** The first instant (ms since the epoch) of a Luanda calendar day, YYYY-MM-DD. */
export const luandaDayStart = (date: string) => new Date(`${date}T00:00:00.000Z`).getTime() - LUANDA_OFFSET_MS;

/** An instant as ISO 8601 in Luanda's time, e.g. 2026-11-23T21:30:00+01:00. */
export function luandaIso(instant: Date): string {
  return `${new Date(instant.getTime() + LUANDA_OFFSET_MS).toISOString().slice(0, 19)}+01:00`;
}

/** The start of `now`'s day and month in Luanda, as instants. */
export function luandaPeriods(now: Date): { dayStart: Date; monthStart: Date } {
  const local = new Date(now.getTime() + LUANDA_OFFSET_MS);
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  return {
    dayStart: new Date(Date.UTC(year, month, day) - LUANDA_OFFSET_MS),
    monthStart: new Date(Date.UTC(year, month, 1) - LUANDA_OFFSET_MS),
  };
}

/** "2026-11-23 21:30", Luanda time, as the back office's lists show an instant. */
export const luandaMinute = (instant: Date) => luandaIso(instant).slice(0, 16).replace("T", " ");

/** "2026-11-23 21:30:05", Luanda time, as the back office's detail pages show an instant. */
export const luandaSecond = (instant: Date) => luandaIso(instant).slice(0, 19).replace("T", " ");

/** What a datetime-local field shows for `instant`, in Luanda's time: "2026-11-23T21:30". */
export const luandaLocalInput = (instant: Date) => luandaIso(instant).slice(0, 16);

/** A datetime-local field's value ("2026-11-23T21:30", seconds optional), read as Luanda's time: ISO 8601 with its offset. */
export const luandaLocalToIso = (local: string) => `${local}+01:00`;
