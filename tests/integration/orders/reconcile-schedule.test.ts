import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { placeOrder as placeShopOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, passTime } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// The reconcile sweep's budget: each order asked about on a back-off from its last change, and
// the orders the shop cancelled given their own share of every sweep. Against a database and a
// sandbox of this file's own (the sweep takes every due order it finds, and the test counts the
// status queries the sandbox received). The sandbox has no webhook URL: its notifications are
// dropped, so checks with the service are the only news unless a test delivers one itself.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  database = await createTestDatabase("reconcile_schedule");
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
  // Each test sees only its own orders: the others end, long enough ago to be nobody's business.
  await client.$executeRaw`UPDATE orders SET status = 'CAN', finalized_at = now() WHERE status = 'PEN'`;
  await passTime(3 * 24 * 60);
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const placeOrder = (productId: string) => placeShopOrder({ items: [{ productId, quantity: 1 }] });
const orderRow = (externalTransactionId: string) =>
  client.order.findUniqueOrThrow({ where: { externalTransactionId } });
const sandboxOrder = (externalTransactionId: string, action: string, body?: unknown) =>
  sandbox.control.call("POST", `/orders/${externalTransactionId}/${action}`, body ?? {});
/** The status queries the sandbox received, per order. */
async function statusQueriesPerOrder(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const request of await sandbox.control.requests("/paypartner/paymentByExternalTransaction")) {
    const id = request.query.externalTransactionId!;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function sweep() {
  const { reconcilePendingOrders } = await import("@/lib/orders/reconcile");
  const { payClient } = await import("@/lib/orders/pay-client");
  return reconcilePendingOrders({ db: client, pay: payClient(), log: () => {} });
}

describe("shop-cancelled orders get their own share of every sweep", () => {
  it("with 200 quiet pending orders due, the first sweep finds the cancelled order paid at the bank, its webhook lost", async () => {
    const product = await insertTestProduct({ stock: 300 });
    // The shop cancels an order whose hold ran out; the shopper then pays its reference at the
    // bank, and the service's notification never arrives.
    const cancelled = await placeOrder(product.id);
    await client.$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second'
      WHERE external_transaction_id = ${cancelled.externalTransactionId}`;
    expect(await sweep()).toMatchObject({ holdsExpired: 1 });
    await sandboxOrder(cancelled.externalTransactionId, "confirm", { delivery: "drop" });
    // Meanwhile 200 shoppers leave orders unpaid, each holding a bank reference for a day (ten
    // addresses' worth), and an hour passes.
    for (let i = 0; i < 200; i++) await placeOrder(product.id);
    await client.$executeRaw`UPDATE orders SET hold_expires_at = now() + interval '25 hours' WHERE status = 'PEN'`;
    await passTime(60);

    // The worker's sweeps, a minute apart: the first one finds it (its share does not wait for
    // the pending orders, 200 of them twice the sweep's limit).
    const found: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const summary = await sweep();
      expect(summary.checked).toBeLessThanOrEqual(100);
      if (summary.paidAfterCancel > 0) found.push(round);
      await passTime(1);
    }
    expect(found).toEqual([1]);
    expect(await orderRow(cancelled.externalTransactionId)).toMatchObject({
      status: "CAN",
      attentionReason: "paid_after_cancel",
    });
  });
});

describe("each order is asked about on a back-off from its last change", () => {
  // Minutes since the order was placed at which the sweep asks about it, a sweep every minute.
  const WITHOUT_REFERENCE = [
    // Pending: after 1, 5 and 15 minutes; its 30-minute hold then runs out, asked once more and cancelled…
    ...[1, 5, 15, 30],
    // …then, from its cancellation, after 1, 5, 15 and 60 minutes and every 4 hours (a reference it
    // may have been given can still be paid at the bank).
    ...[1, 5, 15, 60, 240, 480, 720, 960, 1200].map((minutes) => 30 + minutes),
  ];
  // With a bank reference its hold lasts the reference's day and an hour: 1, 5, 15, 60 minutes, every 4 hours.
  const WITH_REFERENCE = [1, 5, 15, 60, 240, 480, 720, 960, 1200, 1440];
  const DAY_MINUTES = 24 * 60 + 10;
  // The worker sweeps every minute; after the first two hours the test only looks every ten (a
  // sweep in between would find nothing due, and a day of them takes too long to run).
  const sweepEvery = (minute: number) => (minute < 120 ? 1 : 10);

  it("over a simulated day of sweeps: 13 and 10 queries, not one a minute", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const withoutReference = await placeOrder(product.id);
    const withReference = await placeOrder(product.id);
    const reference = { paymentReference: "123456789", entityNumber: "01055" };
    await sandboxOrder(withReference.externalTransactionId, "pending", { ...reference, delivery: "drop" });
    expect((await postWebhook(notification(withReference.externalTransactionId, "PEN", reference))).status).toBe(200);

    const orders = { withoutReference, withReference };
    const askedAt: Record<keyof typeof orders, number[]> = { withoutReference: [], withReference: [] };
    const expected = { withoutReference: WITHOUT_REFERENCE, withReference: WITH_REFERENCE };
    for (let minute = 0; minute < DAY_MINUTES;) {
      const step = sweepEvery(minute);
      minute += step;
      await passTime(step);
      if ((await sweep()).checked === 0) continue;
      const counts = await statusQueriesPerOrder();
      for (const [name, order] of Object.entries(orders) as [
        keyof typeof orders,
        { externalTransactionId: string },
      ][]) {
        const times = askedAt[name];
        if ((counts.get(order.externalTransactionId) ?? 0) === times.length) continue;
        // How long ago it was placed, by the database's clock (real time passes too).
        const [row] = await client.$queryRaw<{ minutes: number }[]>`
          SELECT EXTRACT(epoch FROM now() - created_at)::float8 / 60 AS minutes FROM orders
          WHERE external_transaction_id = ${order.externalTransactionId}`;
        times.push(Math.round(row!.minutes * 10) / 10);
        // One query per sweep at most, and never more than the schedule has.
        expect(counts.get(order.externalTransactionId), name).toBe(times.length);
        expect(times.length, `${name} asked at ${times.join(", ")} minutes`).toBeLessThanOrEqual(expected[name].length);
      }
    }

    for (const name of Object.keys(orders) as (keyof typeof orders)[]) {
      expect(askedAt[name], name).toHaveLength(expected[name].length);
      // Each at the first sweep after its step (a cancellation moves the steps after it by up to a minute).
      askedAt[name].forEach((minutes, i) => {
        const step = expected[name][i]!;
        expect(minutes, `${name}'s query ${i + 1}`).toBeGreaterThanOrEqual(step);
        expect(minutes, `${name}'s query ${i + 1}`).toBeLessThan(step + sweepEvery(step) + 1);
      });
    }
    expect(await orderRow(withoutReference.externalTransactionId)).toMatchObject({
      status: "CAN",
      cancelReason: "hold_expired",
    });
    expect((await orderRow(withReference.externalTransactionId)).status).toBe("PEN");
  }, 180_000);
});

describe("the other news of an order moves its schedule", () => {
  it("a check by the order's page counts as the sweep's, and a webhook that changes the order starts it again", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const order = await placeOrder(product.id);
    const queries = async () => (await statusQueriesPerOrder()).get(order.externalTransactionId) ?? 0;
    const sweepAt = async (minutes: number) => {
      await passTime(minutes);
      await sweep();
      return queries();
    };

    // At 3 minutes the shopper's page asks (quiet for PAY_STATUS_STALE_SECONDS): the sweep's next step is 5.
    await passTime(3);
    const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
    const { externalTransactionId } = order;
    await GET(new Request(`http://localhost:3000/api/pay/order/${externalTransactionId}/status`), {
      params: Promise.resolve({ externalTransactionId }),
    });
    expect(await queries()).toBe(1);
    expect(await sweepAt(0)).toBe(1);
    expect(await sweepAt(1)).toBe(1);
    expect(await sweepAt(1)).toBe(2);
    expect(await sweepAt(1)).toBe(2);

    // At 6 minutes a webhook brings a bank reference: a minute later the schedule starts again.
    const reference = { paymentReference: "987654321", entityNumber: "01055" };
    await sandboxOrder(externalTransactionId, "pending", { ...reference, delivery: "drop" });
    expect((await postWebhook(notification(externalTransactionId, "PEN", reference))).status).toBe(200);
    expect(await sweepAt(0)).toBe(2);
    expect(await sweepAt(1)).toBe(3);
    expect(await sweepAt(1)).toBe(3);
    expect(await sweepAt(3)).toBe(4);
  });
});
