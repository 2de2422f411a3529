import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { promisify } from "node:util";
import { NextRequest } from "next/server";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { createRateLimits } from "@/lib/db/rate-limit";
import { appendForwardedFor } from "../../../scripts/lib/forwarded-for.mjs";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";

// The per-address limits on POST /api/pay/create-order and GET …/status?refresh=1, called as
// Next calls the route handlers, with counters in the suite's real database (PostgreSQL, or
// embedded PGlite through its socket server) and a sandbox of this file's own, whose request
// log shows what reached the service. Requests carry X-Forwarded-For as scripts/serve.mjs
// hands it to Next: whatever the client made up, then the TCP peer.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

/** An address of its own for each test: the counters live in the suite's database across tests. */
const newPeer = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const madeUp = (i: number) => `10.${i % 256}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** The two routes as fresh modules, so lib/env.ts reads `limits` (and each test starts with fresh limiters). */
async function routesWith(limits: { createOrder?: number; statusRefresh?: number }) {
  vi.stubEnv("RATE_LIMIT_CREATE_ORDER_PER_MINUTE", String(limits.createOrder ?? 0));
  vi.stubEnv("RATE_LIMIT_STATUS_REFRESH_PER_MINUTE", String(limits.statusRefresh ?? 0));
  // The per-minute limits are what this file tests; the cap on open orders per address has its own (hoarding.test.ts).
  vi.stubEnv("MAX_OPEN_ORDERS_PER_ADDRESS", "0");
  vi.resetModules();
  const createOrder = (await import("@/app/api/pay/create-order/route")).POST;
  const status = (await import("@/app/api/pay/order/[externalTransactionId]/status/route")).GET;

  return {
    async createOrder(options: { peer: string; forwardedFor?: string; body: string }) {
      const response = await createOrder(
        new NextRequest("http://localhost:3000/api/pay/create-order", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Forwarded-For": appendForwardedFor(options.forwardedFor, options.peer),
          },
          body: options.body,
        }),
      );
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, any>,
      };
    },
    async status(externalTransactionId: string, options: { peer: string; forwardedFor?: string; refresh: boolean }) {
      const response = await status(
        new Request(
          `http://localhost:3000/api/pay/order/${externalTransactionId}/status${options.refresh ? "?refresh=1" : ""}`,
          { headers: { "X-Forwarded-For": appendForwardedFor(options.forwardedFor, options.peer) } },
        ),
        { params: Promise.resolve({ externalTransactionId }) },
      );
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, any>,
      };
    },
  };
}

const orderBody = (productId: string) => JSON.stringify({ items: [{ productId, quantity: 1 }] });
const acceptedCreatePaymentOrders = async () =>
  (await sandbox.control.requests("/paypartner/createPaymentOrder")).filter((request) => request.status === 200);
const statusQueries = () => sandbox.control.requests("/paypartner/paymentByExternalTransaction");
const stockOf = async (id: string) => (await db().product.findUniqueOrThrow({ where: { id } })).stock;
const ordersOf = (productId: string) => db().order.findMany({ where: { lines: { some: { productId } } } });
const counterRows = (name: string, key: string) =>
  db().$queryRaw<{ points: number }[]>`SELECT points FROM rate_limits WHERE key = ${`${name}:${key}`}`;

function expectRefusal(response: { status: number; headers: Headers; body: Record<string, any> }) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: { code: "rate_limited", message: expect.stringMatching(/\S/) } });
  const retryAfter = response.headers.get("Retry-After");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

describe("POST /api/pay/create-order, per client address", () => {
  it("answers 200 up to the limit, then 429 with Retry-After, however the client varies its X-Forwarded-For", async () => {
    const routes = await routesWith({ createOrder: 5 });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();

    const responses = [];
    for (let i = 0; i < 30; i++)
      responses.push(await routes.createOrder({ peer, forwardedFor: madeUp(i), body: orderBody(product.id) }));

    expect(responses.map((response) => response.status)).toEqual([...Array(5).fill(200), ...Array(25).fill(429)]);
    for (const refused of responses.slice(5)) expectRefusal(refused);
    // Exactly one call to the service per order created, none for the refused requests…
    expect(await acceptedCreatePaymentOrders()).toHaveLength(5);
    // …and nothing reserved or written for them.
    expect(await ordersOf(product.id)).toHaveLength(5);
    expect(await stockOf(product.id)).toBe(95);
    expect(await counterRows("create-order", peer)).toEqual([{ points: 6 }]);
  });

  it("counts every attempt, a malformed one too, and refuses before reading the body", async () => {
    const routes = await routesWith({ createOrder: 3 });
    const product = await insertTestProduct({ stock: 10 });
    const peer = newPeer();

    expect((await routes.createOrder({ peer, body: "{not json" })).status).toBe(400);
    expect((await routes.createOrder({ peer, body: orderBody("not-a-product") })).status).toBeGreaterThanOrEqual(400);
    expect((await routes.createOrder({ peer, body: orderBody(product.id) })).status).toBe(200);
    // Over the limit, even a body that would be refused as malformed is answered 429.
    expectRefusal(await routes.createOrder({ peer, body: "{not json" }));
    expectRefusal(await routes.createOrder({ peer, body: orderBody(product.id) }));
    expect(await acceptedCreatePaymentOrders()).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(9);
  });

  it("gives each address an allowance of its own", async () => {
    const routes = await routesWith({ createOrder: 2 });
    const product = await insertTestProduct({ stock: 10 });
    const [first, second] = [newPeer(), newPeer()];
    const statuses = [];
    for (const peer of [first, first, first, second, second, second])
      statuses.push((await routes.createOrder({ peer, body: orderBody(product.id) })).status);
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
  });

  it("holds under a burst: of 20 requests at once, exactly the limit get through", async () => {
    const routes = await routesWith({ createOrder: 4 });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        routes.createOrder({ peer, forwardedFor: madeUp(i), body: orderBody(product.id) }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(4).fill(200), ...Array(16).fill(429)]);
    expect(await acceptedCreatePaymentOrders()).toHaveLength(4);
    expect(await stockOf(product.id)).toBe(96);
  });

  it("0 turns the limit off: no refusal and no counter written", async () => {
    const routes = await routesWith({ createOrder: 0 });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await routes.createOrder({ peer, body: orderBody(product.id) })).status);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(await counterRows("create-order", peer)).toEqual([]);
  });

  it("fails open: a limiter that cannot reach its counters lets the request through and warns", async () => {
    vi.doMock("@/lib/db/client", async (importOriginal) => {
      const actual = await importOriginal<typeof import("@/lib/db/client")>();
      // The limiter's statements on its counters fail; the checkout's own, on the same pool, work.
      return {
        ...actual,
        dbPool: () => {
          const real = actual.dbPool();
          return {
            connect: () => real.connect(),
            query: (query: string | { text: string }, values?: unknown[]) =>
              (typeof query === "string" ? query : query.text).includes("rate_limits")
                ? Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"))
                : real.query(query as string, values),
          };
        },
      };
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const routes = await routesWith({ createOrder: 1 });
      const product = await insertTestProduct({ stock: 10 });
      const peer = newPeer();
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await routes.createOrder({ peer, body: orderBody(product.id) })).status);
      expect(statuses).toEqual([200, 200, 200]);
      expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual(
        Array(3).fill({ level: "warn", event: "rate_limit.unavailable", limit: "create-order", error: "Error" }),
      );
    } finally {
      vi.doUnmock("@/lib/db/client");
    }
  });
});

describe("GET /api/pay/order/:id/status?refresh=1, per client address", () => {
  /** Pending orders, created with the limits off (the service knows them too). */
  async function placeOrders(count: number) {
    const routes = await routesWith({});
    const product = await insertTestProduct({ stock: 100 });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const response = await routes.createOrder({ peer: newPeer(), body: orderBody(product.id) });
      expect(response.status).toBe(200);
      ids.push(response.body.externalTransactionId as string);
    }
    return ids;
  }

  it("refuses refreshes over the limit with 429 and no call to the service; plain reads are not limited", async () => {
    // One order per refresh: the status endpoint also asks the service at most so often per order.
    const orders = await placeOrders(10);
    const routes = await routesWith({ statusRefresh: 3 });
    await sandbox.control.clearRequests();
    const peer = newPeer();

    const refreshes = [];
    for (const [i, id] of orders.entries())
      refreshes.push(await routes.status(id, { peer, forwardedFor: madeUp(i), refresh: true }));

    expect(refreshes.map((response) => response.status)).toEqual([...Array(3).fill(200), ...Array(7).fill(429)]);
    for (const refused of refreshes.slice(3)) expectRefusal(refused);
    expect((await statusQueries()).map((query) => query.query.externalTransactionId)).toEqual(orders.slice(0, 3));

    // Reading the status as the database has it asks nobody, and stays open to the same address.
    const reads = [];
    for (const id of orders.slice(3, 8)) reads.push((await routes.status(id, { peer, refresh: false })).status);
    expect(reads).toEqual(Array(5).fill(200));
    expect(await statusQueries()).toHaveLength(3);
  });

  it("0 turns the limit off", async () => {
    const orders = await placeOrders(8);
    const routes = await routesWith({ statusRefresh: 0 });
    const peer = newPeer();
    const statuses = [];
    for (const id of orders) statuses.push((await routes.status(id, { peer, refresh: true })).status);
    expect(statuses).toEqual(Array(8).fill(200));
    expect(await counterRows("status-refresh", peer)).toEqual([]);
  });
});

describe("createRateLimits: the counters every instance shares", () => {
  let pools: pg.Pool[] = [];
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    pools = [];
  });

  it("two app instances (two pools, two sets of limiters) share one count", async () => {
    const [first, second] = [createRateLimits(newPool()), createRateLimits(newPool())];
    const key = newPeer();
    const verdicts = [];
    for (let i = 0; i < 10; i++)
      verdicts.push(await (i % 2 ? second : first).consume("shared-test", key, { pointsPerMinute: 4 }));
    expect(verdicts.map((verdict) => verdict.ok)).toEqual([true, true, true, true, ...Array(6).fill(false)]);
  });

  it("counts each request once under concurrency, across instances and their connections", async () => {
    const instances = [createRateLimits(newPool()), createRateLimits(newPool())];
    const key = newPeer();
    const verdicts = await Promise.all(
      Array.from({ length: 24 }, (_, i) => instances[i % 2]!.consume("burst-test", key, { pointsPerMinute: 7 })),
    );
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(7);
    const refused = verdicts.filter((verdict) => !verdict.ok);
    for (const verdict of refused)
      expect(verdict).toEqual({ ok: false, reason: "limited", retryAfterSeconds: expect.any(Number) });
  });

  it("stores a key too long for the table as its hash, still counted", async () => {
    const limits = createRateLimits(newPool(), { log: () => expect.fail("no warning expected") });
    const key = `sign-in:${"x".repeat(400)}@example.com`;
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push((await limits.consume("long-key-test", key, { pointsPerMinute: 2 })).ok);
    expect(verdicts).toEqual([true, true, false]);
  });

  it("fails open with a warning when the database cannot be reached", async () => {
    const log = vi.fn();
    const limits = createRateLimits({ query: () => Promise.reject(new Error("Connection terminated")) }, { log });
    expect(await limits.consume("down-test", newPeer(), { pointsPerMinute: 1 })).toEqual({ ok: true });
    expect(log).toHaveBeenCalledWith("warn", "rate_limit.unavailable", { limit: "down-test", error: "Error" });
  });

  it("counts attempts over a window of their own, shared by instances, and never lets one through when it cannot count", async () => {
    const [first, second] = [createRateLimits(newPool()), createRateLimits(newPool())];
    const key = newPeer();
    const limit = { failures: 3, windowSeconds: 900 };
    const allowed = [];
    for (let i = 0; i < 4; i++)
      allowed.push((await (i % 2 ? second : first).spendAttempt("failures-test", key, limit)).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    expect((await second.spendAttempt("failures-test", key, limit)).allowed).toBe(false);
    expect((await second.spendAttempt("failures-test", newPeer(), limit)).allowed).toBe(true);
    expect((await first.spendAttempt("failures-test", key, { failures: 0, windowSeconds: 900 })).allowed).toBe(true);

    const down = createRateLimits({ query: () => Promise.reject(new Error("Connection terminated")) });
    await expect(down.spendAttempt("failures-test", key, limit)).rejects.toThrow();
  });

  it("spends attempts and checks the lock in one step: of a concurrent burst across instances, exactly the limit is allowed", async () => {
    const instances = [createRateLimits(newPool()), createRateLimits(newPool())];
    const key = newPeer();
    const limit = { failures: 5, windowSeconds: 900 };
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => instances[i % 2]!.spendAttempt("attempts-burst-test", key, limit)),
    );
    expect(attempts.filter((attempt) => attempt.allowed)).toHaveLength(5);
  });

  it("an attempt given back is its own point only: successes neither undo failures nor lift a lock", async () => {
    const limits = createRateLimits(newPool());
    const key = newPeer();
    const limit = { failures: 3, windowSeconds: 900 };
    const spend = () => limits.spendAttempt("give-back-test", key, limit);
    // Two failures (kept), then many successes, each giving its attempt back.
    for (let i = 0; i < 2; i++) expect((await spend()).allowed).toBe(true);
    for (let i = 0; i < 10; i++) {
      const success = await spend();
      expect(success.allowed, `success ${i + 1}`).toBe(true);
      if (success.allowed) await success.giveBack();
    }
    // One failure left, then locked: a success is refused like any other attempt.
    expect((await spend()).allowed).toBe(true);
    expect((await spend()).allowed).toBe(false);
    // Concurrent successes against a locked key give nothing back: still locked.
    const late = await Promise.all(Array.from({ length: 5 }, spend));
    expect(late.map((attempt) => attempt.allowed)).toEqual(Array(5).fill(false));
    expect((await spend()).allowed).toBe(false);
  });

  it("an attempt given back after its window ended adds nothing to the next window", async () => {
    const limits = createRateLimits(newPool());
    const key = newPeer();
    const limit = { failures: 3, windowSeconds: 900 };
    const spend = () => limits.spendAttempt("give-back-window-test", key, limit);
    const success = await spend();
    expect(success.allowed).toBe(true);
    // The window ends (as an operator may end it) while the success is being answered.
    await db()
      .$executeRaw`UPDATE rate_limits SET expire = ${Date.now() - 1} WHERE key = ${`give-back-window-test:${key}`}`;
    if (success.allowed) await success.giveBack();
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await spend()).allowed);
    expect(allowed).toEqual([true, true, true, false]);
  });

  it("an attempt that cannot be given back stays spent, with a warning", async () => {
    const log = vi.fn();
    const pool = newPool();
    let reachable = true;
    const limits = createRateLimits(
      {
        query: (text, values) =>
          reachable ? pool.query(text, values) : Promise.reject(new Error("Connection terminated")),
      },
      { log },
    );
    const key = newPeer();
    const limit = { failures: 2, windowSeconds: 900 };
    const success = await limits.spendAttempt("give-back-down-test", key, limit);
    expect(success.allowed).toBe(true);
    reachable = false;
    if (success.allowed) await success.giveBack();
    expect(log).toHaveBeenCalledWith("warn", "rate_limit.unavailable", {
      limit: "give-back-down-test",
      error: "Error",
    });
    reachable = true;
    const allowed = [];
    for (let i = 0; i < 2; i++) allowed.push((await limits.spendAttempt("give-back-down-test", key, limit)).allowed);
    expect(allowed).toEqual([true, false]);
  });

  it("keeps no process alive: its clean-up timer of expired rows is unref'd", async () => {
    // A script (the worker, reconcile) that made a limiter must still exit on its own.
    const script = `
      const { RateLimiterPostgres } = require("rate-limiter-flexible");
      new RateLimiterPostgres({ storeClient: { query: async () => ({ rows: [] }) }, storeType: "pool",
        tableName: "rate_limits", tableCreated: true, points: 1, duration: 60 });`;
    const started = Date.now();
    await promisify(execFile)(process.execPath, ["-e", script], { cwd: process.cwd(), timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
