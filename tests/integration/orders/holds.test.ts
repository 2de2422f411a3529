import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { checkout, placeOrder as placeShopOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, passTime } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// Stock holds that expire, the reconcile sweep and one status query at a time (issue: orders
// nobody can hoard or forget), against real PostgreSQL and a sandbox of this file's own. A
// database of this file's own too: the sweep takes every quiet order it finds, so no other
// test file's orders may be in it. The sandbox has no webhook URL, so its notifications are
// dropped unless a test delivers one itself: checks with the service are the only news.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  database = await createTestDatabase("holds");
  await applyMigrations({ connectionString: database.url });
  // One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
  const max = process.env.TEST_SERVER_DATABASE_URL ? 10 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
  sandbox = await useOwnSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(async () => {
  await sandbox.control.reset();
  // Each test starts with no pending order, so a sweep sees only the test's own; nor with an order
  // an earlier test's hold expiry cancelled recently, which a sweep checks again for a late payment.
  await client.$executeRaw`UPDATE orders SET status = 'CAN', finalized_at = now() WHERE status = 'PEN'`;
  await client.$executeRaw`UPDATE orders SET finalized_at = now() - interval '3 days' WHERE cancel_reason = 'hold_expired'`;
});
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const quiet = () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
};

const placeOrder = (productId: string, quantity = 1) => placeShopOrder({ items: [{ productId, quantity }] });

async function getStatus(externalTransactionId: string, query = "") {
  const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
  const response = await GET(
    new Request(`http://localhost:3000/api/pay/order/${externalTransactionId}/status${query}`),
    {
      params: Promise.resolve({ externalTransactionId }),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const orderRow = (externalTransactionId: string) =>
  client.order.findUniqueOrThrow({ where: { externalTransactionId } });
const stockOf = async (productId: string) =>
  (await client.product.findUniqueOrThrow({ where: { id: productId } })).stock;
const expireHold = (externalTransactionId: string) =>
  client.$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second' WHERE external_transaction_id = ${externalTransactionId}`;
/** As if the order had been created (and last heard of) `seconds` ago. */
const age = (externalTransactionId: string, seconds: number) =>
  client.$executeRaw`UPDATE orders SET created_at = now() - make_interval(secs => ${seconds}), updated_at = now() - make_interval(secs => ${seconds}) WHERE external_transaction_id = ${externalTransactionId}`;
const statusQueries = async (externalTransactionId?: string) =>
  (await sandbox.control.requests("/paypartner/paymentByExternalTransaction")).filter(
    (request) => !externalTransactionId || request.query.externalTransactionId === externalTransactionId,
  );
const sandboxOrder = (externalTransactionId: string, action: string, body?: unknown) =>
  sandbox.control.call("POST", `/orders/${externalTransactionId}/${action}`, body ?? {});

async function sweep(options: { limit?: number; deadline?: number } = {}) {
  const { reconcilePendingOrders } = await import("@/lib/orders/reconcile");
  const { payClient } = await import("@/lib/orders/pay-client");
  return reconcilePendingOrders({ db: client, pay: payClient(), log: () => {}, ...options });
}

describe("stock holds", () => {
  it("an order holds its units for ORDER_HOLD_SECONDS from creation (1800 by default)", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const order = await placeOrder(product.id);
    const row = await orderRow(order.externalTransactionId);
    const held = (row.holdExpiresAt.getTime() - row.createdAt.getTime()) / 1000;
    expect(held).toBeGreaterThan(1795);
    expect(held).toBeLessThan(1805);
  });

  it("a payment reference keeps the units for the reference's life span plus the margin, once", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const order = await placeOrder(product.id);
    const before = Date.now();
    await postWebhook(notification(order.externalTransactionId, "PEN", { paymentReference: "555444333" }));
    const extended = (await orderRow(order.externalTransactionId)).holdExpiresAt.getTime();
    // 1440 minutes (the life span the PayButton sends) + 60.
    expect(extended - before).toBeGreaterThan(1499 * 60_000);
    expect(extended - before).toBeLessThan(1501 * 60_000);
    // The same reference again does not move it.
    await postWebhook(notification(order.externalTransactionId, "PEN", { paymentReference: "555444333" }));
    expect((await orderRow(order.externalTransactionId)).holdExpiresAt.getTime()).toBe(extended);
  });

  it("a checkout that needs units held by an expired order gets them: the service still says PEN, so the shop cancels it", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 3 });
    const hoarder = await placeOrder(product.id, 3);
    expect(await stockOf(product.id)).toBe(0);
    expect((await checkout(product.id, 1)).body.error.code).toBe("out_of_stock");
    expect(await statusQueries()).toEqual([]);

    await expireHold(hoarder.externalTransactionId);
    const shopper = await checkout(product.id, 1);
    expect(shopper.status).toBe(200);
    expect(await orderRow(hoarder.externalTransactionId)).toMatchObject({
      status: "CAN",
      cancelReason: "hold_expired",
    });
    // Asked once, before cancelling; the three units went back and one went to the new order.
    expect(await statusQueries(hoarder.externalTransactionId)).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(2);
    expect((await getStatus(hoarder.externalTransactionId)).body.status).toBe("CAN");
  });

  it("if the service says CON at expiry the order is CON and its units stay taken", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 2 });
    const hoarder = await placeOrder(product.id, 2);
    await sandboxOrder(hoarder.externalTransactionId, "confirm", { delivery: "drop" });
    await expireHold(hoarder.externalTransactionId);
    const shopper = await checkout(product.id, 1);
    expect(shopper).toMatchObject({ status: 409, body: { error: { code: "out_of_stock" } } });
    expect(await orderRow(hoarder.externalTransactionId)).toMatchObject({ status: "CON", cancelReason: null });
    await settleAfterTasks();
    expect(await stockOf(product.id)).toBe(0);
  });

  it("if the service says CAN at expiry its CAN is applied (not the shop's own reason)", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 1 });
    const hoarder = await placeOrder(product.id);
    await sandboxOrder(hoarder.externalTransactionId, "expire", { delivery: "drop" });
    await expireHold(hoarder.externalTransactionId);
    expect((await checkout(product.id, 1)).status).toBe(200);
    expect(await orderRow(hoarder.externalTransactionId)).toMatchObject({ status: "CAN", cancelReason: null });
  });

  it("a payment reference the webhook never brought keeps the order: the check stores it and extends the hold", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 1 });
    const hoarder = await placeOrder(product.id);
    await sandboxOrder(hoarder.externalTransactionId, "pending", { paymentReference: "111222333", delivery: "drop" });
    await expireHold(hoarder.externalTransactionId);
    expect((await checkout(product.id, 1)).body.error.code).toBe("out_of_stock");
    const row = await orderRow(hoarder.externalTransactionId);
    expect(row).toMatchObject({ status: "PEN", paymentReference: "111222333" });
    expect(row.holdExpiresAt.getTime()).toBeGreaterThan(Date.now() + 1400 * 60_000);
  });

  it("with the service down the checkout waits one short attempt per order, then the shop cancels alone", async () => {
    quiet();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const product = await insertTestProduct({ stock: 2 });
    const hoarder = await placeOrder(product.id, 2);
    await expireHold(hoarder.externalTransactionId);
    await sandbox.control.failNext({ count: 100, kind: "timeout", path: "/paypartner/paymentByExternalTransaction" });
    const started = performance.now();
    expect((await checkout(product.id, 2)).status).toBe(200);
    // One attempt of 1.5 s, not the status query's usual two of 3 s (bounded, not a timing assertion on speed).
    expect(await statusQueries(hoarder.externalTransactionId)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(await orderRow(hoarder.externalTransactionId)).toMatchObject({
      status: "CAN",
      cancelReason: "hold_expired",
    });
  });

  it("the catalogue counts units kept by expired holds, and adding one to a cart ends those holds", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 2 });
    const hoarder = await placeOrder(product.id, 2);
    const { findProductBySlug } = await import("@/lib/catalog/products");
    expect((await findProductBySlug(product.slug))!.stock).toBe(0);
    await expireHold(hoarder.externalTransactionId);
    expect((await findProductBySlug(product.slug))!.stock).toBe(2);
    expect(await stockOf(product.id)).toBe(0);

    const { addToCart } = await import("@/lib/cart/cart-changes");
    const { releaseExpiredHolds } = await import("@/lib/orders/holds");
    const { payClient } = await import("@/lib/orders/pay-client");
    const { runDueJobs } = await import("@/lib/jobs/runner");
    const input = { productId: product.id, quantity: 1 };
    // Without the option (as before) a sold-out shelf is a refusal.
    expect(await addToCart(client as never, input)).toMatchObject({ ok: false, code: "out_of_stock" });
    const added = await addToCart(client as never, input, {
      releaseExpiredHolds: (ids) =>
        releaseExpiredHolds(ids, {
          db: client as never,
          pay: payClient(),
          log: () => {},
          runJobsNow: (jobIds) => runDueJobs({ ids: jobIds, db: client as never, log: () => {} }),
        }),
    });
    expect(added).toMatchObject({ ok: true, quantity: 1 });
    expect(await orderRow(hoarder.externalTransactionId)).toMatchObject({
      status: "CAN",
      cancelReason: "hold_expired",
    });
    expect(await stockOf(product.id)).toBe(2);
  });

  it("the status page of an expired order ends its hold", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 4 });
    const hoarder = await placeOrder(product.id, 4);
    await expireHold(hoarder.externalTransactionId);
    expect((await getStatus(hoarder.externalTransactionId)).body.status).toBe("CAN");
    await settleAfterTasks();
    expect(await stockOf(product.id)).toBe(4);
  });

  it("the sweep ends every expired hold, with its jobs; two sweeps at once ask about each order once", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 10 });
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await placeOrder(product.id));
    for (const order of orders) await expireHold(order.externalTransactionId);
    const [first, second] = await Promise.all([sweep(), sweep()]);
    expect(first.holdsExpired + second.holdsExpired).toBe(6);
    for (const order of orders) {
      expect(await orderRow(order.externalTransactionId)).toMatchObject({
        status: "CAN",
        cancelReason: "hold_expired",
      });
      expect(await statusQueries(order.externalTransactionId)).toHaveLength(1);
    }
    const { runDueJobs } = await import("@/lib/jobs/runner");
    await runDueJobs({ db: client as never, log: () => {} });
    expect(await stockOf(product.id)).toBe(10);
  });
});

describe("open orders per shopper", () => {
  it("MAX_OPEN_ORDERS_PER_SHOPPER open orders, then 429 with Retry-After; nothing reserved, nothing asked", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 10 });
    const { createOrder } = await import("@/lib/checkout/create-order");
    const { payClient } = await import("@/lib/orders/pay-client");
    const deps = {
      db: client as never,
      pool: shared.pool as never,
      pay: payClient(),
      appUrl: "http://localhost:3000",
      runJobsNow: async () => {},
      log: () => {},
      orders: { holdSeconds: 600, maxOpenPerShopper: 2, maxOpenPerAddress: 0, units: { perLine: 10, perOrder: 50 } },
    };
    const input = {
      source: { kind: "items" as const, items: [{ productId: product.id, quantity: 1 }] },
      clientId: "shopper_cap",
    };
    const [a, b] = [await createOrder(input, deps), await createOrder(input, deps)];
    expect([a.ok, b.ok]).toEqual([true, true]);
    await sandbox.control.clearRequests();
    const refused = await createOrder(input, deps);
    expect(refused).toMatchObject({ ok: false, status: 429, code: "too_many_open_orders" });
    expect(!refused.ok && refused.retryAfterSeconds).toBeGreaterThan(590);
    expect(await stockOf(product.id)).toBe(8);
    expect(await sandbox.control.requests()).toEqual([]);
    // Another shopper is not affected; an order whose hold ran out no longer counts.
    expect((await createOrder({ ...input, clientId: "shopper_other" }, deps)).ok).toBe(true);
    if (a.ok) await expireHold(a.externalTransactionId);
    expect((await createOrder(input, deps)).ok).toBe(true);
  });
});

/**
 * `count` pending orders, quiet for about an hour, oldest first; the newest is paid at the
 * service but its webhook never arrives: the order a sweep must not forget.
 */
async function quietOrdersWithTheNewestPaid(count: number) {
  const product = await insertTestProduct({ stock: count + 80 });
  const orders = [];
  for (let i = 0; i < count; i++) orders.push(await placeOrder(product.id));
  for (const [i, order] of orders.entries()) await age(order.externalTransactionId, 3600 - i);
  const newest = orders.at(-1)!;
  await sandboxOrder(newest.externalTransactionId, "confirm", { delivery: "drop" });
  return { orders, newest };
}

describe("the reconcile sweep", () => {
  it("with 120 quiet pending orders and the newest paid at the service, two sweeps find it", async () => {
    quiet();
    const { newest } = await quietOrdersWithTheNewestPaid(120);

    const first = await sweep();
    expect(first).toMatchObject({ checked: 100, stoppedEarly: "limit" });
    expect((await orderRow(newest.externalTransactionId)).status).toBe("PEN");
    const second = await sweep();
    expect(second).toMatchObject({ checked: 20, transitioned: 1, stoppedEarly: null });
    expect((await orderRow(newest.externalTransactionId)).status).toBe("CON");
    // Each asked exactly once over the two sweeps.
    const asked = (await statusQueries()).map((request) => request.query.externalTransactionId);
    expect(new Set(asked).size).toBe(120);
    expect(asked).toHaveLength(120);
    // A third sweep finds nobody quiet long enough: every order was just checked.
    expect((await sweep()).checked).toBe(0);
  });

  it("the least recently checked go first, so old abandoned orders cannot starve the rest", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 20 });
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await placeOrder(product.id));
    for (const order of orders) await age(order.externalTransactionId, 600);
    // The first three were checked two minutes ago, the others never.
    for (const order of orders.slice(0, 3))
      await client.$executeRaw`UPDATE orders SET status_checked_at = now() - interval '120 seconds' WHERE external_transaction_id = ${order.externalTransactionId}`;
    await sweep({ limit: 3 });
    expect((await statusQueries()).map((request) => request.query.externalTransactionId).sort()).toEqual(
      orders
        .slice(3)
        .map((order) => order.externalTransactionId)
        .sort(),
    );
  });

  it("stops after one batch when the service is down, and starts nothing after its deadline", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 20 });
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await placeOrder(product.id));
    for (const order of orders) await age(order.externalTransactionId, 600);
    await sandbox.control.failNext({ count: 1000, kind: "503", path: "/paypartner/paymentByExternalTransaction" });
    const down = await sweep();
    expect(down).toMatchObject({ checked: 4, failed: 4, stoppedEarly: "service_unavailable" });
    await sandbox.control.call("DELETE", "/faults");
    await sandbox.control.clearRequests();
    expect(await sweep({ deadline: Date.now() })).toMatchObject({ checked: 0, stoppedEarly: "deadline" });
    expect(await statusQueries()).toEqual([]);
  });

  it("GET /api/cron/reconcile twice makes the newest of 120 quiet orders CON", async () => {
    quiet();
    vi.stubEnv("CRON_SECRET", "a-cron-secret-of-some-length");
    vi.resetModules();
    try {
      const { newest } = await quietOrdersWithTheNewestPaid(120);
      const { GET } = await import("@/app/api/cron/reconcile/route");
      const call = async () =>
        (
          await GET(
            new Request("http://localhost:3000/api/cron/reconcile", {
              headers: { Authorization: "Bearer a-cron-secret-of-some-length" },
            }),
          )
        ).json();
      await call();
      await call();
      expect((await orderRow(newest.externalTransactionId)).status).toBe("CON");
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe("a payment that comes after the shop cancelled the order", () => {
  it("paid by reference once its hold ran out, its webhook lost: the next sweep records it and the back office lists it", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 3 });
    const order = await placeOrder(product.id, 2);
    // The hold runs out with the service still waiting: the sweep cancels the order, units back.
    await expireHold(order.externalTransactionId);
    expect(await sweep()).toMatchObject({ holdsExpired: 1 });
    await settleAfterTasks();
    expect(await orderRow(order.externalTransactionId)).toMatchObject({ status: "CAN", cancelReason: "hold_expired" });
    const { runDueJobs } = await import("@/lib/jobs/runner");
    await runDueJobs({});
    expect(await stockOf(product.id)).toBe(3);

    // The shopper pays the reference at the bank; the service's notification never arrives.
    await sandboxOrder(order.externalTransactionId, "confirm", { delivery: "drop" });
    // Within the reference's life span, a later sweep (once the order is due again) asks the service.
    await passTime(60);
    const found = await sweep();
    expect(found).toMatchObject({ paidAfterCancel: 1, changed: 1 });
    const row = await orderRow(order.externalTransactionId);
    expect(row).toMatchObject({ status: "CAN", attentionReason: "paid_after_cancel" });
    expect(row.paidAfterCancelAt).not.toBeNull();
    // The units are not taken again; a person decides (the mailbox is told by its job).
    expect(await stockOf(product.id)).toBe(3);
    expect(
      await client.job.count({ where: { dedupeKey: `paid-after-cancel-mail:${order.externalTransactionId}` } }),
    ).toBe(1);
    const { attentionItems } = await import("@/lib/orders/attention-admin");
    const attention = await attentionItems(client as never);
    expect(attention.raisedOrders.items.map((item) => item.externalTransactionId)).toContain(
      order.externalTransactionId,
    );

    // Recorded once: the next sweeps leave it alone.
    await passTime(60);
    expect(await sweep()).toMatchObject({ checked: 0 });
  });

  it("only for the reference's life span and its margin after the cancellation", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 1 });
    const order = await placeOrder(product.id);
    await expireHold(order.externalTransactionId);
    await sweep();
    await sandboxOrder(order.externalTransactionId, "confirm", { delivery: "drop" });
    await client.$executeRaw`UPDATE orders SET status_checked_at = now() - interval '1 hour', finalized_at = now() - interval '26 hours' WHERE external_transaction_id = ${order.externalTransactionId}`;
    expect(await sweep()).toMatchObject({ checked: 0 });
    expect((await orderRow(order.externalTransactionId)).paidAfterCancelAt).toBeNull();
  });
});

describe("one status query at a time", () => {
  it("50 concurrent ?refresh=1 for one stale order make at most one service query", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 5 });
    const order = await placeOrder(product.id);
    await age(order.externalTransactionId, 600);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => getStatus(order.externalTransactionId, "?refresh=1")),
    );
    expect(answers.every((answer) => answer.status === 200 && answer.body.status === "PEN")).toBe(true);
    expect(await statusQueries(order.externalTransactionId)).toHaveLength(1);
  });

  it("50 concurrent plain polls of a stale order make at most one service query, and apply what it says", async () => {
    quiet();
    const product = await insertTestProduct({ stock: 5 });
    const order = await placeOrder(product.id);
    await age(order.externalTransactionId, 600);
    await sandboxOrder(order.externalTransactionId, "confirm", { delivery: "drop" });
    await Promise.all(Array.from({ length: 50 }, () => getStatus(order.externalTransactionId)));
    expect(await statusQueries(order.externalTransactionId)).toHaveLength(1);
    expect((await orderRow(order.externalTransactionId)).status).toBe("CON");
  });
});
