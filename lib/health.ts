import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { isUtc } from "./db/time-zone";
import { errorKind, type Logger } from "./log";
import { TimeoutError, withTimeout } from "./timeout";

/**
 * What `GET /api/health` reports to a load balancer, an uptime monitor or a container's
 * health check: can this instance reach its database, and does the database hold every
 * migration this code was built with? Anything else (the service, SMTP) is not the
 * instance's health: a load balancer that pulled every instance because the payment service
 * is slow would turn a slow service into a dead shop. One more thing is checked because it
 * silently corrupts data: the sessions' time zone must be UTC (lib/db/time-zone.ts).
 */

export type HealthReport =
  | { healthy: true; body: { database: "ok"; migrations: "current" } }
  | {
      healthy: false;
      body:
        | { database: "unreachable"; reason: string }
        | { migrations: "unknown"; reason: string }
        | { database: "ok"; migrations: "pending"; pending: string[]; reason: string }
        | { database: "ok"; migrations: "current"; timeZone: string; reason: string };
    };

export interface HealthDeps {
  /** The app's pool; a function, so a missing DATABASE_URL is reported rather than thrown. */
  pool: () => Pick<pg.Pool, "query">;
  /** prisma/migrations of this build. */
  migrationsDir: string;
  /** How long the database may take to answer before the instance counts as unhealthy. */
  timeoutMs: number;
  log: Logger;
}

/** Where the deployed code's migrations are: next.config.mjs ships them with the health route's function. */
export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// One round trip. Without the history table (a database nobody migrated) it fails with 42P01.
const HEALTH_QUERY = `SELECT current_setting('TimeZone') AS "timeZone",
  ARRAY(SELECT migration_name FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied`;

export async function checkHealth(deps: HealthDeps): Promise<HealthReport> {
  let expected: string[];
  try {
    expected = await localMigrations(deps.migrationsDir);
  } catch (error) {
    deps.log("error", "health.migrations_missing", { error: errorKind(error) });
    return {
      healthy: false,
      body: { migrations: "unknown", reason: "this build was deployed without its prisma/migrations directory" },
    };
  }
  let applied: Set<string>;
  let timeZone: string;
  try {
    const { rows } = await withTimeout(deps.timeoutMs, () =>
      deps.pool().query<{ timeZone: string; applied: string[] }>(HEALTH_QUERY),
    );
    applied = new Set(rows[0]?.applied ?? []);
    timeZone = rows[0]?.timeZone ?? "";
  } catch (error) {
    // No history table at all: a database nobody has migrated yet.
    if (isUndefinedTable(error)) return pending(expected);
    const reason =
      error instanceof TimeoutError
        ? `the database did not answer within ${deps.timeoutMs} ms`
        : `cannot query the database (${connectionErrorCode(error)})`;
    deps.log("warn", "health.database_unreachable", { reason });
    return { healthy: false, body: { database: "unreachable", reason } };
  }
  // Migrations the database has and this code does not know are normal while an older
  // deployment still serves (a rollback, or the minutes before a new one goes live).
  const missing = expected.filter((name) => !applied.has(name));
  if (missing.length) return pending(missing);
  if (!isUtc(timeZone)) {
    deps.log("error", "health.time_zone_not_utc", { timeZone });
    return {
      healthy: false,
      body: {
        database: "ok",
        migrations: "current",
        timeZone,
        reason:
          `database sessions run in time zone ${timeZone}, not UTC, which shifts every stored time: ` +
          "see docs/database.md, Time zone",
      },
    };
  }
  return { healthy: true, body: { database: "ok", migrations: "current" } };
}

/**
 * One check shared by every request that arrives while it runs or within `reuseMs` after it
 * ended: a monitor polling every second, or a client hammering the endpoint, costs this
 * instance one query per `reuseMs` at most.
 */
export function sharedHealthCheck(deps: HealthDeps, reuseMs: number): () => Promise<HealthReport> {
  let last: { report: Promise<HealthReport>; endedAt: number } | undefined;
  return () => {
    if (!last || Date.now() - last.endedAt > reuseMs) {
      const current = { report: checkHealth(deps), endedAt: Number.POSITIVE_INFINITY };
      void current.report.finally(() => (current.endedAt = Date.now()));
      last = current;
    }
    return last.report;
  };
}

function pending(names: string[]): HealthReport {
  return {
    healthy: false,
    body: {
      database: "ok",
      migrations: "pending",
      pending: names,
      reason: "the database lacks migrations this code needs: run `npm run db:migrate` (docs/deploy.md)",
    },
  };
}

// The directory does not change while the process runs.
let cachedMigrations: { dir: string; names: Promise<string[]> } | undefined;

function localMigrations(dir: string): Promise<string[]> {
  if (cachedMigrations?.dir !== dir) {
    const names = readdir(dir, { withFileTypes: true }).then((entries) =>
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    );
    cachedMigrations = { dir, names };
    // A failed read (a build shipped without its migrations) is not cached.
    names.catch(() => (cachedMigrations = undefined));
  }
  return cachedMigrations.names;
}

const isUndefinedTable = (error: unknown) => (error as { code?: unknown } | null)?.code === "42P01";

/** A network error's code (ECONNREFUSED) or the server's SQLSTATE; never a message, which may name users or hosts. */
function connectionErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? code : errorKind(error);
}
