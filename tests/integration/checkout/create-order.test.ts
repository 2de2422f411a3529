import type pg from "pg";
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { db, dbPool } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { abortedUpload } from "../../../harness/support/streams";

// POST /api/pay/create-order (contract 4.2 A), called as Next calls it, against the suite's
// real database and a sandbox of this file's own (so its request log is ours alone).

// What the route asks of Next's cache: which cached catalogue pages it marks stale
// (lib/catalog/cached-pages.ts). Outside Next's server revalidatePath has no cache to mark; here it records.
const revalidated = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: (path: string) => void revalidated.paths.push(path),
}));

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

interface Call {
  body?: unknown;
  rawBody?: string;
  cookies?: Record<string, string>;
  contentType?: string | null;
}

async function createOrder({ body, rawBody, cookies = {}, contentType = "application/json" }: Call) {
  const { POST } = await import("@/app/api/pay/create-order/route");
  const headers = new Headers();
  if (contentType) headers.set("Content-Type", contentType);
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  if (cookie) headers.set("Cookie", cookie);
  const response = await POST(
    new NextRequest("http://localhost:3000/api/pay/create-order", {
      method: "POST",
      headers,
      body: rawBody ?? JSON.stringify(body),
    }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

const serviceCalls = async () =>
  (await sandbox.control.requests()).filter((request) => !request.path.startsWith("/__"));
/** The createPaymentOrder calls the sandbox accepted (a call refused for a revoked token is retried). */
const createPaymentOrderBodies = async () =>
  (await sandbox.control.requests("/paypartner/createPaymentOrder"))
    .filter((request) => request.status === 200)
    .map((request) => JSON.parse(request.body) as Record<string, unknown>);
const stockOf = async (id: string) => (await db().product.findUniqueOrThrow({ where: { id } })).stock;
const ordersWith = (productId: string) =>
  db().order.findMany({ where: { lines: { some: { productId } } }, include: { lines: true } });

async function openCart(lines: { productId: string; quantity: number }[]) {
  return db().cart.create({ data: { items: { create: lines } } });
}

describe("checking out a list of items", () => {
  it("creates the order PEN from database prices, reserves stock and registers it at the service", async () => {
    const coffee = await insertTestProduct({ priceAoa: 6500, stock: 10 });
    const honey = await insertTestProduct({ priceAoa: 3200, stock: 5 });
    const response = await createOrder({
      body: {
        items: [
          { productId: coffee.id, quantity: 2 },
          { productId: honey.id, quantity: 1 },
        ],
        customer: { name: "Ana Domingos", phone: "+244 923 456 789" },
      },
    });

    expect(response.status).toBe(200);
    const { externalTransactionId, referenceNumber, amountAoa } = response.body;
    expect(externalTransactionId).toMatch(
      /^order_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(referenceNumber).toMatch(/\S/);
    expect(amountAoa).toBe(2 * 6500 + 3200);

    const order = await db().order.findUniqueOrThrow({ where: { externalTransactionId }, include: { lines: true } });
    expect(order).toMatchObject({
      status: "PEN",
      referenceNumber,
      amountAoa: 16_200,
      customerName: "Ana Domingos",
      customerPhone: "+244 923 456 789",
      cartId: null,
      cancelReason: null,
    });
    expect(order.lines.map((line) => [line.productName, line.unitPriceAoa, line.quantity]).sort()).toEqual(
      [
        [coffee.name, 6500, 2],
        [honey.name, 3200, 1],
      ].sort(),
    );
    expect([await stockOf(coffee.id), await stockOf(honey.id)]).toEqual([8, 4]);

    const [sent, ...more] = await createPaymentOrderBodies();
    expect(more).toEqual([]);
    expect(sent).toEqual({
      externalTransactionId,
      clientId: order.clientId,
      applicationUUID: inject("payCredentials").publishableKey.replace(/^pk_test_/, ""),
      name: `${coffee.name} e mais 1 artigo`,
      image: "http://localhost:3000/products/cafe-amboim.svg",
      amount: 16_200,
      quantity: 1,
      additionalInfo: `2× ${coffee.name}; 1× ${honey.name}`,
    });
    // The stable shopper id, set as an httpOnly cookie, is the service's clientId.
    expect(order.clientId).toMatch(/^shopper_/);
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^shopper_id=${order.clientId};.*HttpOnly`, "i"));
  });

  it("ignores every total or price the client sends", async () => {
    const product = await insertTestProduct({ priceAoa: 9000 });
    const response = await createOrder({
      body: {
        items: [{ productId: product.id, quantity: 3, priceAoa: 1, price: 1 }],
        total: 1,
        amountAoa: 1,
        amount: 1,
      },
    });
    expect(response.body.amountAoa).toBe(27_000);
    expect((await createPaymentOrderBodies())[0]!.amount).toBe(27_000);
  });

  it("sends the service the first line's image that exists, else the shop's icon: never a broken address", async () => {
    const bare = await insertTestProduct({ priceAoa: 1500 });
    const pictured = await insertTestProduct({ priceAoa: 2500 });
    await db().product.update({ where: { id: bare.id }, data: { imagePath: "" } });
    await db().product.update({ where: { id: pictured.id }, data: { imagePath: "/api/images/foto" } });
    const mixed = await createOrder({
      body: {
        items: [
          { productId: bare.id, quantity: 1 },
          { productId: pictured.id, quantity: 1 },
        ],
      },
    });
    expect(mixed.status).toBe(200);
    const alone = await createOrder({ body: { items: [{ productId: bare.id, quantity: 1 }] } });
    expect(alone.status).toBe(200);
    expect((await createPaymentOrderBodies()).map((sent) => sent.image)).toEqual([
      "http://localhost:3000/api/images/foto",
      "http://localhost:3000/icon.svg",
    ]);
  });

  it("keeps the shopper's id from the cookie", async () => {
    const product = await insertTestProduct();
    const shopper = `shopper_${randomUUID()}`;
    const response = await createOrder({
      body: { items: [{ productId: product.id, quantity: 1 }] },
      cookies: { shopper_id: shopper },
    });
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await createPaymentOrderBodies())[0]!.clientId).toBe(shopper);
  });
});

describe("checking out the cookie's cart", () => {
  it("creates the order from the cart's lines and locks the cart", async () => {
    const product = await insertTestProduct({ priceAoa: 1500, stock: 20 });
    const cart = await openCart([{ productId: product.id, quantity: 4 }]);
    const response = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(response.status).toBe(200);
    expect(response.body.amountAoa).toBe(6000);
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id } })).toMatchObject({ status: "LOCKED" });
    expect(
      await db().order.findUniqueOrThrow({ where: { externalTransactionId: response.body.externalTransactionId } }),
    ).toMatchObject({
      cartId: cart.id,
    });
    expect(await stockOf(product.id)).toBe(16);
  });

  it("the same cart submitted twice at once yields one order, and both answers name it", async () => {
    const product = await insertTestProduct({ stock: 50 });
    const cart = await openCart([{ productId: product.id, quantity: 2 }]);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => createOrder({ body: {}, cookies: { cart_id: cart.id } })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((response) => response.body.externalTransactionId)).size).toBe(1);
    expect(await ordersWith(product.id)).toHaveLength(1);
    expect(await createPaymentOrderBodies()).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(48);
  });

  it("a cart already paid for is refused", async () => {
    const product = await insertTestProduct();
    const cart = await db().cart.create({
      data: { status: "CHECKED_OUT", items: { create: { productId: product.id, quantity: 1 } } },
    });
    const response = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("cart_checked_out");
    expect(await ordersWith(product.id)).toEqual([]);
  });

  it.each([
    ["no cart cookie", {}],
    ["a malformed cart cookie", { cart_id: "'; drop table carts; --" }],
    ["a cart that does not exist", { cart_id: randomUUID() }],
  ])("%s is an empty cart (422) and no call to the service", async (_, cookies) => {
    const response = await createOrder({ body: {}, cookies });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("cart_empty");
    expect(await serviceCalls()).toEqual([]);
  });

  it("an empty cart is refused and stays open", async () => {
    const cart = await db().cart.create({ data: {} });
    const response = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(response.status).toBe(422);
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id } })).toMatchObject({ status: "OPEN" });
  });
});

describe("bad input: 4xx, no order, no stock moved, no call to the service", () => {
  let product: Awaited<ReturnType<typeof insertTestProduct>>;
  beforeAll(async () => {
    product = await insertTestProduct({ stock: 5 });
  });

  const item = (quantity: unknown) => ({ items: [{ productId: product.id, quantity }] });
  /** A delivery to a municipality the demo's zones serve, with `parts` changed. */
  const delivery = (parts: Record<string, string>) => ({
    method: "delivery",
    address: {
      province: "Luanda",
      municipality: "Talatona",
      neighbourhood: "Camama",
      street: "Rua 5, casa 12",
      reference: "Ao lado da escola",
      ...parts,
    },
  });

  it.each<[string, () => Call, number, string]>([
    ["quantity 0", () => ({ body: item(0) }), 400, "invalid_request"],
    ["quantity -1", () => ({ body: item(-1) }), 400, "invalid_request"],
    ["quantity 1.5", () => ({ body: item(1.5) }), 400, "invalid_request"],
    ['quantity "2"', () => ({ body: item("2") }), 400, "invalid_request"],
    ["quantity 10000", () => ({ body: item(10_000) }), 400, "invalid_request"],
    ["quantity 11, over MAX_UNITS_PER_LINE", () => ({ body: item(11) }), 422, "too_many_units"],
    ["quantity null", () => ({ body: item(null) }), 400, "invalid_request"],
    ["no quantity", () => ({ body: { items: [{ productId: product.id }] } }), 400, "invalid_request"],
    [
      "an unknown product",
      () => ({ body: { items: [{ productId: randomUUID(), quantity: 1 }] } }),
      422,
      "unknown_product",
    ],
    [
      "a product id that is not a UUID",
      () => ({ body: { items: [{ productId: "1 OR 1=1", quantity: 1 }] } }),
      400,
      "invalid_request",
    ],
    ["an empty list", () => ({ body: { items: [] } }), 400, "invalid_request"],
    ["items that are not a list", () => ({ body: { items: "all" } }), 400, "invalid_request"],
    [
      "51 lines",
      () => ({ body: { items: Array.from({ length: 51 }, () => ({ productId: randomUUID(), quantity: 1 })) } }),
      400,
      "invalid_request",
    ],
    [
      "the same product twice",
      () => ({
        body: {
          items: [
            { productId: product.id, quantity: 1 },
            { productId: product.id, quantity: 1 },
          ],
        },
      }),
      400,
      "invalid_request",
    ],
    ["more than the stock", () => ({ body: item(6) }), 409, "out_of_stock"],
    ["a customer without a phone", () => ({ body: { ...item(1), customer: { name: "Ana" } } }), 400, "invalid_request"],
    [
      "a phone that is not one",
      () => ({ body: { ...item(1), customer: { name: "Ana", phone: "call me" } } }),
      400,
      "invalid_request",
    ],
    [
      "a blank customer name",
      () => ({ body: { ...item(1), customer: { name: "  ", phone: "923456789" } } }),
      400,
      "invalid_request",
    ],
    [
      "a NUL character in the delivery address's street",
      () => ({ body: { ...item(1), delivery: delivery({ street: "Rua 5\u0000, casa 12" }) } }),
      400,
      "invalid_request",
    ],
    [
      "a NUL character in the delivery address's municipality",
      () => ({ body: { ...item(1), delivery: delivery({ municipality: "Tala\u0000tona" }) } }),
      400,
      "invalid_request",
    ],
    ["non-JSON", () => ({ rawBody: "items=1" }), 400, "invalid_json"],
    ["an empty body", () => ({ rawBody: "" }), 400, "invalid_json"],
    ["a JSON array", () => ({ rawBody: "[]" }), 400, "invalid_request"],
    [
      "a huge body",
      () => ({ rawBody: JSON.stringify({ ...item(1), note: "x".repeat(100_000) }) }),
      413,
      "payload_too_large",
    ],
    [
      "a form content type",
      () => ({ body: item(1), contentType: "application/x-www-form-urlencoded" }),
      415,
      "unsupported_media_type",
    ],
    ["no content type", () => ({ body: item(1), contentType: null }), 415, "unsupported_media_type"],
  ])("%s", async (_, call, status, code) => {
    const response = await createOrder(call());
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: expect.any(String) } });
    expect(await ordersWith(product.id)).toEqual([]);
    expect(await stockOf(product.id)).toBe(5);
    expect(await serviceCalls()).toEqual([]);
  });

  it("a body that breaks off mid-upload (the client aborted): 400, not a 500", async () => {
    const { POST } = await import("@/app/api/pay/create-order/route");
    const response = await POST(
      new NextRequest("http://localhost:3000/api/pay/create-order", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: abortedUpload(`{"items":[{"productId":"${product.id}",`),
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "unreadable_body", message: expect.any(String) } });
    expect(await ordersWith(product.id)).toEqual([]);
    expect(await serviceCalls()).toEqual([]);
  });

  it("names the offending field", async () => {
    const response = await createOrder({ body: item(0) });
    expect(response.body.error.message).toContain("items.0.quantity");
  });

  it.each(["+0244 923 456 789", "0244 923 456 789", "+00244923456789", "+244 923 45", "12345678"])(
    "a phone that would not be one phone's key (%j) is refused naming customer.phone, before anything is held",
    async (phone) => {
      const response = await createOrder({ body: { ...item(1), customer: { name: "Ana", phone } } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { code: "invalid_request", message: expect.stringContaining("customer.phone") },
      });
      expect(await ordersWith(product.id)).toEqual([]);
      expect(await stockOf(product.id)).toBe(5);
      expect(await serviceCalls()).toEqual([]);
    },
  );

  it("a total beyond what an order can hold is refused and nothing is reserved", async () => {
    const dear = await insertTestProduct({ priceAoa: 1_500_000_000, stock: 5 });
    const response = await createOrder({ body: { items: [{ productId: dear.id, quantity: 2 }] } });
    expect(response.status).toBe(422);
    expect(await stockOf(dear.id)).toBe(5);
    expect(await ordersWith(dear.id)).toEqual([]);
  });

  it("an out-of-stock line rolls back the lines reserved before it", async () => {
    const plenty = await insertTestProduct({ stock: 50 });
    const scarce = await insertTestProduct({ stock: 1 });
    const response = await createOrder({
      body: {
        items: [
          { productId: plenty.id, quantity: 3 },
          { productId: scarce.id, quantity: 2 },
        ],
      },
    });
    expect(response.status).toBe(409);
    expect([await stockOf(plenty.id), await stockOf(scarce.id)]).toEqual([50, 1]);
    expect(await serviceCalls()).toEqual([]);
  });
});

describe("the cached catalogue pages", () => {
  it("are marked stale after an order that took stock, never after a refused or repeated checkout", async () => {
    const { CATALOG_ROUTES } = await import("@/lib/catalog/cached-pages");
    const product = await insertTestProduct({ stock: 3 });
    revalidated.paths = [];
    for (const refused of [
      { items: [{ productId: product.id, quantity: 4 }] },
      { items: [{ productId: randomUUID(), quantity: 1 }] },
      { items: [{ productId: product.id, quantity: 0 }] },
    ])
      expect((await createOrder({ body: refused })).status).toBeGreaterThanOrEqual(400);
    await settleAfterTasks();
    expect(revalidated.paths).toEqual([]);
    expect(await stockOf(product.id)).toBe(3);

    const cart = await openCart([{ productId: product.id, quantity: 2 }]);
    const placed = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(placed.status).toBe(200);
    expect(await stockOf(product.id)).toBe(1);
    expect([...revalidated.paths].sort()).toEqual([...CATALOG_ROUTES].sort());

    // The same cart again: the answer names the order already placed, which took nothing more.
    revalidated.paths = [];
    const again = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(again.body.externalTransactionId).toBe(placed.body.externalTransactionId);
    await settleAfterTasks();
    expect(revalidated.paths).toEqual([]);
    expect(await stockOf(product.id)).toBe(1);
  });
});

describe("when the service fails", () => {
  it("503 when it is unavailable; the order is cancelled, its stock released and its cart reopened", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const cart = await openCart([{ productId: product.id, quantity: 3 }]);
    await sandbox.control.failNext({ count: 10, kind: "503", path: "/paypartner/createPaymentOrder" });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});

    const response = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("payment_service_unavailable");
    const [order] = await ordersWith(product.id);
    expect(order).toMatchObject({ status: "CAN", cancelReason: "service_unavailable", referenceNumber: null });
    expect(order!.finalizedAt).not.toBeNull();
    // Released before the answer, not later.
    expect(await stockOf(product.id)).toBe(10);
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id } })).toMatchObject({ status: "OPEN" });

    // The shopper can try again at once.
    await sandbox.control.call("DELETE", "/faults");
    const retry = await createOrder({ body: {}, cookies: { cart_id: cart.id } });
    expect(retry.status).toBe(200);
    expect(await stockOf(product.id)).toBe(7);
  });

  it("502 when it refuses us (here: wrong credentials); nothing is left reserved", async () => {
    const product = await insertTestProduct({ stock: 4 });
    vi.stubEnv("PAY_CLIENT_SECRET", "not-the-secret");
    (globalThis as { payClient?: unknown }).payClient = undefined;
    vi.resetModules();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const response = await createOrder({ body: { items: [{ productId: product.id, quantity: 2 }] } });
      expect(response.status).toBe(502);
      expect(response.body.error.code).toBe("payment_service_error");
      expect(JSON.stringify(response.body)).not.toContain("not-the-secret");
      expect(await ordersWith(product.id)).toMatchObject([{ status: "CAN", cancelReason: "service_rejected" }]);
      expect(await stockOf(product.id)).toBe(4);
    } finally {
      vi.unstubAllEnvs();
      (globalThis as { payClient?: unknown }).payClient = undefined;
      vi.resetModules();
    }
  });
});

describe("the checkout's round trips", () => {
  it("are thirteen for a cart of two lines under every cap: one a step, each cap's lock and count shared", async () => {
    const { createOrder: create } = await import("@/lib/checkout/create-order");
    const { payClient } = await import("@/lib/orders/pay-client");
    const [first, second] = [await insertTestProduct({ stock: 10 }), await insertTestProduct({ stock: 10 })];
    const cart = await openCart([
      { productId: first.id, quantity: 1 },
      { productId: second.id, quantity: 2 },
    ]);
    const sent: string[] = [];
    const real = dbPool();
    const counted = <T extends { query: (...args: never[]) => unknown }>(target: T): T =>
      new Proxy(target, {
        get(object, property, receiver) {
          const value = Reflect.get(object, property, receiver);
          if (property !== "query" || typeof value !== "function") return value;
          return (config: string | pg.QueryConfig, ...rest: unknown[]) => {
            sent.push(typeof config === "string" ? config : config.text);
            return value.call(object, config, ...rest);
          };
        },
      });
    const pool = {
      connect: async () => counted(await real.connect()),
      query: counted(real).query,
    } as unknown as pg.Pool;
    const result = await create(
      {
        source: { kind: "cart", cartId: cart.id },
        clientId: `shopper_${randomUUID()}`,
        clientAddress: "203.0.113.7",
        customer: { name: "Ana", phone: "923 456 789" },
      },
      {
        db: db(),
        pool,
        pay: payClient(),
        appUrl: "http://localhost:3000",
        runJobsNow: async () => {},
        log: () => {},
        // This suite's shop has the caps off; here all four are on.
        orders: { ...getEnv().orders, maxOpenPerShopper: 3, maxOpenPerAddress: 10, maxReferenceHolds: 3 },
      },
    );
    expect(result).toMatchObject({ ok: true });
    // BEGIN, the cart's lock, its lines, the caps' locks (shopper, address, phone), their counts,
    // the variants, whether the shop offers delivery, the products' locks, the stock of both
    // lines, the order, its lines, COMMIT; then the service's reference stored.
    expect(sent, sent.join("\n---\n")).toHaveLength(13);
    expect(sent.filter((text) => text.includes("pg_advisory_xact_lock"))).toHaveLength(1);
    expect(sent.filter((text) => text.includes("UPDATE product_variants"))).toHaveLength(1);
  });
});

describe("when the reference cannot be stored after the service created the order", () => {
  /** The suite's pool, except that the first `failures` statements storing a referenceNumber fail. */
  function failingReferenceUpdates(failures: number) {
    const state = { failed: 0 };
    const real = dbPool();
    const pool = {
      connect: () => real.connect(),
      query: (config: pg.QueryConfig) => {
        if (!config.text.includes("SET reference_number") || state.failed >= failures) return real.query(config);
        state.failed += 1;
        return Promise.reject(new Error("Connection terminated unexpectedly"));
      },
    } as unknown as pg.Pool;
    return { pool, state };
  }

  async function checkOut(pool: pg.Pool, productId: string) {
    const { createOrder: create } = await import("@/lib/checkout/create-order");
    const { payClient } = await import("@/lib/orders/pay-client");
    const cart = await openCart([{ productId, quantity: 2 }]);
    const result = await create(
      { source: { kind: "cart", cartId: cart.id }, clientId: `shopper_${randomUUID()}` },
      { db: db(), pool, pay: payClient(), appUrl: "http://localhost:3000", runJobsNow: async () => {}, log: () => {} },
    );
    return { result, cart };
  }

  it("retries the update, so a passing failure costs nothing", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const { pool, state } = failingReferenceUpdates(1);
    const { result } = await checkOut(pool, product.id);
    expect(result).toMatchObject({ ok: true, referenceNumber: expect.stringMatching(/\S/) });
    expect(state.failed).toBe(1);
    const [order] = await ordersWith(product.id);
    expect(order).toMatchObject({ status: "PEN", referenceNumber: result.ok ? result.referenceNumber : "" });
  });

  it("still answers with the reference (the order is payable at the service); the reconcile check stores it later", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const { pool, state } = failingReferenceUpdates(Number.POSITIVE_INFINITY);
    const { result, cart } = await checkOut(pool, product.id);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(state.failed).toBe(3);
    const [atService] = await createPaymentOrderBodies();
    expect(atService).toMatchObject({ externalTransactionId: result.externalTransactionId });

    const [order] = await ordersWith(product.id);
    expect(order).toMatchObject({ status: "PEN", referenceNumber: null, cancelReason: null });
    expect(await stockOf(product.id)).toBe(8);
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id } })).toMatchObject({ status: "LOCKED" });

    const { refreshFromService } = await import("@/lib/orders/status");
    const { payClient } = await import("@/lib/orders/pay-client");
    await refreshFromService({ ...order!, holdExpired: false }, { db: db(), pay: payClient(), log: () => {} });
    expect(await db().order.findUniqueOrThrow({ where: { id: order!.id } })).toMatchObject({
      status: "PEN",
      referenceNumber: result.referenceNumber,
    });
  });
});
