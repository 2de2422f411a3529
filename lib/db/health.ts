import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { isUtc } from "./time-zone";
import { errorKind, type Logger } from "../log";
import { TimeoutError, withTimeout } from "../timeout";

/**
 * What `GET /api/health` reports to a load balancer, an uptime monitor or a container's health
 * check ({@link healthStatus}; the details only to the operators): can this instance reach its
 * database, does the database hold every migration this code was built with, and do its sessions
 * run in UTC (lib/db/time-zone.ts)? A busy database is told apart from an unreachable one.
 */

type HealthyBody = { database: "ok"; migrations: "current" } | { database: "busy"; reason: string };

export type HealthReport =
  | { healthy: true; body: HealthyBody & { pool?: "busy" } }
  | {
      healthy: false;
      body:
        | { database: "unreachable"; reason: string }
        | { migrations: "unknown"; reason: string }
        | { database: "ok"; migrations: "pending"; pending: string[]; reason: string }
        | { database: "ok"; migrations: "current"; timeZone: string; reason: string };
    };

/**
 * What anyone is told: `ok` (serve traffic), `busy` (keep this instance: the database, or this
 * instance's pool, is loaded for everyone) or `unavailable` (take it out). Which migrations are
 * missing and the database's error codes are for the operators (the route's bearer secret).
 */
export type HealthStatus = "ok" | "busy" | "unavailable";

export function healthStatus(report: HealthReport): HealthStatus {
  if (!report.healthy) return "unavailable";
  return report.body.database === "busy" || report.body.pool === "busy" ? "busy" : "ok";
}

/** The one connection a check uses, closed after it. */
export type HealthConnection = Pick<pg.ClientBase, "query"> & { end(): Promise<void> };

/** What the check reads of the app's pool: its queue, never a connection. */
export type PoolLoad = Pick<pg.Pool, "waitingCount">;

export interface HealthDeps {
  /** Opens the check's own connection ({@link openHealthConnection}), giving up after the time it is given. */
  connect: (timeoutMs: number) => Promise<HealthConnection>;
  /** The app's pool, for its queue; a function, so a missing DATABASE_URL is reported rather than thrown. */
  appPool: () => PoolLoad;
  /** prisma/migrations of this build. */
  migrationsDir: string;
  /** How long the database may take to accept the connection, and then to answer. */
  timeoutMs: number;
  log: Logger;
}

/** Where the deployed code's migrations are: next.config.mjs ships them with the health route's function. */
export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/** The check's sessions in pg_stat_activity. */
export const HEALTH_APPLICATION_NAME = "pay-storefront health";

/**
 * A connection of the check's own to `connectionString` (DATABASE_URL, pooled or direct): not one
 * of the app's pool. No startup option a transaction-mode pooler refuses (`application_name` is
 * one PgBouncer passes on); `pg` gives up connecting after `timeoutMs`.
 */
export async function openHealthConnection(connectionString: string, timeoutMs: number): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: timeoutMs,
    application_name: HEALTH_APPLICATION_NAME,
  });
  // A server that drops the connection during the check fails its query; it must not crash the process.
  client.on("error", () => {});
  await client.connect();
  return client;
}

// One round trip. Without the history table (a database nobody migrated) it fails with 42P01.
const HEALTH_QUERY = `SELECT current_setting('TimeZone') AS "timeZone",
  ARRAY(SELECT migration_name FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied`;

/**
 * HEALTH_QUERY bounded on the server too, a second past the check's own limit. A check that gave
 * up closes its connection, but a query waiting on a lock (a migration's) does not notice, and
 * would hold its server session until the lock was gone: a check a second would pile sessions up
 * towards max_connections. SET LOCAL ends with the transaction, so a transaction-mode pooler
 * passes it; it is one round trip still (the simple protocol, several statements).
 */
function boundedHealthQuery(checkTimeoutMs: number): string {
  const limit = `'${Math.round(checkTimeoutMs) + 1_000}ms'`;
  return `BEGIN READ ONLY; SET LOCAL lock_timeout = ${limit}; SET LOCAL statement_timeout = ${limit};
${HEALTH_QUERY}; COMMIT`;
}

type HealthRow = { timeZone: string; applied: string[] };

/** The SELECT's rows among the answers to a string of statements (pg answers one result each). */
function selectRows(answer: pg.QueryResult<HealthRow> | pg.QueryResult<HealthRow>[]): HealthRow[] {
  if (!Array.isArray(answer)) return answer.rows ?? [];
  return answer.find((result) => result.command === "SELECT")?.rows ?? [];
}

/** SQLSTATE too_many_connections: the server (or the role's or database's limit) is full. */
const TOO_MANY_CONNECTIONS = "53300";

/**
 * One check. Anything but the database (the service, SMTP) is not the instance's health: a load
 * balancer that pulled every instance because the payment service is slow would turn a slow
 * service into a dead shop. The time zone is checked because a wrong one silently corrupts data.
 *
 * The check opens a connection of its own, with its own short timeout, and closes it: it never
 * waits in the app's pool, whose queue is longest exactly when the shop is busiest. A check that
 * took a full queue for a dead database would have a load balancer pull instances because they
 * are loaded, and push their shoppers onto the others. So it tells the two apart:
 *
 * - unreachable (503: take this instance out): no connection in time (refused, no such host, a
 *   wrong password, the database starting or gone), or an error instead of an answer;
 * - busy (200: keep it): the database is there but full (it refused the connection with 53300,
 *   too many connections) or slow (connected, no answer in time). Every instance sees the same,
 *   so taking this one out would not help; the body says `"database": "busy"` for a monitor;
 * - requests waiting for a connection of the app's own pool are reported beside a healthy
 *   answer (`"pool": "busy"`): the instance is loaded, not ill.
 */
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
  const pool = poolIsBusy(deps) ? ({ pool: "busy" } as const) : {};

  let connection: HealthConnection;
  try {
    connection = await connectWithin(deps);
  } catch (error) {
    if (sqlState(error) === TOO_MANY_CONNECTIONS) {
      return busy(`the database refused a new connection: it has all it allows (${TOO_MANY_CONNECTIONS})`, pool, deps);
    }
    return unreachable(
      error instanceof TimeoutError
        ? `could not connect to the database within ${deps.timeoutMs} ms`
        : `cannot connect to the database (${connectionErrorCode(error)})`,
      deps,
    );
  }

  let applied: Set<string>;
  let timeZone: string;
  try {
    const rows = selectRows(
      await withTimeout(deps.timeoutMs, () => connection.query<HealthRow>(boundedHealthQuery(deps.timeoutMs))),
    );
    applied = new Set(rows[0]?.applied ?? []);
    timeZone = rows[0]?.timeZone ?? "";
  } catch (error) {
    // No history table at all: a database nobody has migrated yet.
    if (isUndefinedTable(error)) return pending(expected);
    if (error instanceof TimeoutError) {
      return busy(`connected, but the database did not answer within ${deps.timeoutMs} ms`, pool, deps);
    }
    return unreachable(`cannot query the database (${connectionErrorCode(error)})`, deps);
  } finally {
    // Not awaited: a connection whose query is stuck must not hold the answer.
    void connection.end().catch(() => {});
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
  return { healthy: true, body: { database: "ok", migrations: "current", ...pool } };
}

/**
 * `deps.connect` within `timeoutMs`. Its own timeout is a little longer, a backstop that closes
 * the socket; a connection that opens after the check gave up is closed too, never left open.
 */
function connectWithin(deps: HealthDeps): Promise<HealthConnection> {
  return withTimeout(deps.timeoutMs, async (gaveUp) => {
    const opening = deps.connect(deps.timeoutMs + CONNECT_BACKSTOP_MS);
    opening.then(
      (late) => {
        if (gaveUp.aborted) void late.end().catch(() => {});
      },
      () => {},
    );
    return opening;
  });
}

const CONNECT_BACKSTOP_MS = 500;

function poolIsBusy(deps: HealthDeps): boolean {
  try {
    return deps.appPool().waitingCount > 0;
  } catch {
    // No DATABASE_URL: the connection reports it.
    return false;
  }
}

function busy(reason: string, pool: { pool?: "busy" }, deps: Pick<HealthDeps, "log">): HealthReport {
  deps.log("warn", "health.database_busy", { reason });
  return { healthy: true, body: { database: "busy", reason, ...pool } };
}

function unreachable(reason: string, deps: Pick<HealthDeps, "log">): HealthReport {
  deps.log("warn", "health.database_unreachable", { reason });
  return { healthy: false, body: { database: "unreachable", reason } };
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

const sqlState = (error: unknown) => (error as { code?: unknown } | null)?.code;

const isUndefinedTable = (error: unknown) => sqlState(error) === "42P01";

/** A network error's code (ECONNREFUSED) or the server's SQLSTATE; never a message, which may name users or hosts. */
function connectionErrorCode(error: unknown): string {
  const code = sqlState(error);
  return typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? code : errorKind(error);
}
