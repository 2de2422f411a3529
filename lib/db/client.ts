import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { attachDatabasePool } from "@vercel/functions";
import pg from "pg";
import { getDatabaseEnv, nodeEnv, type DatabaseEnv } from "../env";
import { PrismaClient } from "../generated/prisma/client";

/**
 * The app's one Prisma client, `db()`, talking to PostgreSQL through `pg` (Prisma 7's driver
 * adapter), and that `pg` pool, `dbPool()`, so plain SQL beside Prisma (the rate limits'
 * counters) shares its connections instead of opening a second pool. Nothing waits without a
 * bound: a query waits DATABASE_ACQUIRE_TIMEOUT_MS at most for a connection, and each new
 * connection first sets its session's lock_timeout and statement_timeout.
 */

const noop = () => undefined;

/** Vercel's advice for functions: a suspended instance should not keep idle connections open. */
const VERCEL_IDLE_TIMEOUT_MS = 5_000;
/** pg's own default, for long-running servers. */
const SERVER_IDLE_TIMEOUT_MS = 10_000;

/** The pool's settings in `env`: pure, so a test can read them without a database. */
export function poolConfig(env: DatabaseEnv): pg.PoolConfig {
  return {
    connectionString: env.databaseUrl,
    max: env.databasePoolMax,
    idleTimeoutMillis: env.onVercel ? VERCEL_IDLE_TIMEOUT_MS : SERVER_IDLE_TIMEOUT_MS,
    connectionTimeoutMillis: env.acquireTimeoutMs,
    // A transaction's first statement goes out behind its BEGIN instead of waiting for it
    // (lib/db/sql-runner.ts). Everything else awaits each statement, as without it.
    pipeline: true,
  };
}

/**
 * The statement each new connection runs before any other: its session's timeouts. A query, not
 * startup parameters (`options`, pg's `statement_timeout`), which a transaction-mode PgBouncer
 * refuses, failing the connection: DATABASE_URL may go through such a pooler (Vercel's Neon
 * integration gives a pooled one), so the pool sends no startup option and relies on no session
 * state between transactions. Behind a pooler this SET lands on one of its server connections
 * only, so there the role's own defaults are the sure way (docs/database.md), and work that must
 * finish in time sets its bounds inside its own transaction (lib/db/deadline.ts), which a pooler
 * keeps. The sessions' time zone, UTC, is the database's own default (docs/database.md).
 */
export function sessionTimeouts(env: Pick<DatabaseEnv, "lockTimeoutMs" | "statementTimeoutMs">): pg.QueryConfig {
  return {
    text: "SELECT set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false)",
    values: [`${env.lockTimeoutMs}ms`, `${env.statementTimeoutMs}ms`],
  };
}

function createClient() {
  const env = getDatabaseEnv();
  const timeouts = sessionTimeouts(env);
  const pool = new pg.Pool({
    ...poolConfig(env),
    // The pool hands a new connection out once this has run, so it comes before whatever the
    // connection was taken for (a query sent meanwhile would be a second one on a busy client,
    // which pg 9 refuses). A failure is the connection's (the next query on it fails too), not
    // worth refusing the connection for. Both 0: nothing to send (docs/database.md: a proxy that
    // pins a connection once it sees a SET).
    ...(env.lockTimeoutMs > 0 || env.statementTimeoutMs > 0
      ? { onConnect: (connection: pg.ClientBase) => connection.query(timeouts).then(noop, noop) }
      : {}),
  });
  // On Vercel, keeps the function from being suspended until the pool has closed its idle
  // connections (idleTimeoutMillis after the last query, plus 100 ms), so they are not left
  // open on the database while the instance sleeps. It does nothing outside Vercel's functions.
  if (env.onVercel) attachDatabasePool(pool);
  // An idle connection the server dropped (a restart, a failover) is reported as an "error" event,
  // which crashes the process if nobody listens; the pool has already discarded it and the next
  // query opens another. Prisma's adapter listens (silently) once it connects; this covers the
  // time before, when the rate limiter may have used the pool first.
  pool.on("error", () => {});
  // The same event on a connection the pool has handed out (a transaction through `pg` itself,
  // lib/db/sql-runner.ts), which the pool no longer listens to: the statement in flight, or the
  // next one, fails with the error, and that is what the caller sees and answers; the event
  // itself, unheard, would be an uncaught exception.
  pool.on("connect", (connection) => connection.on("error", noop));
  const client = new PrismaClient({
    // db().$disconnect() ends the pool too (scripts call it before exiting).
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // No query log: the worker polls every 2 s, which would bury everything else in development.
    log: ["warn", "error"],
  });
  poolOf.set(client, pool);
  return client;
}

type ShopPrismaClient = ReturnType<typeof createClient>;

/**
 * A Prisma client of the shop's schema, for functions that take the client as a dependency:
 * `db()`, or one a test made for a scratch database. (Without `$on`, whose type depends on the
 * client's log settings.)
 */
export type Database = Omit<PrismaClient, "$on">;

// `next dev` re-evaluates modules on every edit; keeping the client on globalThis stops each
// reload from opening another connection pool until the database refuses connections. Each
// client's pool is found through it, so the two never come from different reloads.
const hotReloadCache = globalThis as typeof globalThis & {
  shopPrismaClient?: ShopPrismaClient;
  shopPgPools?: WeakMap<object, pg.Pool>;
};
const poolOf = (hotReloadCache.shopPgPools ??= new WeakMap());

let client: ShopPrismaClient | undefined;

/**
 * Created on first use rather than on import, so modules that import it can load (and be
 * type-checked or built) without DATABASE_URL; a bad DATABASE_URL fails at the first query with
 * lib/env.ts's message naming the variable.
 */
export function db(): ShopPrismaClient {
  client ??= hotReloadCache.shopPrismaClient ?? createClient();
  if (nodeEnv() !== "production") hotReloadCache.shopPrismaClient = client;
  return client;
}

/** The `pg` pool under `db()`: the same connections, for SQL that does not go through Prisma. */
export function dbPool(): pg.Pool {
  const pool = poolOf.get(db());
  if (!pool) throw new Error("db() was created without its pg pool");
  return pool;
}
