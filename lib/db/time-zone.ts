import "server-only";
import type pg from "pg";

/** Whether the database's sessions run in UTC, as every stored time assumes; the health check asks. */

/** UTC under its tz database names, as PostgreSQL reports them (GMT has no summer time either). */
const UTC_NAMES = /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT|GMT[+-]?0|Greenwich)$/;

/**
 * The time zone the sessions of `pool` run in, and whether it is UTC. The app's timestamps are
 * `timestamp without time zone` holding UTC and its SQL compares them with now(), so anything
 * else shifts every hold, job and status check by the zone's offset. The database's default
 * makes it UTC (docs/database.md); a role's own setting, or a pooler connected
 * before that migration, can still override it, which is what this is for (a health check).
 */
export async function sessionTimeZone(pool: Pick<pg.Pool, "query">): Promise<{ timeZone: string; utc: boolean }> {
  const { rows } = await pool.query<{ timeZone: string }>(`SELECT current_setting('TimeZone') AS "timeZone"`);
  const timeZone = rows[0]?.timeZone ?? "";
  return { timeZone, utc: isUtc(timeZone) };
}

/** Whether a TimeZone setting, as PostgreSQL reports it, is UTC. */
export function isUtc(timeZone: string): boolean {
  return UTC_NAMES.test(timeZone);
}
