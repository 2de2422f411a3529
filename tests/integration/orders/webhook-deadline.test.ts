import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { db, dbPool } from "@/lib/db/client";
import { DeadlineExceeded, transactionBefore } from "@/lib/db/deadline";
import { Prisma } from "@/lib/generated/prisma/client";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, jobsOf } from "../../../harness/support/orders";
import { eventsOf, notification, postWebhook } from "../../../harness/support/webhooks";

// POST /api/pay/webhook against a database that does not answer in time: a row another session
// keeps locked, a pool whose every connection is taken. The service wants its answer within 5 s
// and delivers again after a 5xx, so the webhook answers 503 before then and changes nothing,
// and the delivery the service sends again is applied once.
//
// On embedded PGlite every connection shares one session, and a transaction another connection
// holds open stops every other connection's statements (harness/pglite-query-queue.ts), not only
// those on the locked row; PGlite does not enforce lock_timeout or statement_timeout either. So
// there the same test proves the other half of the deadline: the delivery abandoned at its
// deadline runs once the database is free again, and is rolled back instead of committing.

/** The pool of this file's db(): small, and quick to give up, so it can be exhausted. */
const POOL_MAX = 3;
const ACQUIRE_TIMEOUT_MS = 1_000;
/** Longer than the webhook's deadline: the webhook must bound its own wait for the order's row. */
const LOCK_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 20_000;
/** How long the service waits for an answer (contract): every bound below is under it. */
const SERVICE_WAITS_MS = 5_000;

beforeAll(async () => {
  vi.stubEnv("DATABASE_POOL_MAX", String(POOL_MAX));
  vi.stubEnv("DATABASE_ACQUIRE_TIMEOUT_MS", String(ACQUIRE_TIMEOUT_MS));
  vi.stubEnv("DATABASE_LOCK_TIMEOUT_MS", String(LOCK_TIMEOUT_MS));
  vi.stubEnv("DATABASE_STATEMENT_TIMEOUT_MS", String(STATEMENT_TIMEOUT_MS));
  // Loaded before any answer is timed: a module's first import is this runner's, not the route's.
  await import("@/app/api/pay/webhook/route");
  await import("@/app/api/pay/order/[externalTransactionId]/status/route");
});
afterAll(async () => {
  await db().$disconnect();
  vi.unstubAllEnvs();
});
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

/** What the handler logged while `run` ran, one parsed JSON line each. */
async function logsOf<T>(run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const keep = (...args: unknown[]) => {
    try {
      lines.push(JSON.parse(String(args[0])) as Record<string, unknown>);
    } catch {
      lines.push({ text: args.map(String).join(" ") });
    }
  };
  for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(keep);
  try {
    return { result: await run(), lines };
  } finally {
    vi.restoreAllMocks();
  }
}

/** `answer` raced against a bound well past the service's, so a handler that hangs fails the test instead of timing it out. */
async function answeredWithin<T>(
  answer: Promise<T>,
  boundMs = 8_000,
): Promise<{ answer: T | "no answer"; ms: number }> {
  const started = performance.now();
  const result = await Promise.race([answer, sleep(boundMs).then(() => "no answer" as const)]);
  return { answer: result, ms: Math.round(performance.now() - started) };
}

/** The order's row and everything a delivery writes about it. */
async function stateOf(order: { id: string; externalTransactionId: string }) {
  const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
  return {
    status: row.status,
    finalizedAt: row.finalizedAt,
    updatedAt: row.updatedAt,
    jobs: (await jobsOf(order.externalTransactionId)).map((job) => job.type),
    events: (await eventsOf(order.externalTransactionId)).map((event) => event.outcome),
  };
}

const unavailable = { status: 503, body: { error: { code: "unavailable" } } };

const embedded = !process.env.TEST_SERVER_DATABASE_URL;

/** Sessions waiting now for a lock that `holder`'s session holds, as PostgreSQL reports them. */
async function sessionsWaitingBehind(holder: pg.Client): Promise<number> {
  const { rows } = await holder.query<{ waiting: number }>(
    "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))",
  );
  return rows[0]!.waiting;
}

describe("the app's pool", () => {
  it("gives its sessions the configured lock_timeout and statement_timeout", async () => {
    const { rows } = await dbPool().query<{ lock: string; statement: string }>(
      "SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement",
    );
    expect(rows).toEqual([{ lock: "10s", statement: "20s" }]);
  });
});

describe("a webhook whose order another session keeps locked", () => {
  it("answers 503 within 5 s and changes nothing; the delivery sent again is applied once", async () => {
    const order = await insertTestOrder();
    const before = await stateOf(order);
    const body = notification(order.externalTransactionId, "CON");

    // Another session locks the order's row, as a slow transaction of the shop would, and keeps it.
    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: "slow transaction" });
    await locker.connect();
    let delivered;
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM orders WHERE id = $1 FOR UPDATE", [order.id]);
      delivered = await logsOf(() => answeredWithin(postWebhook(body)));
      // On PostgreSQL the delivery's own statement gave up at the deadline too (lock_timeout set
      // inside its transaction): nothing is left queued behind the lock while it is still held.
      if (!embedded) await expect.poll(() => sessionsWaitingBehind(locker), { timeout: 1_000 }).toBe(0);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    console.log(
      `[webhook-deadline.test] answered ${delivered.result.answer === "no answer" ? "nothing" : delivered.result.answer.status} after ${delivered.result.ms} ms with the order locked`,
    );
    expect(delivered.result.answer).toMatchObject(unavailable);
    expect(delivered.result.ms).toBeLessThan(SERVICE_WAITS_MS);
    // Said in the log, without the order or anything of the shopper's.
    expect(delivered.lines).toContainEqual(
      expect.objectContaining({ level: "warn", event: "webhook.deadline_exceeded" }),
    );
    expect(JSON.stringify(delivered.lines)).not.toContain(order.externalTransactionId.slice("order_".length));

    // The abandoned delivery has ended now that the row is free (after() waits for it): rolled
    // back, never committed after its 503.
    await settleAfterTasks();
    expect(await stateOf(order)).toEqual(before);

    // The service delivers it again: applied once, its jobs enqueued once; a third changes nothing.
    expect(await postWebhook(body)).toEqual({ status: 200, body: { received: true, outcome: "transitioned" } });
    expect(await postWebhook(body)).toEqual({ status: 200, body: { received: true, outcome: "already_final" } });
    await settleAfterTasks();
    expect(await stateOf(order)).toMatchObject({
      status: "CON",
      jobs: ["clear-cart", "confirmation-mail", "record-invoice"],
      events: ["transitioned", "already_final"],
    });
  });
});

describe("with every connection of the pool taken", () => {
  it("a request waits DATABASE_ACQUIRE_TIMEOUT_MS for one, then gets a clear 503, and the webhook changes nothing", async () => {
    const order = await insertTestOrder();
    const before = await stateOf(order);
    const body = notification(order.externalTransactionId, "CON");

    const held = await Promise.all(Array.from({ length: POOL_MAX }, () => dbPool().connect()));
    let statusRead, delivered, acquired;
    try {
      const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
      statusRead = await logsOf(() =>
        answeredWithin(
          GET(new Request(`http://localhost:3000/api/pay/order/${order.externalTransactionId}/status`), {
            params: Promise.resolve({ externalTransactionId: order.externalTransactionId }),
          }).then(async (response) => ({ status: response.status, body: await response.json() })),
        ),
      );
      delivered = await logsOf(() => answeredWithin(postWebhook(body)));
      acquired = await answeredWithin(
        dbPool()
          .connect()
          .then(
            (client) => (client.release(), "connected"),
            (error: Error) => error.message,
          ),
      );
    } finally {
      for (const client of held) client.release();
    }
    console.log(
      `[webhook-deadline.test] pool exhausted: status ${statusRead.result.ms} ms, webhook ${delivered.result.ms} ms`,
    );

    expect(statusRead.result.answer).toMatchObject(unavailable);
    expect(statusRead.result.ms).toBeGreaterThanOrEqual(ACQUIRE_TIMEOUT_MS - 50);
    expect(statusRead.result.ms).toBeLessThan(SERVICE_WAITS_MS);
    expect(delivered.result.answer).toMatchObject(unavailable);
    expect(delivered.result.ms).toBeLessThan(SERVICE_WAITS_MS);
    expect(delivered.lines).toContainEqual(
      expect.objectContaining({ event: "webhook.deadline_exceeded", waitingFor: "connection" }),
    );
    // pg's own words: what the pool says to whoever asks it for a connection.
    expect(acquired.answer).toMatch(/timeout exceeded when trying to connect/);

    await settleAfterTasks();
    expect(await stateOf(order)).toEqual(before);
    expect(await postWebhook(body)).toEqual({ status: 200, body: { received: true, outcome: "transitioned" } });
  });
});

describe("transactionBefore", () => {
  const marker = () => `deadline-test:${randomUUID()}`;
  const written = async (key: string) => (await db().rateLimit.count({ where: { key } })) > 0;

  it("rolls back work still running at the deadline when it comes back: it never commits after the caller gave up", async () => {
    const key = marker();
    await written(key); // a connection ready, so the deadline passes while the work runs
    let workEnded!: () => void;
    const ended = new Promise<void>((resolve) => (workEnded = resolve));
    const attempt = transactionBefore(dbPool(), Date.now() + 500, async (tx) => {
      await tx.$executeRaw(Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1)`);
      // Busy past the deadline in this process (no statement the database could time out).
      await sleep(1_000);
      workEnded();
      return "done";
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect(error).toMatchObject({ waitingFor: "answer" });
    await ended;
    await (error as DeadlineExceeded).settled;
    expect(await written(key)).toBe(false);
  });

  it("commits work done in time and answers with it", async () => {
    const key = marker();
    const result = await transactionBefore(dbPool(), Date.now() + 3_000, async (tx) => {
      await tx.$executeRaw(Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1)`);
      return "done";
    });
    expect(result).toBe("done");
    expect(await written(key)).toBe(true);
  });
});
