import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { startAppServer, type AppServer } from "../../../harness/support/app-server";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, jobsOf, newExternalTransactionId } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { eventsOf } from "../../../harness/support/webhooks";

// The contract's tables, row by row (3: states and transitions, 6.1: the webhook, 7: errors),
// end to end over HTTP: the app's route handlers behind a real listener, the local sandbox
// creating orders and sending signed webhooks to them, the suite's real database. Tests wait on
// the sandbox's delivery log, never on a sleep.

let app: AppServer;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  app = await startAppServer();
  sandbox = await useOwnSandbox({ settings: { webhookUrl: `${app.url}/api/pay/webhook`, webhookRetryBaseMs: 50 } });
});
afterAll(async () => {
  await sandbox.close();
  await app.close();
});
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

async function checkout(quantity = 2, stock = 10) {
  const product = await insertTestProduct({ stock, priceAoa: 4000 });
  const cart = await db().cart.create({ data: { items: { create: { productId: product.id, quantity } } } });
  const response = await fetch(`${app.url}/api/pay/create-order`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: `cart_id=${cart.id}` },
    body: JSON.stringify({ customer: { name: "João Manuel", phone: "923 000 111" } }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { externalTransactionId: string; referenceNumber: string };
  return { ...body, productId: product.id, cartId: cart.id };
}

/** Drives the sandbox's order through its control API; `delivery` shapes the resulting webhook. */
async function drive(externalTransactionId: string, action: string, body: Record<string, unknown> = {}) {
  return sandbox.control.call("POST", `/orders/${externalTransactionId}/${action}`, body);
}

const delivered = (externalTransactionId: string, count = 1, state = "delivered") =>
  sandbox.waitForDeliveries({ externalTransactionId, state, count } as Parameters<typeof sandbox.waitForDeliveries>[0]);

const order = (externalTransactionId: string) => db().order.findUniqueOrThrow({ where: { externalTransactionId } });
const stockOf = async (id: string) => (await db().product.findUniqueOrThrow({ where: { id } })).stock;
const cartStatus = async (id: string) => (await db().cart.findUniqueOrThrow({ where: { id } })).status;

describe("contract 3: states and transitions", () => {
  it("(none) → PEN: createPaymentOrder; the shop's own record is PEN too", async () => {
    const placed = await checkout();
    expect(await order(placed.externalTransactionId)).toMatchObject({
      status: "PEN",
      referenceNumber: placed.referenceNumber,
    });
    const atService = { order: await sandbox.control.order(placed.externalTransactionId) };
    expect(atService.order).toMatchObject({
      status: "PEN",
      referenceNumber: placed.referenceNumber,
      amount: 8000,
    });
  });

  it("PEN → CON, confirmed by the webhook: fulfilment happens (mail, invoice, cart cleared)", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "approve");
    const [delivery] = await delivered(placed.externalTransactionId);
    expect(delivery!.attempts.at(-1)).toMatchObject({ status: 200 });
    await settleAfterTasks();
    const confirmed = await order(placed.externalTransactionId);
    expect(confirmed.status).toBe("CON");
    expect(await db().invoice.count({ where: { orderId: confirmed.id } })).toBe(1);
    expect(await db().email.count({ where: { jobKey: `confirmation-mail:${placed.externalTransactionId}` } })).toBe(1);
    expect(await cartStatus(placed.cartId)).toBe("CHECKED_OUT");
    expect(await stockOf(placed.productId)).toBe(8);
  });

  it.each(["cancel", "expire"])("PEN → CAN (%s): the stock comes back and the cart reopens", async (action) => {
    const placed = await checkout(3);
    await drive(placed.externalTransactionId, action);
    await delivered(placed.externalTransactionId);
    await settleAfterTasks();
    expect((await order(placed.externalTransactionId)).status).toBe("CAN");
    expect(await stockOf(placed.productId)).toBe(10);
    expect(await cartStatus(placed.cartId)).toBe("OPEN");
    expect(
      await db().invoice.count({ where: { order: { externalTransactionId: placed.externalTransactionId } } }),
    ).toBe(0);
  });

  it("PEN → CAN when a payment reference's life span runs out on the sandbox clock", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "pending", { lifeSpanMinutes: 60 });
    await delivered(placed.externalTransactionId);
    expect(await order(placed.externalTransactionId)).toMatchObject({
      status: "PEN",
      paymentReference: expect.any(String),
    });
    await sandbox.control.advanceClock(61 * 60);
    await delivered(placed.externalTransactionId, 2);
    await settleAfterTasks();
    expect((await order(placed.externalTransactionId)).status).toBe("CAN");
  });

  it("CON is final: a later CAN notification is answered 200 and changes nothing", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "approve");
    await delivered(placed.externalTransactionId);
    await settleAfterTasks();
    const before = await order(placed.externalTransactionId);
    await drive(placed.externalTransactionId, "deliver", { paymentStatus: "CAN" });
    const deliveries = await delivered(placed.externalTransactionId, 2);
    expect(deliveries.map((d) => d.attempts.at(-1)?.status)).toEqual([200, 200]);
    expect(await order(placed.externalTransactionId)).toEqual(before);
    expect(await jobsOf(placed.externalTransactionId)).toHaveLength(3);
  });
});

describe("contract 6.1: the webhook", () => {
  it.each([
    ["hex", false],
    ["base64", false],
    ["hex", true],
    ["base64", true],
  ] as const)(
    "a %s signature (sha256= prefix: %s) is verified and the order confirmed",
    async (signatureEncoding, signaturePrefix) => {
      await sandbox.control.call("POST", "/settings", { signatureEncoding, signaturePrefix });
      try {
        const placed = await checkout();
        await drive(placed.externalTransactionId, "approve");
        await delivered(placed.externalTransactionId);
        expect((await order(placed.externalTransactionId)).status).toBe("CON");
      } finally {
        await sandbox.control.call("POST", "/settings", { signatureEncoding: "hex", signaturePrefix: false });
      }
    },
  );

  it("PEN carries the payment reference and entity number, which the shop stores", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "pending", { paymentReference: "111222333", entityNumber: "10116" });
    await delivered(placed.externalTransactionId);
    expect(await order(placed.externalTransactionId)).toMatchObject({
      status: "PEN",
      paymentReference: "111222333",
      entityNumber: "10116",
    });
  });

  it("a repeated notification is answered 200, and the order's jobs are enqueued once", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "approve", { delivery: "duplicate" });
    const deliveries = await delivered(placed.externalTransactionId, 2);
    expect(deliveries.map((d) => d.attempts.at(-1)?.status)).toEqual([200, 200]);
    await drive(placed.externalTransactionId, "redeliver");
    await delivered(placed.externalTransactionId, 3);
    await settleAfterTasks();
    expect((await jobsOf(placed.externalTransactionId)).map((job) => job.status)).toEqual(["DONE", "DONE", "DONE"]);
    expect((await eventsOf(placed.externalTransactionId)).map((event) => event.outcome).sort()).toEqual([
      "already_final",
      "already_final",
      "transitioned",
    ]);
  });

  it.each(["bad_signature", "unsigned"])(
    "a %s notification is refused with 401 and changes nothing",
    async (delivery) => {
      const placed = await checkout();
      vi.spyOn(console, "warn").mockImplementation(() => {});
      await drive(placed.externalTransactionId, "approve", { delivery });
      const [refused] = await sandbox.waitForDeliveries({
        externalTransactionId: placed.externalTransactionId,
        state: "failed",
      });
      expect(refused!.attempts.map((attempt) => attempt.status)).toEqual([401]);
      expect((await order(placed.externalTransactionId)).status).toBe("PEN");
      expect(await eventsOf(placed.externalTransactionId)).toEqual([]);
    },
  );

  it("a dropped notification is made up for by the status fallback; the late one then changes nothing", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "approve", { delivery: "drop" });
    await sandbox.waitForDeliveries({ externalTransactionId: placed.externalTransactionId, state: "dropped" });
    expect((await order(placed.externalTransactionId)).status).toBe("PEN");

    const status = await fetch(`${app.url}/api/pay/order/${placed.externalTransactionId}/status?refresh=1`);
    expect(((await status.json()) as { status: string }).status).toBe("CON");
    await settleAfterTasks();
    const confirmed = await order(placed.externalTransactionId);

    await drive(placed.externalTransactionId, "redeliver");
    await delivered(placed.externalTransactionId);
    expect(await order(placed.externalTransactionId)).toEqual(confirmed);
    expect(await jobsOf(placed.externalTransactionId)).toHaveLength(3);
  });

  it("an out-of-order PEN after CON changes nothing", async () => {
    const placed = await checkout();
    await drive(placed.externalTransactionId, "approve");
    await delivered(placed.externalTransactionId);
    await drive(placed.externalTransactionId, "deliver", { paymentStatus: "PEN" });
    await delivered(placed.externalTransactionId, 2);
    expect((await order(placed.externalTransactionId)).status).toBe("CON");
  });
});

describe("contract 7: errors", () => {
  it("a webhook for an order the shop does not know is answered 200 and kept as unmatched", async () => {
    // An order that exists at the service only (created there directly, not through the shop).
    const token = await sandbox.accessToken();
    const externalTransactionId = newExternalTransactionId();
    const created = await sandbox.createOrder(token, sandbox.orderBody({ externalTransactionId }));
    expect(created.status).toBe(200);
    await drive(externalTransactionId, "approve");
    const [delivery] = await delivered(externalTransactionId);
    expect(delivery!.attempts.at(-1)?.status).toBe(200);
    expect((await eventsOf(externalTransactionId)).map((event) => event.outcome)).toEqual(["unmatched"]);
  });
});
