import "server-only";
import pg from "pg";
import { Prisma } from "../generated/prisma/client";

/**
 * Prisma.Sql statements sent through `pg` itself, for the paths where Prisma's own path costs
 * more than the statement (the webhook's transaction, lib/db/deadline.ts): the text and values
 * Prisma would send, and rows in the shapes Prisma's `$queryRaw` gives, so a function written
 * for `SqlRunner` runs the same on `db()` and here. `pgRunner(pool)` runs each statement on
 * whichever connection is free, and `$transaction` on one connection of its own; on a connection
 * already in a transaction, `$transaction` joins it.
 */

/** What runs a Prisma.Sql statement: `db()`, its transaction client, or {@link pgRunner}. */
export type SqlRunner = { $queryRaw<T>(query: Prisma.Sql): Promise<T> };

/** A runner that also says how many rows a statement changed. */
export type SqlExecutor = SqlRunner & { $executeRaw(query: Prisma.Sql): Promise<number> };

/** A runner that can also open a transaction (or join the one it is in). */
export type TransactionRunner = SqlExecutor & {
  $transaction<T>(work: (tx: TransactionRunner) => Promise<T>): Promise<T>;
};

/** Where the connections come from: the app's pool (dbPool()) or any pg.Pool. */
export type ConnectionPool = Pick<pg.Pool, "connect" | "query">;

/** timestamp without time zone as the shop stores it: UTC (docs/database.md), whatever the process's zone. */
const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

/**
 * The values Prisma's `$queryRaw` gives where `pg`'s own parsers differ: int8 as bigint, numeric as
 * a Decimal, date and timestamp read as UTC. Everything else (text, uuid, int4, bool, json,
 * timestamptz, bytea, arrays of int4 and text) `pg` already reads as Prisma does.
 */
const PRISMA_SHAPES: Partial<Record<number, (text: string) => unknown>> = {
  [pg.types.builtins.INT8]: (text) => BigInt(text),
  [pg.types.builtins.NUMERIC]: (text) => new Prisma.Decimal(text),
  [pg.types.builtins.DATE]: (text) => (/^\d{4}-\d\d-\d\d$/.test(text) ? new Date(`${text}T00:00:00Z`) : text),
  [pg.types.builtins.TIMESTAMP]: (text) =>
    UTC_TIMESTAMP.test(text) ? new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(1114)(text),
};

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    PRISMA_SHAPES[oid] ?? pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * A value as Prisma sends it: a Date as its UTC instant (pg would write local wall time, which a
 * timestamp without time zone keeps as is), a Decimal as its digits (pg would send it as JSON).
 */
function asParameter(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Prisma.Decimal.isDecimal(value)) return value.toString();
  if (Array.isArray(value)) return value.map(asParameter);
  return value;
}

export const queryConfig = (query: Prisma.Sql): pg.QueryConfig => ({
  text: query.text,
  values: query.values.map(asParameter),
  types,
});

/** Runs on `client`, a connection in a transaction: `$transaction` joins it. */
export function onConnection(client: pg.ClientBase): TransactionRunner {
  const runner: TransactionRunner = {
    $queryRaw: async <T>(query: Prisma.Sql) => (await client.query(queryConfig(query))).rows as T,
    $executeRaw: async (query) => (await client.query(queryConfig(query))).rowCount ?? 0,
    $transaction: (work) => work(runner),
  };
  return runner;
}

/**
 * `work` in one transaction on `client`, a connection taken from a pool: `begin` (BEGIN, or a
 * simple query that starts with it), then COMMIT, or ROLLBACK on any failure, and the connection
 * given back through `release`. `beforeCommit` may still refuse the commit by throwing.
 *
 * On a pipelined connection (the app's pool, lib/db/client.ts) the work's first statement goes
 * out right behind `begin`, without waiting for its answer: the server runs them in the order
 * sent, so the statement is inside the transaction, and both leave in one write and one round
 * trip. A `begin` that failed (its settings, say) leaves the transaction aborted, so the
 * statement behind it fails too; `begin`'s own error is the one reported, and nothing is
 * committed.
 */
export async function transactionOn<T>(
  client: pg.PoolClient,
  work: (tx: TransactionRunner) => Promise<T>,
  steps: { begin?: string; beforeCommit?: () => void; release?: (broken?: Error) => void } = {},
): Promise<T> {
  let broken: Error | undefined;
  try {
    let result: T;
    if (client.pipeline) {
      // Held back until the work has sent its first statement (before its first await), so
      // BEGIN and that statement leave in one write: each write is a system call.
      const socket = client.connection.stream;
      socket.cork();
      let begun: Promise<unknown>;
      let working: Promise<T>;
      try {
        begun = client.query(steps.begin ?? "BEGIN");
        // Runs now, up to its first await; a work that throws at once rejects like one that fails later.
        working = (async () => work(onConnection(client)))();
      } finally {
        socket.uncork();
      }
      const [started, worked] = await Promise.allSettled([begun, working]);
      if (started.status === "rejected") throw started.reason;
      if (worked.status === "rejected") throw worked.reason;
      result = worked.value;
    } else {
      await client.query(steps.begin ?? "BEGIN");
      result = await work(onConnection(client));
    }
    steps.beforeCommit?.();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw error;
  } finally {
    // A connection that could not even roll back is closed, not given to the next caller.
    if (steps.release) steps.release(broken);
    else client.release(broken);
  }
}

/** Statements on `pool`'s connections; `$transaction` takes one for BEGIN … COMMIT. */
export function pgRunner(pool: ConnectionPool): TransactionRunner {
  return {
    $queryRaw: async <T>(query: Prisma.Sql) => (await pool.query(queryConfig(query))).rows as T,
    $executeRaw: async (query) => (await pool.query(queryConfig(query))).rowCount ?? 0,
    $transaction: async (work) => transactionOn(await pool.connect(), work),
  };
}
