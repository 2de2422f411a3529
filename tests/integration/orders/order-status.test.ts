import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { placeOrder as placeShopOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, jobsOf, newExternalTransactionId } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// GET /api/pay/order/:id/status (contract 4.2 C) and the reconcile sweep, against the suite's
// real database and a sandbox of this file's own. The sandbox has no webhook URL here, so its
// notifications are dropped: the fallback is the only way news reaches the shop.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

/** An order created through endpoint A, so the sandbox knows it too. */
async function placeOrder(quantity = 1) {
  const product = await insertTestProduct({ stock: 10 });
  const { externalTransactionId, referenceNumber } = await placeShopOrder({
    items: [{ productId: product.id, quantity }],
  });
  return { externalTransactionId, referenceNumber, productId: product.id };
}

async function getStatus(externalTransactionId: string, query = "") {
  const { GET } = await import("@/app/api/pay/order/[externalTransactionId]/status/route");
  const response = await GET(
    new Request(`http://localhost:3000/api/pay/order/${externalTransactionId}/status${query}`),
    {
      params: Promise.resolve({ externalTransactionId }),
    },
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

const serviceStatusQueries = async () => sandbox.control.requests("/paypartner/paymentByExternalTransaction");

async function sandboxOrder(externalTransactionId: string, action: string, body?: unknown) {
  await sandbox.control.call("POST", `/orders/${externalTransactionId}/${action}`, body ?? {});
}

/** Makes the order look quiet for `seconds` (the status endpoint's staleness rule). */
const ageOrder = (externalTransactionId: string, seconds: number) =>
  db()
    .$executeRaw`UPDATE orders SET updated_at = now() - make_interval(secs => ${seconds}), created_at = now() - make_interval(secs => ${seconds}) WHERE external_transaction_id = ${externalTransactionId}`;

describe("GET /api/pay/order/:externalTransactionId/status", () => {
  it.each([
    "order_123",
    "ORDER_0b0c7d5e-8b6f-4f8a-9a6e-1f2e3d4c5b6a",
    "order_0B0C7D5E-8B6F-4F8A-9A6E-1F2E3D4C5B6A",
    "0b0c7d5e-8b6f-4f8a-9a6e-1f2e3d4c5b6a",
    "order_0b0c7d5e-8b6f-1f8a-9a6e-1f2e3d4c5b6a",
    "..%2F..%2Fetc",
    "order_0b0c7d5e-8b6f-4f8a-9a6e-1f2e3d4c5b6a%00",
  ])("400 for the malformed id %s", async (id) => {
    const response = await getStatus(id);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_order_id");
  });

  it("404 for a well-formed id we never issued", async () => {
    const response = await getStatus(newExternalTransactionId());
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("order_not_found");
  });

  it("answers from the database, without asking the service, while the order is fresh", async () => {
    const order = await placeOrder(2);
    const response = await getStatus(order.externalTransactionId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const row = await db().order.findUniqueOrThrow({ where: { externalTransactionId: order.externalTransactionId } });
    expect(response.body).toEqual({
      externalTransactionId: order.externalTransactionId,
      status: "PEN",
      referenceNumber: order.referenceNumber,
      amountAoa: row.amountAoa,
      updatedAt: row.updatedAt.toISOString(),
    });
    expect(await serviceStatusQueries()).toEqual([]);
  });

  it("?refresh=1 asks the service once; a second refresh right after does not ask again", async () => {
    const order = await placeOrder();
    expect((await getStatus(order.externalTransactionId, "?refresh=1")).body.status).toBe("PEN");
    expect((await getStatus(order.externalTransactionId, "?refresh=1")).body.status).toBe("PEN");
    const queries = await serviceStatusQueries();
    expect(queries).toHaveLength(1);
    expect(queries[0]!.query).toMatchObject({ externalTransactionId: order.externalTransactionId });
  });

  it("applies a confirmation the webhook never delivered, with its jobs; a later webhook agrees and changes nothing", async () => {
    const order = await placeOrder();
    await sandboxOrder(order.externalTransactionId, "confirm");
    const response = await getStatus(order.externalTransactionId, "?refresh=1");
    expect(response.body.status).toBe("CON");
    await settleAfterTasks();
    expect((await jobsOf(order.externalTransactionId)).map((job) => [job.type, job.status])).toEqual([
      ["clear-cart", "DONE"],
      ["confirmation-mail", "DONE"],
      ["record-invoice", "DONE"],
    ]);
    const before = await db().order.findUniqueOrThrow({
      where: { externalTransactionId: order.externalTransactionId },
    });
    const late = await postWebhook(notification(order.externalTransactionId, "CON"));
    expect(late.body.outcome).toBe("already_final");
    expect(
      await db().order.findUniqueOrThrow({ where: { externalTransactionId: order.externalTransactionId } }),
    ).toEqual(before);
    expect(await jobsOf(order.externalTransactionId)).toHaveLength(3);
  });

  it("a webhook first, then the fallback: the fallback finds the order final and does not ask", async () => {
    const order = await placeOrder();
    await postWebhook(notification(order.externalTransactionId, "CAN"));
    expect((await getStatus(order.externalTransactionId, "?refresh=1")).body.status).toBe("CAN");
    expect(await serviceStatusQueries()).toEqual([]);
  });

  it("asks by itself once the pending order has been quiet for PAY_STATUS_STALE_SECONDS", async () => {
    const order = await placeOrder(4);
    await sandboxOrder(order.externalTransactionId, "cancel");
    expect((await getStatus(order.externalTransactionId)).body.status).toBe("PEN");
    await ageOrder(order.externalTransactionId, 31);
    expect((await getStatus(order.externalTransactionId)).body.status).toBe("CAN");
    await settleAfterTasks();
    expect((await db().product.findUniqueOrThrow({ where: { id: order.productId } })).stock).toBe(10);
  });

  it("stores the payment reference and entity number the service reports for a pending order", async () => {
    const order = await placeOrder();
    await sandboxOrder(order.externalTransactionId, "pending", {
      paymentReference: "555444333",
      entityNumber: "10116",
    });
    const response = await getStatus(order.externalTransactionId, "?refresh=1");
    expect(response.body).toMatchObject({ status: "PEN", paymentReference: "555444333", entityNumber: "10116" });
  });

  it("refuses a service answer carrying an identifier the database cannot hold, and serves the stored status", async () => {
    const order = await placeOrder();
    await sandboxOrder(order.externalTransactionId, "pending", { paymentReference: "555\u0000444" });
    // An answer we cannot apply is an error worth a look, not a passing outage.
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const response = await getStatus(order.externalTransactionId, "?refresh=1");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "PEN", referenceNumber: order.referenceNumber });
    expect(response.body).not.toHaveProperty("paymentReference");
    expect(errors.mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ event: "order.status_check_failed", kind: "invalid_response" }),
    );
  });

  it("serves the stored status when the service does not answer", async () => {
    const order = await placeOrder();
    await sandbox.control.failNext({ count: 20, kind: "503", path: "/paypartner/paymentByExternalTransaction" });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const response = await getStatus(order.externalTransactionId, "?refresh=1");
    expect(response.status).toBe(200);
    expect(response.body.status).toBe("PEN");
  });

  it("during an outage asks about a stale order with two attempts, then not again within the staleness window", async () => {
    const order = await placeOrder();
    await ageOrder(order.externalTransactionId, 31);
    await sandbox.control.failNext({ count: 1000, kind: "503", path: "/paypartner/paymentByExternalTransaction" });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    for (let poll = 0; poll < 3; poll++) {
      const response = await getStatus(order.externalTransactionId);
      expect(response.status).toBe(200);
      expect(response.body.status).toBe("PEN");
    }
    expect(await serviceStatusQueries()).toHaveLength(2);
  });

  it("gives up on a status query the service holds open after 3 s, and tries once more", async () => {
    const order = await placeOrder();
    await sandboxOrder(order.externalTransactionId, "confirm");
    await sandbox.control.failNext({ count: 1, kind: "timeout", path: "/paypartner/paymentByExternalTransaction" });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await getStatus(order.externalTransactionId, "?refresh=1")).body.status).toBe("CON");
    expect(warnings.mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ event: "pay.request", attempt: 1, error: "no answer within 3000 ms" }),
    );
    expect((await serviceStatusQueries()).map((request) => request.fault ?? null)).toEqual(["timeout", null]);
  });
});

describe("the reconcile sweep", () => {
  it("brings every quiet pending order in line with the service, and leaves fresh ones alone", async () => {
    const { reconcilePendingOrders } = await import("@/lib/orders/reconcile");
    const { payClient } = await import("@/lib/orders/pay-client");
    const [confirmed, cancelled, pending, fresh] = [
      await placeOrder(),
      await placeOrder(),
      await placeOrder(),
      await placeOrder(),
    ];
    await sandboxOrder(confirmed.externalTransactionId, "confirm");
    await sandboxOrder(cancelled.externalTransactionId, "cancel");
    await sandboxOrder(fresh.externalTransactionId, "confirm");
    for (const order of [confirmed, cancelled, pending]) await ageOrder(order.externalTransactionId, 120);
    vi.spyOn(console, "log").mockImplementation(() => {});

    const summary = await reconcilePendingOrders({ db: db(), pay: payClient(), log: () => {} });
    expect(summary.transitioned).toBeGreaterThanOrEqual(2);
    const statusOf = async (id: string) =>
      (await db().order.findUniqueOrThrow({ where: { externalTransactionId: id } })).status;
    expect([
      await statusOf(confirmed.externalTransactionId),
      await statusOf(cancelled.externalTransactionId),
      await statusOf(pending.externalTransactionId),
      await statusOf(fresh.externalTransactionId),
    ]).toEqual(["CON", "CAN", "PEN", "PEN"]);
    const asked = (await serviceStatusQueries()).map((request) => request.query.externalTransactionId);
    expect(asked).not.toContain(fresh.externalTransactionId);
  });

  it("during an outage asks about each quiet order with two attempts, and the next sweep leaves them be", async () => {
    const { reconcilePendingOrders } = await import("@/lib/orders/reconcile");
    const { payClient } = await import("@/lib/orders/pay-client");
    const orders = [await placeOrder(), await placeOrder()];
    for (const order of orders) await ageOrder(order.externalTransactionId, 120);
    await sandbox.control.failNext({ count: 1000, kind: "503", path: "/paypartner/paymentByExternalTransaction" });
    vi.spyOn(console, "log").mockImplementation(() => {});
    const sweep = () => reconcilePendingOrders({ db: db(), pay: payClient(), log: () => {} });
    const ids = orders.map((order) => order.externalTransactionId);
    // Other test files share the database: count only this test's orders.
    const askedAboutMine = async () =>
      (await serviceStatusQueries()).filter((request) => ids.includes(request.query.externalTransactionId!));

    await sweep();
    await sweep();
    expect((await askedAboutMine()).map((request) => request.query.externalTransactionId).sort()).toEqual(
      [...ids, ...ids].sort(),
    );
    for (const id of ids)
      expect(await db().order.findUniqueOrThrow({ where: { externalTransactionId: id } })).toMatchObject({
        status: "PEN",
        statusCheckedAt: expect.any(Date),
      });
  });

  it("cancels an order abandoned mid-creation (never registered at the service) and releases its stock", async () => {
    const { reconcilePendingOrders } = await import("@/lib/orders/reconcile");
    const { payClient } = await import("@/lib/orders/pay-client");
    const product = await insertTestProduct({ stock: 8 });
    const externalTransactionId = newExternalTransactionId();
    await db().order.create({
      data: {
        externalTransactionId,
        amountAoa: product.priceAoa * 2,
        clientId: "shopper_test",
        lines: {
          create: { productId: product.id, productName: product.name, unitPriceAoa: product.priceAoa, quantity: 2 },
        },
      },
    });
    await ageOrder(externalTransactionId, 20 * 60);
    await reconcilePendingOrders({ db: db(), pay: payClient(), log: () => {} });
    expect(await db().order.findUniqueOrThrow({ where: { externalTransactionId } })).toMatchObject({
      status: "CAN",
      cancelReason: "abandoned",
    });
    const { runDueJobs } = await import("@/lib/jobs/runner");
    await runDueJobs({});
    expect((await db().product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(10);
  });
});

describe("GET /api/cron/reconcile", () => {
  const call = async (authorization?: string) => {
    const { GET } = await import("@/app/api/cron/reconcile/route");
    const response = await GET(
      new Request("http://localhost:3000/api/cron/reconcile", {
        headers: authorization ? { Authorization: authorization } : {},
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it("refuses every call while CRON_SECRET is unset", async () => {
    expect((await call("Bearer anything-at-all-really")).status).toBe(503);
  });

  it("refuses a wrong secret and runs the sweep for the right one", async () => {
    vi.stubEnv("CRON_SECRET", "a-cron-secret-of-some-length");
    vi.resetModules();
    try {
      expect((await call()).status).toBe(401);
      expect((await call("Bearer a-cron-secret-of-some-lengtH")).status).toBe(401);
      const response = await call("Bearer a-cron-secret-of-some-length");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        checked: expect.any(Number),
        changed: expect.any(Number),
        transitioned: expect.any(Number),
        abandoned: expect.any(Number),
        holdsExpired: expect.any(Number),
        paidAfterCancel: expect.any(Number),
        failed: expect.any(Number),
        stoppedEarly: null,
      });
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
