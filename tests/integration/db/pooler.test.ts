import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db, dbPool } from "@/lib/db/client";
import { sessionTimeZone } from "@/lib/db/time-zone";
import { consumeRateLimit } from "@/lib/db/rate-limit";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { checkout, placeOrder as placeShopOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, jobsOf } from "../../../harness/support/orders";
import { pgBouncerBinary, startPgBouncer, type RunningPgBouncer } from "../../../harness/support/pgbouncer";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { eventsOf, notification, postWebhook } from "../../../harness/support/webhooks";

// The app behind a transaction-mode pooler, as on Vercel with Neon's pooled DATABASE_URL: the
// real lib/db/client.ts pool, through a real PgBouncer, to a database whose own default time zone
// was far from UTC (Pacific/Kiritimati, UTC+14) until the migrations made it UTC. Every flow
// below writes or compares timestamps with now() in SQL, so a session in the wrong zone shows as
// stored times 14 hours off, or as holds that look expired the moment they are taken.

const serverUrl = process.env.TEST_SERVER_DATABASE_URL || undefined;
const binary = pgBouncerBinary();
const inCi = /^(1|true)$/i.test(process.env.CI ?? "");
const unavailable = !serverUrl
  ? "no PostgreSQL server (DATABASE_URL unset), and a pooler cannot front embedded PGlite's one shared session"
  : !binary
    ? "pgbouncer is not installed (apt-get install -y pgbouncer)"
    : undefined;

if (unavailable && serverUrl && inCi) {
  it("PgBouncer is installed, so the pooler test runs in CI", () => {
    throw new Error(`pgbouncer was not found on PATH or in /usr/sbin; .ci/run installs it (${unavailable})`);
  });
} else if (unavailable) {
  // Said out loud: the reporter folds a file whose tests are all skipped into one line.
  console.warn(`[pooler.test] the PgBouncer tests are skipped: ${unavailable}`);
  it.skip(`through PgBouncer: skipped, ${unavailable}`, () => {});
}

/** A new session's zone, and whether a hold written from JS as ending in 30 minutes already looks over to now(). */
const probe = (url: string) =>
  withPgClient(url, async (client) => {
    const holdEnds = new Date(Date.now() + 30 * 60_000).toISOString().replace("T", " ").replace("Z", "");
    const { rows } = await client.query<{ zone: string; holdLooksOver: boolean }>(
      `SELECT current_setting('TimeZone') AS zone, $1::timestamp <= now() AS "holdLooksOver"`,
      [holdEnds],
    );
    return rows[0]!;
  });

/** Within a minute of this machine's clock; the message says how many hours off it was. */
function expectNow(what: string, value: Date | null | undefined) {
  const offMs = value ? value.getTime() - Date.now() : Number.NaN;
  expect(Math.abs(offMs), `${what} is ${(offMs / 3_600_000).toFixed(2)} h from now`).toBeLessThan(60_000);
}

describe.runIf(!unavailable)("through PgBouncer in transaction mode", () => {
  let database: TestDatabase;
  let bouncer: RunningPgBouncer;
  let pooledUrl: string;
  let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;
  const zones: Record<string, Awaited<ReturnType<typeof probe>>> = {};

  beforeAll(async () => {
    database = await createTestDatabase("pooler");
    const name = new URL(database.url).pathname.slice(1);
    await withPgClient(database.url, (client) =>
      client.query(`ALTER DATABASE "${name}" SET "TimeZone" TO 'Pacific/Kiritimati'`),
    );
    bouncer = await startPgBouncer({ binary: binary!, serverUrl: serverUrl! });
    zones.pooledBeforeMigrating = await probe(bouncer.url(name));
    // As a deployment does: migrate over the direct URL (DATABASE_URL_UNPOOLED).
    await applyMigrations({ connectionString: database.url });
    zones.direct = await probe(database.url);
    // A pooler whose pool connected before the migration keeps handing out the old zone.
    zones.pooledByTheSamePooler = await probe(bouncer.url(name));
    await bouncer.stop();
    bouncer = await startPgBouncer({ binary: binary!, serverUrl: serverUrl! });
    pooledUrl = bouncer.url(name);
    zones.pooled = await probe(pooledUrl);

    // The app's own client: lib/db/client.ts reads DATABASE_URL when db() is first called.
    process.env.DATABASE_URL = pooledUrl;
    sandbox = await useOwnSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
    await db().$disconnect();
    await bouncer?.stop();
    await database?.drop();
  });
  afterEach(async () => {
    await settleAfterTasks();
    vi.restoreAllMocks();
  });

  const quiet = () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
  };

  const placeOrder = async (productId: string, quantity: number) =>
    (await placeShopOrder({ items: [{ productId, quantity }] })).externalTransactionId;

  const orderRow = (externalTransactionId: string) =>
    db().order.findUniqueOrThrow({ where: { externalTransactionId } });
  const stockOf = async (productId: string) =>
    (await db().product.findUniqueOrThrow({ where: { id: productId } })).stock;

  it("PgBouncer refuses the startup parameter the pool used to send", async () => {
    const client = new pg.Client({ connectionString: pooledUrl, options: "-c TimeZone=UTC" });
    await expect(client.connect()).rejects.toThrow("unsupported startup parameter: options");
    await client.end().catch(() => undefined);
    expect(bouncer.log()).toContain("unsupported startup parameter: options");
  });

  it("the migration makes new sessions UTC; a pooler connected before keeps the old zone until it reconnects", () => {
    expect(zones).toEqual({
      pooledBeforeMigrating: { zone: "Pacific/Kiritimati", holdLooksOver: true },
      direct: { zone: "UTC", holdLooksOver: false },
      pooledByTheSamePooler: { zone: "Pacific/Kiritimati", holdLooksOver: true },
      pooled: { zone: "UTC", holdLooksOver: false },
    });
  });

  it("the app's pool goes through the pooler, without startup options, and its sessions are UTC", async () => {
    expect(dbPool().options.connectionString).toBe(pooledUrl);
    expect(dbPool().options).not.toHaveProperty("options");
    expect(await sessionTimeZone(dbPool())).toEqual({ timeZone: "UTC", utc: true });
  });

  it("GET /api/health opens its own connection through the pooler (application_name passes) and answers healthy", async () => {
    const { GET } = await import("@/app/api/health/route");
    const response = await GET(new Request("http://localhost:3000/api/health"));
    // "ok": the database answered and holds every migration of this build.
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.status).toBe(200);
  });

  it("a checkout stores UTC times and holds its units until the hold runs out", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 2 });
    const hoarder = await placeOrder(product.id, 2);
    const placed = await orderRow(hoarder);
    expectNow("created_at", placed.createdAt);
    expectNow("updated_at", placed.updatedAt);
    expect((placed.holdExpiresAt.getTime() - Date.now()) / 1000).toBeGreaterThan(1740);
    expect((placed.holdExpiresAt.getTime() - Date.now()) / 1000).toBeLessThan(1860);

    // The hold is current, so a shopper who needs those units is refused and nobody is asked
    // about the order (in UTC+14 it would have looked expired, and been cancelled).
    expect(await checkout(product.id, 1)).toMatchObject({ status: 409, body: { error: { code: "out_of_stock" } } });
    expect(await orderRow(hoarder)).toMatchObject({ status: "PEN", statusCheckedAt: null });

    // The hold runs out (written from JS, compared with now() in SQL); the next shopper ends it.
    await db().order.update({
      where: { externalTransactionId: hoarder },
      data: { holdExpiresAt: new Date(Date.now() - 1_000) },
    });
    expect((await checkout(product.id, 1)).status).toBe(200);
    const ended = await orderRow(hoarder);
    expect(ended).toMatchObject({ status: "CAN", cancelReason: "hold_expired" });
    expectNow("finalized_at", ended.finalizedAt);
    expectNow("status_checked_at", ended.statusCheckedAt);
    expectNow("stock_released_at", ended.stockReleasedAt);
    expect(await stockOf(product.id)).toBe(1);
  });

  it("webhooks go through the state machine and the jobs they enqueue are claimed and run", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 3 });
    const order = await placeOrder(product.id, 1);

    // A payment reference extends the hold in SQL: now() plus the reference's life span and margin.
    expect((await postWebhook(notification(order, "PEN", { paymentReference: "555444333" }))).status).toBe(200);
    const referenced = await orderRow(order);
    expect((referenced.holdExpiresAt.getTime() - Date.now()) / 60_000).toBeGreaterThan(1499);
    expect((referenced.holdExpiresAt.getTime() - Date.now()) / 60_000).toBeLessThan(1501);
    expectNow("updated_at", referenced.updatedAt);

    expect((await postWebhook(notification(order, "CON"))).body).toMatchObject({ outcome: "transitioned" });
    await settleAfterTasks();
    const paid = await orderRow(order);
    expect(paid.status).toBe("CON");
    expectNow("finalized_at", paid.finalizedAt);
    for (const event of await eventsOf(order)) expectNow("webhook_events.received_at", event.receivedAt);

    const jobs = await jobsOf(order);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(job).toMatchObject({ status: "DONE", attempts: 1 });
      expectNow(`${job.type} run_at`, job.runAt);
      expectNow(`${job.type} updated_at`, job.updatedAt);
    }
  });

  it("a rate limit counts through the pooler", async () => {
    const key = `client-${randomUUID()}`;
    const limit = { pointsPerMinute: 2 };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await consumeRateLimit("pooler-test", key, limit)).toEqual({ ok: true });
    expect(await consumeRateLimit("pooler-test", key, limit)).toEqual({ ok: true });
    // Failing open (the counter unreachable) would answer ok.
    const refused = await consumeRateLimit("pooler-test", key, limit);
    expect(refused).toEqual({ ok: false, reason: "limited", retryAfterSeconds: expect.any(Number) });
    expect(!refused.ok && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(warn).not.toHaveBeenCalled();
    const { rows } = await dbPool().query<{ expire: string }>("SELECT expire FROM rate_limits WHERE key = $1", [
      `pooler-test:${key}`,
    ]);
    expectNow("rate_limits.expire minus the window", new Date(Number(rows[0]?.expire) - 60_000));
  });

  it("a webhook whose order another session keeps locked answers 503 in time: its bounds are set inside its transaction, which the pooler keeps", async () => {
    quiet();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const product = await insertTestProduct({ stock: 3 });
    const order = await placeOrder(product.id, 1);
    const body = notification(order, "CON");
    // A direct session (not through the pooler) holds the order's row.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    let answer;
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM orders WHERE external_transaction_id = $1 FOR UPDATE", [order]);
      const started = performance.now();
      answer = await Promise.race([
        postWebhook(body).then((response) => ({ ...response, ms: performance.now() - started })),
        new Promise((resolve) => setTimeout(() => resolve("no answer"), 8_000)),
      ]);
      // The delivery's statement gave up by itself at the deadline, through the pooler: nothing
      // waits behind the lock any more while it is still held.
      const waitingBehindLocker = async () =>
        (
          await locker.query<{ waiting: number }>(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))",
          )
        ).rows[0]!.waiting;
      await expect.poll(waitingBehindLocker, { timeout: 500 }).toBe(0);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    await settleAfterTasks();
    expect(answer).toMatchObject({ status: 503, ms: expect.any(Number) });
    expect((answer as { ms: number }).ms).toBeLessThan(5_000);
    expect(await orderRow(order)).toMatchObject({ status: "PEN", finalizedAt: null });
    expect(await eventsOf(order)).toEqual([]);
    expect((await postWebhook(body)).body).toMatchObject({ outcome: "transitioned" });
  });
});
