import { randomInt } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { appendForwardedFor } from "../../../scripts/lib/forwarded-for.mjs";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, insertTestProductWithOptions } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";

// Holds a stranger cannot hoard: the caps on units per line and per order, and on the
// orders one client address keeps open whatever shopper cookies it sends, through
// POST /api/pay/create-order as Next calls it, against the suite's real database and a sandbox
// of this file's own (its request log shows what reached the service). Requests carry
// X-Forwarded-For as scripts/serve.mjs hands it to Next. The per-minute rate limit is off here,
// so only the caps under test refuse.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** An address of its own for each test: the orders live in the suite's database across tests. */
const newPeer = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;

type Item = { productId: string; variantId?: string; quantity: number };

/** The route as a fresh module, so lib/env.ts reads `env`. */
async function createOrderRoute(env: Record<string, string> = {}) {
  vi.stubEnv("RATE_LIMIT_CREATE_ORDER_PER_MINUTE", "0");
  vi.stubEnv("MAX_OPEN_ORDERS_PER_SHOPPER", "3");
  // The defaults, stated: the suite's shop turns the per-address cap off (harness/isolated-shop.ts).
  vi.stubEnv("MAX_OPEN_ORDERS_PER_ADDRESS", "10");
  vi.stubEnv("MAX_UNITS_PER_LINE", "10");
  vi.stubEnv("MAX_UNITS_PER_ORDER", "50");
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const { POST } = await import("@/app/api/pay/create-order/route");
  return async (options: { peer: string; items: Item[]; shopper?: string }) => {
    const response = await POST(
      new NextRequest("http://localhost:3000/api/pay/create-order", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": appendForwardedFor(undefined, options.peer),
          ...(options.shopper ? { Cookie: `shopper_id=${options.shopper}` } : {}),
        },
        body: JSON.stringify({ items: options.items }),
      }),
    );
    return {
      status: response.status,
      retryAfter: response.headers.get("Retry-After"),
      body: (await response.json()) as Record<string, any>,
      setsShopperCookie: (response.headers.get("Set-Cookie") ?? "").includes("shopper_id="),
    };
  };
}

const createPaymentOrders = () => sandbox.control.requests("/paypartner/createPaymentOrder");
const stockOf = async (id: string) => (await db().product.findUniqueOrThrow({ where: { id } })).stock;
const openOrdersFrom = (clientAddress: string) =>
  db().order.count({ where: { clientAddress, status: "PEN", holdExpiresAt: { gt: new Date() } } });

describe("one client address with fresh cookies", () => {
  it("holds at most MAX_OPEN_ORDERS_PER_ADDRESS orders of MAX_UNITS_PER_LINE units: 20 at once, 10 held, 10 refused with 429", async () => {
    const createOrder = await createOrderRoute();
    const product = await insertTestProduct({ stock: 1000 });
    const peer = newPeer();

    // 20 checkouts at the same moment, each with no shopper cookie (a new shopper every time),
    // each for as many units as a line may hold.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createOrder({ peer, items: [{ productId: product.id, quantity: 10 }] })),
    );

    const held = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(held).toHaveLength(10);
    expect(held.every((answer) => answer.setsShopperCookie)).toBe(true);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error.code).toBe("too_many_open_orders_from_address");
      // Until the soonest hold runs out (ORDER_HOLD_SECONDS, 30 minutes by default).
      expect(Number(answer.retryAfter)).toBeGreaterThan(1700);
    }
    // 100 units held of 1 000, and the service heard of exactly the 10 orders.
    expect(await stockOf(product.id)).toBe(900);
    expect(await openOrdersFrom(peer)).toBe(10);
    expect((await createPaymentOrders()).filter((request) => request.status === 200)).toHaveLength(10);
  });

  it("more units in one order are refused with 422 before anything is held: per line and in all", async () => {
    const createOrder = await createOrderRoute();
    const products = await Promise.all(Array.from({ length: 6 }, () => insertTestProduct({ stock: 100 })));
    const peer = newPeer();

    const overLine = await createOrder({ peer, items: [{ productId: products[0]!.id, quantity: 11 }] });
    expect(overLine.status).toBe(422);
    expect(overLine.body.error).toMatchObject({
      code: "too_many_units",
      message: expect.stringContaining("at most 10"),
    });

    // 6 lines of 9: each within its cap, 54 in all against MAX_UNITS_PER_ORDER 50.
    const overOrder = await createOrder({
      peer,
      items: products.map((product) => ({ productId: product.id, quantity: 9 })),
    });
    expect(overOrder.status).toBe(422);
    expect(overOrder.body.error).toMatchObject({
      code: "too_many_units",
      message: expect.stringContaining("at most 50"),
    });

    for (const product of products) expect(await stockOf(product.id)).toBe(100);
    expect(await openOrdersFrom(peer)).toBe(0);
    expect(await createPaymentOrders()).toEqual([]);

    // Exactly at the caps is fine: 5 lines of 10.
    const atCaps = await createOrder({
      peer,
      items: products.slice(0, 5).map((product) => ({ productId: product.id, quantity: 10 })),
    });
    expect(atCaps.status).toBe(200);
    expect(atCaps.body.amountAoa).toBe(5 * 10 * 2500);
  });

  it("one variant named twice (by its product and by its id) is refused, so two lines cannot pass one cap twice", async () => {
    const createOrder = await createOrderRoute();
    const product = await insertTestProduct({ stock: 100 });
    const answer = await createOrder({
      peer: newPeer(),
      items: [
        { productId: product.id, quantity: 10 },
        { productId: product.id, variantId: product.variantId, quantity: 10 },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe("duplicate_variant");
    expect(await stockOf(product.id)).toBe(100);
  });

  it("the caps count per variant: two sizes of one product are two lines", async () => {
    const createOrder = await createOrderRoute();
    const product = await insertTestProductWithOptions(
      [{ name: "Tamanho", values: ["M", "L"] }],
      [
        { values: ["M"], priceAoa: 5000, stock: 30 },
        { values: ["L"], priceAoa: 5000, stock: 30 },
      ],
    );
    const [m, l] = product.variantIds;
    const answer = await createOrder({
      peer: newPeer(),
      items: [
        { productId: product.id, variantId: m, quantity: 10 },
        { productId: product.id, variantId: l, quantity: 10 },
      ],
    });
    expect(answer.status).toBe(200);
  });

  it("another address is not affected, and an IPv6 client cannot walk its /64 for fresh allowances", async () => {
    const createOrder = await createOrderRoute({ MAX_OPEN_ORDERS_PER_ADDRESS: "2" });
    const product = await insertTestProduct({ stock: 100 });
    const network = `2001:db8:${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}`;
    const statuses = [];
    for (let i = 1; i <= 3; i++)
      statuses.push(
        (await createOrder({ peer: `${network}::${i}`, items: [{ productId: product.id, quantity: 1 }] })).status,
      );
    expect(statuses).toEqual([200, 200, 429]);
    expect(await openOrdersFrom(`${network}::/64`)).toBe(2);
    expect((await createOrder({ peer: newPeer(), items: [{ productId: product.id, quantity: 1 }] })).status).toBe(200);
  });

  it("an order that is paid, cancelled or past its hold no longer counts; 0 turns the cap off", async () => {
    const createOrder = await createOrderRoute({ MAX_OPEN_ORDERS_PER_ADDRESS: "1" });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const first = await createOrder({ peer, items: [{ productId: product.id, quantity: 1 }] });
    expect(first.status).toBe(200);
    expect((await createOrder({ peer, items: [{ productId: product.id, quantity: 1 }] })).status).toBe(429);
    await db().order.update({
      where: { externalTransactionId: first.body.externalTransactionId },
      data: { holdExpiresAt: new Date(Date.now() - 1000) },
    });
    expect((await createOrder({ peer, items: [{ productId: product.id, quantity: 1 }] })).status).toBe(200);

    const uncapped = await createOrderRoute({ MAX_OPEN_ORDERS_PER_ADDRESS: "0" });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await uncapped({ peer, items: [{ productId: product.id, quantity: 1 }] })).status);
    expect(statuses).toEqual([200, 200, 200]);
  });

  it("the order keeps the address it was placed from", async () => {
    const createOrder = await createOrderRoute({ MAX_OPEN_ORDERS_PER_ADDRESS: "1" });
    const product = await insertTestProduct({ stock: 100 });
    const peer = newPeer();
    const placed = await createOrder({ peer, items: [{ productId: product.id, quantity: 1 }] });
    const order = await db().order.findUniqueOrThrow({
      where: { externalTransactionId: placed.body.externalTransactionId },
      select: { clientAddress: true },
    });
    expect(order.clientAddress).toBe(peer);
  });
});

describe("the cart", () => {
  it("a cart filled before the caps were lowered is refused at checkout with 422 and stays the shopper's to change", async () => {
    const product = await insertTestProduct({ stock: 100 });
    const cart = await db().cart.create({
      data: { status: "OPEN", lines: { create: { variantId: product.variantId, quantity: 30 } } },
    });
    vi.stubEnv("RATE_LIMIT_CREATE_ORDER_PER_MINUTE", "0");
    vi.resetModules();
    const { POST } = await import("@/app/api/pay/create-order/route");
    const response = await POST(
      new NextRequest("http://localhost:3000/api/pay/create-order", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": appendForwardedFor(undefined, newPeer()),
          Cookie: `cart_id=${cart.id}`,
        },
        body: "{}",
      }),
    );
    expect(response.status).toBe(422);
    expect(((await response.json()) as any).error.code).toBe("too_many_units");
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id }, select: { status: true } })).toEqual({
      status: "OPEN",
    });
    expect(await stockOf(product.id)).toBe(100);
  });
});
