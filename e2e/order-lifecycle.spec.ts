import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pickupDelivery } from "./support/shop";

// The order lifecycle against the production server (scripts/serve.mjs, as npm start runs it) and the local sandbox, over
// HTTP only: create-order, the sandbox's signed webhook, the status endpoint, and the jobs that
// Next's after() runs once the webhook has been answered — the part route tests can only emulate.

test.describe.configure({ mode: "serial" });

async function placeOrder(request: import("@playwright/test").APIRequestContext) {
  const products = (await (await request.get("/api/products")).json()) as {
    id: string;
    priceAoa: number;
    hasOptions: boolean;
  }[];
  // One sold without options: its checkout names no variant.
  const product = products.find((candidate) => !candidate.hasOptions);
  const response = await request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product!.id, quantity: 1 }],
      customer: { name: "Teste E2E", phone: "923000000" },
      delivery: await pickupDelivery((path) => request.get(path)),
    },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { externalTransactionId: string; referenceNumber: string; amountAoa: number };
}

test("approved at the service: the signed webhook confirms the order and after() runs its jobs", async ({
  request,
  sandbox,
}) => {
  const order = await placeOrder(request);
  expect(order.referenceNumber).not.toBe("");

  await sandbox.call("POST", `/orders/${order.externalTransactionId}/approve`);
  const [delivery] = await sandbox.waitForDeliveries({
    externalTransactionId: order.externalTransactionId,
    timeoutMs: 15_000,
  });
  expect(delivery).toMatchObject({ state: "delivered" });
  expect(delivery!.attempts.at(-1)?.status).toBe(200);

  const status = await request.get(`/api/pay/order/${order.externalTransactionId}/status`);
  expect(await status.json()).toMatchObject({ externalTransactionId: order.externalTransactionId, status: "CON" });

  await expect
    .poll(
      async () =>
        (
          await query<{ type: string; status: string }>(
            "SELECT type, status FROM jobs WHERE dedupe_key LIKE '%:' || $1 ORDER BY type",
            [order.externalTransactionId],
          )
        ).map((job) => `${job.type} ${job.status}`),
      { message: "the webhook's jobs run after the reply, in the same server" },
    )
    .toEqual(["clear-cart DONE", "confirmation-mail DONE", "record-invoice DONE"]);
  const invoices = await query(
    "SELECT 1 FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.external_transaction_id = $1",
    [order.externalTransactionId],
  );
  expect(invoices).toHaveLength(1);
});

test("a webhook the shop never received: the status endpoint asks the service and agrees with it", async ({
  request,
  sandbox,
}) => {
  const order = await placeOrder(request);
  await sandbox.call("POST", `/orders/${order.externalTransactionId}/cancel`, { delivery: "drop" });
  const [dropped] = await sandbox.waitForDeliveries({
    externalTransactionId: order.externalTransactionId,
    timeoutMs: 15_000,
  });
  expect(dropped!.state).toBe("dropped");

  const before = await request.get(`/api/pay/order/${order.externalTransactionId}/status`);
  expect((await before.json()) as { status: string }).toMatchObject({ status: "PEN" });
  const refreshed = await request.get(`/api/pay/order/${order.externalTransactionId}/status?refresh=1`);
  expect((await refreshed.json()) as { status: string }).toMatchObject({ status: "CAN" });
});

test("bad input to create-order is refused with a JSON error and reaches neither the database nor the service", async ({
  request,
  sandbox,
}) => {
  const before = await sandbox.requests("/paypartner/createPaymentOrder");
  for (const quantity of [0, -1, 1.5, "2", 10_000]) {
    const response = await request.post("/api/pay/create-order", {
      data: { items: [{ productId: "00000000-0000-4000-8000-000000000000", quantity }] },
    });
    expect(response.status(), `quantity ${JSON.stringify(quantity)}`).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_request" } });
  }
  const notJson = await request.post("/api/pay/create-order", {
    headers: { "Content-Type": "application/json" },
    data: "{not json",
  });
  expect(notJson.status()).toBe(400);
  expect(await sandbox.requests("/paypartner/createPaymentOrder")).toEqual(before);
});
