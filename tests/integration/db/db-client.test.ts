import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db, dbPool, poolConfig } from "@/lib/db/client";
import { sessionTimeZone } from "@/lib/db/time-zone";

// The app's pool (lib/db/client.ts) as configured for a pooled DATABASE_URL and for Vercel,
// against the suite's real database. The pooler itself: tests/integration/db/pooler.test.ts.

const env = {
  databaseUrl: "postgresql://shop@db.example.test/shop",
  databasePoolMax: 10,
  acquireTimeoutMs: 5_000,
  lockTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
};

describe("the pool's settings", () => {
  it("send no startup options, which a transaction-mode pooler refuses", () => {
    for (const onVercel of [false, true]) expect(poolConfig({ ...env, onVercel })).not.toHaveProperty("options");
  });

  it("send the sessions' timeouts as startup parameters neither, and bound the wait for a connection", () => {
    const config = poolConfig({ ...env, onVercel: false });
    for (const startupParameter of ["statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout"])
      expect(config).not.toHaveProperty(startupParameter);
    expect(config.connectionTimeoutMillis).toBe(5_000);
  });

  it("let idle connections go after 5 s on Vercel, after pg's 10 s elsewhere", () => {
    expect(poolConfig({ ...env, onVercel: true }).idleTimeoutMillis).toBe(5_000);
    expect(poolConfig({ ...env, onVercel: false }).idleTimeoutMillis).toBe(10_000);
  });
});

describe("sessionTimeZone", () => {
  /** A session of its own on the suite's database (db() is left for the Vercel test below). */
  async function withSession<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }

  it("reports a new session of the migrated database as UTC", async () => {
    // "UTC", the migration's value: the server's own default here may be another name (Etc/UTC).
    expect(await withSession(sessionTimeZone)).toEqual({ timeZone: "UTC", utc: true });
  });

  it.each([
    ["Etc/UTC", true],
    ["GMT", true],
    ["Europe/London", false],
    ["Africa/Luanda", false],
  ])("tells %s (utc: %s)", async (zone, utc) => {
    // SET LOCAL: embedded PGlite has one session for every connection, so nothing may outlive the transaction.
    const reported = await withSession(async (client) => {
      await client.query("BEGIN");
      await client.query(`SET LOCAL "TimeZone" TO '${zone}'`);
      return sessionTimeZone(client).finally(() => client.query("ROLLBACK"));
    });
    expect(reported).toEqual({ timeZone: zone, utc });
  });
});

describe("on Vercel", () => {
  const requestContext = Symbol.for("@vercel/request-context");
  const saved = {
    VERCEL: process.env.VERCEL,
    VERCEL_URL: process.env.VERCEL_URL,
    VERCEL_REGION: process.env.VERCEL_REGION,
  };
  afterAll(async () => {
    await db().$disconnect();
    Object.assign(process.env, saved);
    for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key];
    delete (globalThis as Record<symbol, unknown>)[requestContext];
  });

  it("keeps the function alive until the pool's idle connections are closed", async () => {
    // What Vercel's runtime provides: its environment and a request context with waitUntil.
    Object.assign(process.env, { VERCEL: "1", VERCEL_URL: "shop.example.test", VERCEL_REGION: "fra1" });
    const waitUntil = vi.fn();
    // The invocation ends in a second, so the wait is cut short (to 100 ms) instead of idleTimeoutMillis.
    const context = { waitUntil, deadline: Date.now() + 1_100 };
    (globalThis as Record<symbol, unknown>)[requestContext] = { get: () => context };

    // This file's first use of db(): the client is created now, with the environment above.
    await db().$queryRaw`SELECT 1`;
    expect(dbPool().options.idleTimeoutMillis).toBe(5_000);
    // Each connection handed back to the pool asks Vercel to wait for the idle timeout.
    expect(waitUntil).toHaveBeenCalledWith(expect.any(Promise));
    await waitUntil.mock.calls.at(-1)![0];
  });
});
