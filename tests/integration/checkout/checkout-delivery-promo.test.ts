import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { postCreateOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// Delivery and promo codes at checkout, against real PostgreSQL (and PGlite), the
// routes and a sandbox of this file's own: the amount the service is asked for is subtotal −
// discount + fee, every part from the database; a code's uses are counted with the order, safely
// under concurrency, and given back once when the order ends cancelled.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;
let zone: { id: string };
let freeZone: { id: string };
let inactiveZone: { id: string };
let point: { id: string };
let inactivePoint: { id: string };

beforeAll(async () => {
  database = await createTestDatabase("checkout_delivery_promo");
  await applyMigrations({ connectionString: database.url });
  const max = process.env.TEST_SERVER_DATABASE_URL ? 20 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
  sandbox = await useOwnSandbox();
  zone = await client.deliveryZone.create({ data: { name: "Talatona", feeAoa: 2_000, estimatedDays: 2 } });
  freeZone = await client.deliveryZone.create({ data: { name: "Kilamba", feeAoa: 3_000, freeFromAoa: 20_000 } });
  inactiveZone = await client.deliveryZone.create({ data: { name: "Viana", feeAoa: 4_000, active: false } });
  point = await client.pickupPoint.create({
    data: { name: "Loja do Maculusso", address: "Rua Amílcar Cabral 10, Luanda", hours: "Seg–Sáb 9h–18h" },
  });
  inactivePoint = await client.pickupPoint.create({
    data: { name: "Quiosque fechado", address: "Mutamba", hours: "—", active: false },
  });
});
afterAll(async () => {
  await sandbox?.close();
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const quiet = () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
};

const address = {
  province: "Luanda",
  municipality: "Belas",
  neighbourhood: "Talatona",
  street: "Rua do Sol, casa 12",
  reference: "Ao lado da farmácia Central",
};
const pickup = () => ({ method: "pickup", pickupPointId: point.id });
const delivery = (zoneId = zone.id) => ({ method: "delivery", zoneId, address });
const customer = (phone = "+244 923 456 789") => ({ name: "Ana Silva", phone });

/** Endpoint A in the library, for one shopper of its own (no address limit), as the route calls it. */
async function checkoutLib(input: {
  items: { productId: string; quantity: number }[];
  delivery?: unknown;
  promoCode?: string;
  phone?: string;
}) {
  const { createOrder } = await import("@/lib/checkout/create-order");
  const { payClient } = await import("@/lib/orders/pay-client");
  const { runDueJobs } = await import("@/lib/jobs/runner");
  return createOrder(
    {
      source: { kind: "items", items: input.items },
      clientId: `shopper_${randomUUID()}`,
      customer: customer(input.phone),
      delivery: (input.delivery ?? pickup()) as never,
      ...(input.promoCode ? { promoCode: input.promoCode } : {}),
    },
    {
      db: client,
      pool: shared.pool as never,
      pay: payClient(),
      appUrl: "http://localhost:3000",
      runJobsNow: (ids) => runDueJobs({ ids }),
      log: () => {},
    },
  );
}

/** The amounts the sandbox was asked to charge, in order. */
const chargedAmounts = async () =>
  (await sandbox.control.requests("/paypartner/createPaymentOrder"))
    .filter((request) => request.status === 200)
    .map((request) => (JSON.parse(request.body) as { amount: number }).amount);

const referencesTotal = (items: { referenceAmount: number; referenceQuantity: number }[]) =>
  items.reduce((sum, item) => sum + item.referenceAmount * item.referenceQuantity, 0);

async function promo(data: Partial<Parameters<PrismaClient["promoCode"]["create"]>[0]["data"]> = {}) {
  return client.promoCode.create({
    data: { code: `T${randomUUID().slice(0, 8).toUpperCase()}`, kind: "percent", value: 10, ...data },
  });
}

const stockOf = async (productId: string) =>
  (await client.product.findUniqueOrThrow({ where: { id: productId }, select: { stock: true } })).stock;

const runJobs = async () => {
  // A webhook's route runs its jobs in after(): wait for those first, or this run finds them
  // claimed, returns, and the test reads the stock before they are done.
  await settleAfterTasks();
  const { runDueJobs } = await import("@/lib/jobs/runner");
  await runDueJobs({});
};

describe("the amount is subtotal − discount + delivery fee, from the database", () => {
  it("pickup: free, and the point is snapshotted on the order", async () => {
    const product = await insertTestProduct({ priceAoa: 3_000, stock: 10 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 2 }],
      customer: { ...customer(), email: "ana@exemplo.ao" },
      delivery: pickup(),
      // Ignored: the client never says what anything costs.
      amountAoa: 1,
      deliveryFeeAoa: 0,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ amountAoa: 6_000, subtotalAoa: 6_000, discountAoa: 0, deliveryFeeAoa: 0 });
    expect(await chargedAmounts()).toEqual([6_000]);
    expect(referencesTotal(answer.body.paymentReferences)).toBe(6_000);
    const order = await client.order.findUniqueOrThrow({
      where: { externalTransactionId: answer.body.externalTransactionId },
    });
    expect(order).toMatchObject({
      deliveryMethod: "pickup",
      pickupPointId: point.id,
      pickupPointName: "Loja do Maculusso",
      pickupPointHours: "Seg–Sáb 9h–18h",
      deliveryFeeAoa: 0,
      subtotalAoa: 6_000,
      customerEmail: "ana@exemplo.ao",
    });
  });

  it("paid delivery: the zone's fee is added, sent as its own payment reference, and the address kept", async () => {
    const product = await insertTestProduct({ priceAoa: 3_000, stock: 10 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 2 }],
      customer: customer(),
      delivery: delivery(),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ amountAoa: 8_000, subtotalAoa: 6_000, deliveryFeeAoa: 2_000 });
    expect(await chargedAmounts()).toEqual([8_000]);
    expect(answer.body.paymentReferences.at(-1)).toMatchObject({
      referenceDescription: "Entrega: Talatona",
      referenceAmount: 2_000,
      referenceQuantity: 1,
      referenceNumber: answer.body.referenceNumber,
    });
    expect(referencesTotal(answer.body.paymentReferences)).toBe(8_000);
    const order = await client.order.findUniqueOrThrow({
      where: { externalTransactionId: answer.body.externalTransactionId },
    });
    expect(order).toMatchObject({
      deliveryMethod: "delivery",
      deliveryZoneName: "Talatona",
      deliveryEstimatedDays: 2,
      deliveryAddress: address,
      amountAoa: 8_000,
    });
    // The service heard the fee in the order's description too.
    const [body] = (await sandbox.control.requests("/paypartner/createPaymentOrder")).map(
      (request) => JSON.parse(request.body) as { additionalInfo: string },
    );
    expect(body!.additionalInfo).toContain("Entrega: Talatona 2");
  });

  it("a zone's free-delivery threshold: under it the fee, from it nothing", async () => {
    const product = await insertTestProduct({ priceAoa: 10_000, stock: 10 });
    const under = await checkoutLib({
      items: [{ productId: product.id, quantity: 1 }],
      delivery: delivery(freeZone.id),
    });
    const at = await checkoutLib({ items: [{ productId: product.id, quantity: 2 }], delivery: delivery(freeZone.id) });
    expect(under).toMatchObject({ ok: true, amountAoa: 13_000, deliveryFeeAoa: 3_000 });
    expect(at).toMatchObject({ ok: true, amountAoa: 20_000, deliveryFeeAoa: 0 });
    expect(await chargedAmounts()).toEqual([13_000, 20_000]);
  });

  it("a discount comes off before the threshold, and off the lines it applies to, shared to the kwanza", async () => {
    const product = await insertTestProduct({ priceAoa: 10_000, stock: 10 });
    const other = await insertTestProduct({ priceAoa: 3_333, stock: 10 });
    const code = await promo({ kind: "percent", value: 10 });
    const result = await checkoutLib({
      items: [
        { productId: product.id, quantity: 2 },
        { productId: other.id, quantity: 3 },
      ],
      delivery: delivery(freeZone.id),
      promoCode: ` ${code.code.toLowerCase()} `,
    });
    // 20 000 + 9 999 = 29 999; 10 % = 2 999 (rounded down); 26 999 ≥ 20 000: delivery is free.
    expect(result).toMatchObject({ ok: true, subtotalAoa: 29_999, discountAoa: 2_999, deliveryFeeAoa: 0 });
    expect(result.ok && result.amountAoa).toBe(27_000);
    expect(await chargedAmounts()).toEqual([27_000]);
    if (!result.ok) throw new Error("expected an order");
    expect(referencesTotal(result.paymentReferences)).toBe(27_000);
    expect(
      result.paymentReferences.every((item) => Number.isInteger(item.referenceAmount) && item.referenceAmount >= 0),
    ).toBe(true);
    const lines = await client.orderLine.findMany({
      where: { order: { externalTransactionId: result.externalTransactionId } },
    });
    expect(lines.reduce((sum, line) => sum + line.discountAoa, 0)).toBe(2_999);
    const order = await client.order.findUniqueOrThrow({
      where: { externalTransactionId: result.externalTransactionId },
    });
    expect(order).toMatchObject({ promoCode: code.code, promoCodeId: code.id, discountAoa: 2_999 });
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(1);
  });

  it("a fixed code takes its amount, never more than what it applies to", async () => {
    const product = await insertTestProduct({ priceAoa: 2_500, stock: 10 });
    const code = await promo({ kind: "fixed", value: 1_000 });
    expect(
      await checkoutLib({
        items: [{ productId: product.id, quantity: 2 }],
        promoCode: code.code,
        delivery: delivery(),
      }),
    ).toMatchObject({ ok: true, subtotalAoa: 5_000, discountAoa: 1_000, deliveryFeeAoa: 2_000, amountAoa: 6_000 });
    const big = await promo({ kind: "fixed", value: 100_000 });
    // Nothing left to pay at pickup: refused, rather than an order the service cannot charge.
    expect(
      await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: big.code, delivery: pickup() }),
    ).toMatchObject({ ok: false, status: 422, code: "amount_not_payable" });
  });
});

describe("a cart submitted twice", () => {
  it("answers both with the one order's breakdown and references, the fee and discount included", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 3_000, stock: 10 });
    const cart = await client.cart.create({
      data: { lines: { create: { variantId: product.variantId, quantity: 3 } } },
    });
    const code = await promo({ kind: "fixed", value: 1_000 });
    const body = { customer: customer(), delivery: delivery(), promoCode: code.code };
    const [first, second] = await Promise.all([
      postCreateOrder(body, { Cookie: `cart_id=${cart.id}` }),
      postCreateOrder(body, { Cookie: `cart_id=${cart.id}` }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(first.body).toMatchObject({
      subtotalAoa: 9_000,
      discountAoa: 1_000,
      deliveryFeeAoa: 2_000,
      amountAoa: 10_000,
    });
    expect(referencesTotal(first.body.paymentReferences)).toBe(10_000);
    expect(await chargedAmounts()).toEqual([10_000]);
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(1);
  });
});

describe("a delivery choice the shop does not offer is refused, naming the field, holding nothing", () => {
  it.each([
    ["no choice", undefined, 400, "delivery_required", "delivery"],
    [
      "an unknown zone",
      { method: "delivery", zoneId: randomUUID(), address },
      400,
      "unknown_delivery_zone",
      "delivery.zoneId",
    ],
    ["an inactive zone", () => delivery(inactiveZone.id), 400, "unknown_delivery_zone", "delivery.zoneId"],
    [
      "an inactive pickup point",
      () => ({ method: "pickup", pickupPointId: inactivePoint.id }),
      400,
      "unknown_pickup_point",
      "delivery.pickupPointId",
    ],
    [
      "a missing address field",
      () => ({ ...delivery(), address: { ...address, reference: undefined } }),
      400,
      "invalid_request",
      "delivery.address.reference",
    ],
    [
      "an over-long address field",
      () => ({ ...delivery(), address: { ...address, street: "x".repeat(161) } }),
      400,
      "invalid_request",
      "delivery.address.street",
    ],
    [
      "a blank address field",
      () => ({ ...delivery(), address: { ...address, municipality: "  " } }),
      400,
      "invalid_request",
      "delivery.address.municipality",
    ],
    ["an unknown method", { method: "drone" }, 400, "invalid_request", "delivery"],
  ])("%s", async (_name, choice, status, code, field) => {
    quiet();
    const product = await insertTestProduct({ stock: 5 });
    const before = await client.order.count();
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: customer(),
      ...(choice === undefined ? {} : { delivery: typeof choice === "function" ? choice() : choice }),
    });
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.message).toContain(field);
    expect(await stockOf(product.id)).toBe(5);
    expect(await client.order.count()).toBe(before);
    expect(await chargedAmounts()).toEqual([]);
  });

  it("a bad customer email is refused naming customer.email", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: { ...customer(), email: "not-an-email" },
      delivery: pickup(),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("customer.email");
    expect(await stockOf(product.id)).toBe(5);
  });
});

describe("a promo code's uses", () => {
  it("20 concurrent checkouts on a code with one use left give it to exactly one", async () => {
    quiet();
    // A product each, so that nothing but the code's row puts the checkouts in a queue.
    const products = await Promise.all(
      Array.from({ length: 20 }, () => insertTestProduct({ priceAoa: 1_000, stock: 1 })),
    );
    const code = await promo({ kind: "fixed", value: 100, maxUses: 3, uses: 2 });
    const results = await Promise.all(
      products.map((product, index) =>
        checkoutLib({
          items: [{ productId: product.id, quantity: 1 }],
          promoCode: code.code,
          phone: `92300${String(index).padStart(4, "0")}`,
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.code)).toEqual(
      Array(19).fill("promo_used_up"),
    );
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(3);
    expect(await client.promoRedemption.count({ where: { promoCodeId: code.id } })).toBe(1);
    // The refused checkouts held nothing.
    expect((await Promise.all(products.map((product) => stockOf(product.id)))).sort()).toEqual([
      0,
      ...Array(19).fill(1),
    ]);
    expect(await chargedAmounts()).toEqual([900]);
  });

  it("an order the service cancels gives its use back once, and the code can be used again", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 10 });
    const code = await promo({ kind: "fixed", value: 100, maxUses: 1 });
    const first = await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code });
    if (!first.ok) throw new Error(`expected an order: ${first.code}`);
    expect(await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code })).toMatchObject({
      ok: false,
      code: "promo_used_up",
    });

    const cancelled = notification(first.externalTransactionId, "CAN");
    expect((await postWebhook(cancelled)).status).toBe(200);
    await runJobs();
    // The same news again, and the stock job run again: the use comes back once only.
    expect((await postWebhook(cancelled)).status).toBe(200);
    const { jobHandlers } = await import("@/lib/jobs/handlers");
    const order = await client.order.findUniqueOrThrow({
      where: { externalTransactionId: first.externalTransactionId },
    });
    await jobHandlers["release-stock"](
      {
        id: randomUUID(),
        type: "release-stock",
        dedupeKey: `release-stock:${first.externalTransactionId}`,
        payload: { orderId: order.id, externalTransactionId: first.externalTransactionId },
        attempt: 2,
        maxAttempts: 8,
      } as never,
      {
        db: client as never,
        sql: client as never,
        mail: () => {
          throw new Error("no mail");
        },
        signal: new AbortController().signal,
      },
    );
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(0);
    expect(await client.promoRedemption.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({
      releasedAt: expect.any(Date),
    });
    expect(await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code })).toMatchObject({
      ok: true,
      discountAoa: 100,
    });
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(1);
  });

  it("an order whose hold ran out gives its use back with its units", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 1 });
    const code = await promo({ kind: "fixed", value: 100, maxUses: 1 });
    const first = await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code });
    if (!first.ok) throw new Error(`expected an order: ${first.code}`);
    await client.$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second' WHERE external_transaction_id = ${first.externalTransactionId}`;
    // The next checkout of the last unit ends the expired hold on the spot (the service still says PEN).
    const second = await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code });
    expect(second).toMatchObject({ ok: true, discountAoa: 100 });
    expect(
      await client.order.findUniqueOrThrow({ where: { externalTransactionId: first.externalTransactionId } }),
    ).toMatchObject({ status: "CAN", cancelReason: "hold_expired" });
    await runJobs();
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(1);
    expect(await client.promoRedemption.count({ where: { promoCodeId: code.id, releasedAt: null } })).toBe(1);
  });
});

describe("a code is refused with its reason", () => {
  const hour = 3600_000;
  it.each([
    ["unknown", async () => "NAOEXISTE", "promo_unknown"],
    ["inactive (answered as unknown)", async () => (await promo({ active: false })).code, "promo_unknown"],
    ["not started", async () => (await promo({ startsAt: new Date(Date.now() + hour) })).code, "promo_not_started"],
    [
      "ended",
      async () =>
        (await promo({ startsAt: new Date(Date.now() - 2 * hour), endsAt: new Date(Date.now() - hour) })).code,
      "promo_expired",
    ],
    ["under its minimum", async () => (await promo({ minSubtotalAoa: 50_000 })).code, "promo_below_minimum"],
    [
      "for other categories",
      async () => {
        const category = await client.category.create({ data: { slug: `c-${randomUUID()}`, name: "Outra" } });
        return (await promo({ categories: { create: { categoryId: category.id } } })).code;
      },
      "promo_not_applicable",
    ],
  ])("%s", async (_name, makeCode, reason) => {
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
    const code = await makeCode();
    const result = await checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code });
    expect(result).toMatchObject({ ok: false, status: 422, code: reason });
    expect(await stockOf(product.id)).toBe(5);
    expect(await chargedAmounts()).toEqual([]);
  });

  it("over its limit per phone, however the phone is written", async () => {
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
    const code = await promo({ maxUsesPerPhone: 1 });
    expect(
      await checkoutLib({
        items: [{ productId: product.id, quantity: 1 }],
        promoCode: code.code,
        phone: "923 111 222",
      }),
    ).toMatchObject({ ok: true });
    expect(
      await checkoutLib({
        items: [{ productId: product.id, quantity: 1 }],
        promoCode: code.code,
        phone: "+244 923-111-222",
      }),
    ).toMatchObject({ ok: false, code: "promo_phone_limit" });
    expect(
      await checkoutLib({
        items: [{ productId: product.id, quantity: 1 }],
        promoCode: code.code,
        phone: "923 111 333",
      }),
    ).toMatchObject({ ok: true });
  });

  it("one use per phone: 923456789 used it, so 0923456789 and +244 0923 456 789 are refused; a foreign number is another phone", async () => {
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 10 });
    const code = await promo({ maxUsesPerPhone: 1 });
    const checkout = (phone: string) =>
      checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code, phone });
    expect(await checkout("923456789")).toMatchObject({ ok: true });
    for (const phone of ["0923456789", "+244 0923 456 789", "00244 923.456.789", "(+244) 923-456-789"])
      expect(await checkout(phone), phone).toMatchObject({ ok: false, code: "promo_phone_limit" });
    // Nine digits after another country's code are not the Angolan number with those digits.
    expect(await checkout("+376 923 456")).toMatchObject({ ok: true });
    expect(await checkout("376 923 456")).toMatchObject({ ok: true });
    expect(await checkout("00376 923 456")).toMatchObject({ ok: false, code: "promo_phone_limit" });
    expect(await client.promoRedemption.count({ where: { promoCodeId: code.id } })).toBe(3);
  });

  it("a use recorded before, under the older key (a trunk 0 kept, a foreign number without its +), still counts", async () => {
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 10 });
    const code = await promo({ maxUsesPerPhone: 1 });
    // Rows as the release before wrote them: the phone's digits with 00 and 244 dropped.
    for (const phoneKey of ["0923777888", "351912345678"]) {
      const order = await client.order.create({
        data: { externalTransactionId: `order_${randomUUID()}`, amountAoa: 900, clientId: `shopper_${randomUUID()}` },
      });
      await client.promoRedemption.create({
        data: { promoCodeId: code.id, orderId: order.id, phoneKey, discountAoa: 100 },
      });
    }
    const checkout = (phone: string) =>
      checkoutLib({ items: [{ productId: product.id, quantity: 1 }], promoCode: code.code, phone });
    for (const phone of ["923 777 888", "0923 777 888", "+244 923 777 888", "+351 912 345 678", "00351912345678"])
      expect(await checkout(phone), phone).toMatchObject({ ok: false, code: "promo_phone_limit" });
    expect(await checkout("923 777 889")).toMatchObject({ ok: true });
  });

  it("limited to a category, it applies to that category's lines and its subcategories' only", async () => {
    const parent = await client.category.create({ data: { slug: `p-${randomUUID()}`, name: "Roupa" } });
    const child = await client.category.create({
      data: { slug: `c-${randomUUID()}`, name: "Camisolas", parentId: parent.id },
    });
    const inChild = await insertTestProduct({ priceAoa: 4_000, stock: 5 });
    const elsewhere = await insertTestProduct({ priceAoa: 6_000, stock: 5 });
    await client.productCategory.create({ data: { productId: inChild.id, categoryId: child.id } });
    const code = await promo({ kind: "percent", value: 50, categories: { create: { categoryId: parent.id } } });
    const result = await checkoutLib({
      items: [
        { productId: inChild.id, quantity: 1 },
        { productId: elsewhere.id, quantity: 1 },
      ],
      promoCode: code.code,
    });
    expect(result).toMatchObject({ ok: true, subtotalAoa: 10_000, discountAoa: 2_000, amountAoa: 8_000 });
  });
});

describe("POST /api/cart/promo shows a code's effect on the cart without counting a use", () => {
  async function postPromo(cartId: string | null, body: unknown) {
    const { POST } = await import("@/app/api/cart/promo/route");
    const response = await POST(
      new NextRequest("http://localhost:3000/api/cart/promo", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(cartId ? { Cookie: `cart_id=${cartId}` } : {}) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it("answers the discount for the cart, or why not, and counts nothing", async () => {
    const product = await insertTestProduct({ priceAoa: 2_000, stock: 5 });
    const cart = await client.cart.create({
      data: { lines: { create: { variantId: product.variantId, quantity: 3 } } },
    });
    const code = await promo({ kind: "percent", value: 15, maxUses: 1 });
    expect(await postPromo(cart.id, { code: code.code.toLowerCase() })).toEqual({
      status: 200,
      body: { code: code.code, subtotalAoa: 6_000, discountAoa: 900, eligibleSubtotalAoa: 6_000 },
    });
    expect((await client.promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(0);
    expect(await postPromo(cart.id, { code: "NAOEXISTE" })).toMatchObject({
      status: 422,
      body: { error: { code: "promo_unknown" } },
    });
    expect(await postPromo(null, { code: code.code })).toMatchObject({
      status: 422,
      body: { error: { code: "cart_empty" } },
    });
    expect(await postPromo(cart.id, { code: "" })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_request" } },
    });
    expect(await postPromo(cart.id, "{")).toMatchObject({ status: 400, body: { error: { code: "invalid_json" } } });
    expect(await postPromo(cart.id, { code: "X\u0000Y" })).toMatchObject({
      status: 422,
      body: { error: { code: "promo_unknown" } },
    });
  });
});
