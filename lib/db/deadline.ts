import "server-only";
import type pg from "pg";
import { transactionOn, type ConnectionPool, type TransactionRunner } from "./sql-runner";

/**
 * One transaction that is over by a deadline ({@link transactionBefore}): committed in time, or
 * abandoned and rolled back, never committed after its caller has given up (and answered that
 * nothing was done). It runs on one of the pool's connections through `pg` itself: it is the
 * webhook's path, where Prisma's interactive transaction cost more than the statement.
 */
/** What a transaction was waiting for when its time ran out. */
export type DeadlineWait = "connection" | "lock" | "statement" | "answer";

export class DeadlineExceeded extends Error {
  override name = "DeadlineExceeded";
  constructor(
    readonly waitingFor: DeadlineWait,
    /** Settles once the given-up transaction has ended, rolled back: for `after()`, so the process outlives it. */
    readonly settled: Promise<void>,
  ) {
    super(`the database did not answer in time (waiting for: ${waitingFor})`);
  }
}

/** Thrown inside the transaction to roll it back once its caller has given up on it. */
class GivenUp extends Error {
  override name = "GivenUp";
}

type Phase = "connecting" | "working" | "committing" | "given up";

/**
 * Work still running this long after its deadline was given up on loses its connection: closing
 * it ends the transaction on the server, rolled back, and gives the pool its slot back, where
 * work that never settles (a hung call in this process) would otherwise keep both.
 */
const TRANSACTION_GRACE_MS = 5_000;

/**
 * Runs `work` in a transaction that commits before `deadline` (epoch milliseconds) or not at
 * all; throws {@link DeadlineExceeded} when the deadline passes first, or when the database gave
 * up on a lock, a statement or a connection within it.
 *
 * Racing a timer is not enough on its own: the losing query goes on, and would commit later. So:
 * - inside the transaction, `lock_timeout` and `statement_timeout` are set to the time left
 *   (`set_config(…, true)`, i.e. SET LOCAL: it holds through a transaction-mode pooler too), so
 *   on PostgreSQL a statement stuck behind a lock ends by itself at the deadline. They travel
 *   with BEGIN, and the work's first statement right behind them, in one round trip
 *   (transactionOn on the app's pipelined pool);
 * - the work commits only if, when it is done, the deadline has not been given up on: the check
 *   and the timer's "give up" are each one synchronous step, so exactly one of them wins. A
 *   transaction that was given up on is rolled back whenever its statements come back, for
 *   instance on embedded PGlite, which enforces neither timeout and runs one connection at a time.
 * Once the commit has been sent, the timer waits for its answer: the work is done, say so.
 * Waiting for a connection is bounded by the pool's own acquire timeout (DATABASE_ACQUIRE_TIMEOUT_MS)
 * as well as by the deadline.
 */
export async function transactionBefore<T>(
  pool: ConnectionPool,
  deadline: number,
  work: (tx: TransactionRunner) => Promise<T>,
): Promise<T> {
  const budgetMs = Math.floor(deadline - Date.now());
  // Already past it (a body that took the whole time to arrive): nothing was started.
  if (budgetMs <= 0) throw new DeadlineExceeded("connection", Promise.resolve());

  let phase: Phase = "connecting";
  // Read through a function: the timer and the transaction change it while the other waits.
  const givenUp = () => phase === "given up";
  let connection: pg.PoolClient | undefined;
  let released = false;
  const release = (error?: Error) => {
    if (released || !connection) return;
    released = true;
    connection.release(error);
  };

  const transaction = (async () => {
    connection = await pool.connect();
    if (givenUp()) {
      release();
      throw new GivenUp();
    }
    phase = "working";
    // A whole number of milliseconds, written by us: the one statement here without parameters,
    // so that BEGIN and both settings go in one simple query.
    const leftMs = Math.max(1, Math.floor(deadline - Date.now()));
    return transactionOn(connection, work, {
      begin: `BEGIN; SELECT set_config('lock_timeout', '${leftMs}ms', true), set_config('statement_timeout', '${leftMs}ms', true)`,
      beforeCommit: () => {
        if (givenUp()) throw new GivenUp();
        phase = "committing";
      },
      // Through the guard: the grace timer may have closed the connection already.
      release,
    });
  })();
  // Whatever happens to it once given up on is expected: never an unhandled rejection.
  const settled = transaction.then(
    () => undefined,
    () => undefined,
  );

  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((resolve) => (timer = setTimeout(() => resolve("expired"), budgetMs)));
  const first = await Promise.race([
    transaction.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    expired,
  ]);
  clearTimeout(timer);

  if (first === "expired") {
    const now = phase as Phase;
    if (now !== "committing") {
      const waitingFor = now === "connecting" ? "connection" : "answer";
      phase = "given up";
      const grace = setTimeout(() => release(new Error("the transaction outlived its deadline")), TRANSACTION_GRACE_MS);
      grace.unref?.();
      void settled.then(() => clearTimeout(grace));
      throw new DeadlineExceeded(waitingFor, settled);
    }
    // The commit is on its way: its answer is the answer.
    return transaction.catch((error: unknown) => {
      throw asDeadline(error, settled);
    });
  }
  if ("error" in first) throw asDeadline(first.error, settled);
  return first.value;
}

/** `error` as a {@link DeadlineExceeded} when the database or the pool gave up waiting; otherwise as it is. */
function asDeadline(error: unknown, settled: Promise<void>): unknown {
  const waitingFor = timeoutOf(error);
  return waitingFor ? new DeadlineExceeded(waitingFor, settled) : error;
}

/** PostgreSQL's lock_timeout and statement_timeout, and pg's acquire timeout, wherever in the error's chain. */
function timeoutOf(error: unknown, depth = 0): DeadlineWait | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (code === "55P03") return "lock";
  if (code === "57014") return "statement";
  if (typeof message === "string" && /timeout exceeded when trying to connect|due to connection timeout/.test(message))
    return "connection";
  return timeoutOf(cause, depth + 1);
}
