import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { postCreateOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProductWithOptions } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// Products with options: a variant is a unit of stock held, released and sold exactly
// as a product was, against real PostgreSQL (and PGlite), the routes and a sandbox of this file's
// own. A database of its own too, so that the checkouts below meet no other file's orders.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  database = await createTestDatabase("variants");
  await applyMigrations({ connectionString: database.url });
  // One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
  const max = process.env.TEST_SERVER_DATABASE_URL ? 20 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
  sandbox = await useOwnSandbox();
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

/** A T-shirt in Tamanho × Cor: M/Azul has 3 units, its siblings 5 each, L/Branco costs more. */
const tshirt = () =>
  insertTestProductWithOptions(
    [
      { name: "Tamanho", values: ["M", "L"] },
      { name: "Cor", values: ["Azul", "Branco"] },
    ],
    [
      { values: ["M", "Azul"], priceAoa: 4_500, stock: 3, sku: `TS-${randomUUID().slice(0, 8)}-MA` },
      { values: ["M", "Branco"], priceAoa: 4_500, stock: 5 },
      { values: ["L", "Azul"], priceAoa: 4_500, stock: 5 },
      { values: ["L", "Branco"], priceAoa: 5_000, stock: 5 },
    ],
  );

const stocks = async (productId: string) => {
  const rows = await client.productVariant.findMany({
    where: { productId },
    orderBy: { position: "asc" },
    select: { stock: true },
  });
  const product = await client.product.findUniqueOrThrow({ where: { id: productId }, select: { stock: true } });
  return { variants: rows.map((row) => row.stock), product: product.stock };
};

/** Endpoint A in the library, as the route calls it, for one shopper of its own (no address limit). */
async function checkoutVariant(productId: string, variantId: string, quantity: number) {
  const { createOrder } = await import("@/lib/checkout/create-order");
  const { payClient } = await import("@/lib/orders/pay-client");
  const { runDueJobs } = await import("@/lib/jobs/runner");
  return createOrder(
    { source: { kind: "items", items: [{ productId, variantId, quantity }] }, clientId: `shopper_${randomUUID()}` },
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

const runJobs = async () => {
  // A webhook's route runs its jobs in after(): wait for those first, or this run finds them
  // claimed, returns, and the test reads the stock before they are done.
  await settleAfterTasks();
  const { runDueJobs } = await import("@/lib/jobs/runner");
  await runDueJobs({});
};

describe("a variant is a unit of stock", () => {
  it("20 concurrent checkouts of the last 3 units of one variant sell exactly 3, and its siblings keep theirs", async () => {
    quiet();
    const product = await tshirt();
    const [mAzul] = product.variantIds;
    const results = await Promise.all(Array.from({ length: 20 }, () => checkoutVariant(product.id, mAzul!, 1)));
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.code)).toEqual(
      Array(17).fill("out_of_stock"),
    );
    expect(await stocks(product.id)).toEqual({ variants: [0, 5, 5, 5], product: 15 });
    const lines = await client.orderLine.findMany({ where: { productId: product.id } });
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.variantId === mAzul && line.variantTitle === "M, Azul")).toBe(true);
    // The service was asked for the variant's price, and heard its name.
    const bodies = (await sandbox.control.requests("/paypartner/createPaymentOrder"))
      .filter((request) => request.status === 200)
      .map((request) => JSON.parse(request.body) as { amount: unknown; name: string });
    expect(bodies).toHaveLength(3);
    expect(bodies.every((body) => body.name.endsWith(", M, Azul"))).toBe(true);
  });

  it("concurrent checkouts of sibling variants, listed in any order, never deadlock and keep the product's total", async () => {
    quiet();
    const product = await insertTestProductWithOptions(
      [{ name: "Tamanho", values: ["P", "M", "G", "XG"] }],
      ["P", "M", "G", "XG"].map((size) => ({ values: [size], priceAoa: 1_000, stock: 50 })),
    );
    const ids = product.variantIds;
    const { createOrder } = await import("@/lib/checkout/create-order");
    const { payClient } = await import("@/lib/orders/pay-client");
    const { runDueJobs } = await import("@/lib/jobs/runner");
    // Every ordered pair of different variants, three times: 36 checkouts, each taking its two
    // variants' rows in its own order were it not for lib/catalog/stock.ts.
    const pairs = [0, 1, 2].flatMap(() =>
      ids.flatMap((first) => ids.filter((id) => id !== first).map((second) => [first, second])),
    );
    const results = await Promise.all(
      pairs.map(([first, second]) =>
        createOrder(
          {
            source: {
              kind: "items",
              items: [
                { productId: product.id, variantId: first!, quantity: 1 },
                { productId: product.id, variantId: second!, quantity: 1 },
              ],
            },
            clientId: `shopper_${randomUUID()}`,
          },
          {
            db: client,
            pool: shared.pool as never,
            pay: payClient(),
            appUrl: "http://localhost:3000",
            runJobsNow: (jobIds) => runDueJobs({ ids: jobIds }),
            log: () => {},
          },
        ),
      ),
    );
    expect(results.filter((result) => !result.ok)).toEqual([]);
    // Each variant was in 18 of the 36 orders.
    expect(await stocks(product.id)).toEqual({ variants: [32, 32, 32, 32], product: 128 });
  });

  it("prices a line at its variant's price and snapshots its title and SKU", async () => {
    const product = await tshirt();
    const answer = await postCreateOrder({
      items: [
        { productId: product.id, variantId: product.variantIds[3], quantity: 2 },
        { productId: product.id, variantId: product.variantIds[1], quantity: 1 },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.amountAoa).toBe(2 * 5_000 + 4_500);
    const lines = await client.orderLine.findMany({
      where: { order: { externalTransactionId: answer.body.externalTransactionId } },
      orderBy: { unitPriceAoa: "desc" },
    });
    expect(lines.map((line) => [line.variantTitle, line.unitPriceAoa, line.quantity])).toEqual([
      ["L, Branco", 5_000, 2],
      ["M, Branco", 4_500, 1],
    ]);
  });

  it("refuses a product with options without its variant, a variant of another product, and an archived one, holding nothing", async () => {
    const product = await tshirt();
    const other = await tshirt();
    await client.productVariant.update({ where: { id: product.variantIds[2] }, data: { archivedAt: new Date() } });
    const before = await stocks(product.id);
    for (const [item, code] of [
      [{ productId: product.id, quantity: 1 }, "variant_required"],
      [{ productId: product.id, variantId: other.variantIds[0], quantity: 1 }, "unknown_variant"],
      [{ productId: product.id, variantId: product.variantIds[2], quantity: 1 }, "unknown_variant"],
    ] as const) {
      const answer = await postCreateOrder({ items: [item] });
      expect(answer.status, code).toBe(422);
      expect(answer.body.error.code).toBe(code);
    }
    expect(await stocks(product.id)).toEqual(before);
    expect(await client.order.count({ where: { lines: { some: { productId: product.id } } } })).toBe(0);
  });

  it("a hold on a variant expires and its units come back, to that variant only", async () => {
    quiet();
    const product = await tshirt();
    const [mAzul, mBranco] = product.variantIds;
    const hoarder = await checkoutVariant(product.id, mAzul!, 3);
    if (!hoarder.ok) throw new Error(hoarder.code);
    expect(await stocks(product.id)).toEqual({ variants: [0, 5, 5, 5], product: 15 });
    expect((await checkoutVariant(product.id, mAzul!, 1)).ok).toBe(false);

    await client.$executeRaw`UPDATE orders SET hold_expires_at = now() - interval '1 second' WHERE external_transaction_id = ${hoarder.externalTransactionId}`;
    // Before anything ends the hold, the catalogue already counts the units as the shopper's.
    const { findProductBySlug } = await import("@/lib/catalog/products");
    const shown = await findProductBySlug(product.slug);
    expect(shown?.variants.map((variant) => variant.stock)).toEqual([3, 5, 5, 5]);

    // A checkout of that variant ends the expired hold on the spot (the service says PEN, so the shop cancels).
    const shopper = await checkoutVariant(product.id, mAzul!, 1);
    expect(shopper.ok).toBe(true);
    expect(
      await client.order.findUniqueOrThrow({ where: { externalTransactionId: hoarder.externalTransactionId } }),
    ).toMatchObject({ status: "CAN", cancelReason: "hold_expired" });
    expect(await stocks(product.id)).toEqual({ variants: [2, 5, 5, 5], product: 17 });
    // A checkout of a sibling never touches the expired order of another variant.
    expect((await checkoutVariant(product.id, mBranco!, 1)).ok).toBe(true);
    expect(await stocks(product.id)).toEqual({ variants: [2, 4, 5, 5], product: 16 });
  });

  it("paid after cancel: the variant's units went back once and are never taken twice", async () => {
    quiet();
    const product = await tshirt();
    const [, , lAzul] = product.variantIds;
    const order = await checkoutVariant(product.id, lAzul!, 2);
    if (!order.ok) throw new Error(order.code);
    expect(await stocks(product.id)).toEqual({ variants: [3, 5, 3, 5], product: 16 });

    // The service cancels it: the CAN jobs put the two units back.
    await postWebhook(notification(order.externalTransactionId, "CAN"));
    await runJobs();
    expect(await stocks(product.id)).toEqual({ variants: [3, 5, 5, 5], product: 18 });

    // Then the shopper pays it by reference anyway: the order stays CAN, raised for attention, no stock moves.
    const paid = await postWebhook(notification(order.externalTransactionId, "CON"));
    expect(paid.body.outcome).toBe("paid_after_cancel");
    await postWebhook(notification(order.externalTransactionId, "CON"));
    await runJobs();
    expect(await stocks(product.id)).toEqual({ variants: [3, 5, 5, 5], product: 18 });
    expect(
      await client.order.findUniqueOrThrow({ where: { externalTransactionId: order.externalTransactionId } }),
    ).toMatchObject({ status: "CAN", attentionReason: "paid_after_cancel" });
    // Released once, whatever runs again.
    await client.$executeRaw`UPDATE jobs SET status = 'QUEUED', run_at = now() WHERE dedupe_key LIKE ${`%${order.externalTransactionId}`}`;
    await runJobs();
    expect(await stocks(product.id)).toEqual({ variants: [3, 5, 5, 5], product: 18 });
  });
});

describe("the cart holds variants", () => {
  it("adds two variants of one product as two lines, by id or by the option picker's values", async () => {
    const { getCart } = await import("@/lib/cart/cart");
    const { addToCart } = await import("@/lib/cart/cart-changes");
    const product = await tshirt();
    const first = await addToCart(client, { productId: product.id, variantId: product.variantIds[0], quantity: 1 });
    if (!first.ok) throw new Error(first.code);
    const second = await addToCart(client, {
      cartId: first.cartId,
      productId: product.id,
      options: { Tamanho: "L", Cor: "Branco" },
      quantity: 2,
    });
    expect(second).toMatchObject({ ok: true, quantity: 2 });
    const cart = await getCart(client, first.cartId);
    expect(cart?.lines.map((line) => [line.name, line.unitPriceAoa, line.quantity])).toEqual([
      [`${product.name}, M, Azul`, 4_500, 1],
      [`${product.name}, L, Branco`, 5_000, 2],
    ]);
    expect(cart?.totalAoa).toBe(14_500);
    // Checked out as variants: the cart's lines become the order's.
    const answer = await postCreateOrder({}, { Cookie: `cart_id=${first.cartId}` });
    expect(answer.status).toBe(200);
    expect(answer.body.amountAoa).toBe(14_500);
  });

  it("refuses a combination the product does not sell, one that is sold out, and no choice at all", async () => {
    const { addToCart } = await import("@/lib/cart/cart-changes");
    const product = await insertTestProductWithOptions(
      [
        { name: "Tamanho", values: ["M", "L"] },
        { name: "Cor", values: ["Azul", "Branco"] },
      ],
      [
        { values: ["M", "Azul"], priceAoa: 4_500, stock: 0 },
        { values: ["L", "Branco"], priceAoa: 4_500, stock: 2 },
      ],
    );
    expect(
      await addToCart(client, { productId: product.id, options: { Tamanho: "M", Cor: "Branco" }, quantity: 1 }),
    ).toMatchObject({ ok: false, code: "unknown_variant" });
    expect(
      await addToCart(client, { productId: product.id, options: { Tamanho: "M", Cor: "Azul" }, quantity: 1 }),
    ).toMatchObject({ ok: false, code: "out_of_stock" });
    expect(await addToCart(client, { productId: product.id, quantity: 1 })).toMatchObject({
      ok: false,
      code: "variant_required",
    });
    expect(
      await addToCart(client, { productId: product.id, options: { Tamanho: "M\u0000" }, quantity: 1 }),
    ).toMatchObject({ ok: false, code: "invalid_input" });
    expect(await client.cartLine.count({ where: { variant: { productId: product.id } } })).toBe(0);
  });
});
