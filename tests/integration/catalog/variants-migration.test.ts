import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCart } from "@/lib/cart/cart";
import { addToCart } from "@/lib/cart/cart-changes";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getOrderSummary } from "@/lib/orders/summary";
import { takeUnits } from "@/lib/catalog/stock";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, migrateBefore, type TestDatabase } from "../../../harness/support/database";

// Migration 20261129000000_variants on a database that the release before it filled: existing
// products, carts, order lines and stock adjustments get their default variant, and the release
// before (its exact statements, below) keeps working on the new schema, as docs/database.md asks
// of every migration: for the whole build, and after a rollback.

const FIRST_VARIANT_MIGRATION = "20261129000000_variants";

let database: TestDatabase;
let pool: pg.Pool;
let client: PrismaClient;

const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await pool.query<R>(sql, params)).rows;

const ids = {} as { coffee: string; honey: string; archived: string; cart: string; order: string };

beforeAll(async () => {
  database = await createTestDatabase("variants-migration");
  // Every migration before variants: the schema the release before runs on.
  await migrateBefore(database.url, FIRST_VARIANT_MIGRATION);
  pool = new pg.Pool({ connectionString: database.url, max: 1 });

  const product = async (slug: string, price: number, stock: number, archived = false) =>
    (
      await query<{ id: string }>(
        `INSERT INTO products (slug, name, description, image_path, price_aoa, stock, archived_at)
         VALUES ($1, $1, 'before variants', '/products/cafe-de-angola-torrado-1kg.svg', $2, $3, $4) RETURNING id`,
        [slug, price, stock, archived ? new Date() : null],
      )
    )[0]!.id;
  ids.coffee = await product("cafe", 8_500, 30);
  ids.honey = await product("mel", 4_000, 12);
  ids.archived = await product("antigo", 1_000, 0, true);
  ids.cart = (await query<{ id: string }>(`INSERT INTO carts (status) VALUES ('OPEN') RETURNING id`))[0]!.id;
  await query(`INSERT INTO cart_items (cart_id, product_id, quantity) VALUES ($1, $2, 2), ($1, $3, 1)`, [
    ids.cart,
    ids.coffee,
    ids.honey,
  ]);
  ids.order = (
    await query<{ id: string }>(
      `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, finalized_at)
       VALUES ('order_' || gen_random_uuid(), 'CON', 9500, 'before', now()) RETURNING id`,
    )
  )[0]!.id;
  await query(
    `INSERT INTO order_lines (order_id, product_id, product_name, unit_price_aoa, quantity)
     VALUES ($1, $2, 'antigo', 1000, 1), ($1, $3, 'cafe', 8500, 1)`,
    [ids.order, ids.archived, ids.coffee],
  );
  await query(
    `INSERT INTO stock_adjustments (product_id, kind, delta, stock_after, reason) VALUES ($1, 'initial', 30, 30, '')`,
    [ids.coffee],
  );

  // This release's migrations, on that data.
  await applyMigrations({ connectionString: database.url });
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 1 }) });
});
afterAll(async () => {
  await client?.$disconnect();
  await pool?.end();
  await database?.drop();
});

const variantsOf = (productId: string) =>
  query<{ id: string; options: Record<string, string>; price_aoa: number; stock: number }>(
    `SELECT id, options, price_aoa, stock FROM product_variants WHERE product_id = $1 AND archived_at IS NULL ORDER BY position, id`,
    [productId],
  );
const totals = async (productId: string) =>
  (
    await query<{ stock: number; price_aoa: number }>(`SELECT stock, price_aoa FROM products WHERE id = $1`, [
      productId,
    ])
  )[0];

describe("the data of the release before", () => {
  it("gives every product its default variant, at its price and stock", async () => {
    expect(await variantsOf(ids.coffee)).toEqual([
      expect.objectContaining({ options: {}, price_aoa: 8_500, stock: 30 }),
    ]);
    expect(await variantsOf(ids.honey)).toEqual([
      expect.objectContaining({ options: {}, price_aoa: 4_000, stock: 12 }),
    ]);
    expect(await variantsOf(ids.archived)).toHaveLength(1);
    expect(await totals(ids.coffee)).toEqual({ stock: 30, price_aoa: 8_500 });
  });

  it("keeps every past order line readable, with its variant", async () => {
    const lines = await query<{ variant_id: string | null; variant_title: string; product_name: string }>(
      `SELECT variant_id, variant_title, product_name FROM order_lines WHERE order_id = $1 ORDER BY product_name`,
      [ids.order],
    );
    expect(lines.every((line) => line.variant_id !== null && line.variant_title === "")).toBe(true);
    const externalTransactionId = (
      await query<{ external_transaction_id: string }>(`SELECT external_transaction_id FROM orders WHERE id = $1`, [
        ids.order,
      ])
    )[0]!.external_transaction_id;
    const summary = await getOrderSummary(client, externalTransactionId);
    expect(summary?.lines.map((line) => [line.productName, line.variantTitle, line.quantity])).toEqual([
      ["antigo", "", 1],
      ["cafe", "", 1],
    ]);
    expect(
      (
        await query<{ variant_id: string | null }>(`SELECT variant_id FROM stock_adjustments WHERE product_id = $1`, [
          ids.coffee,
        ])
      )[0]?.variant_id,
    ).toBe((await variantsOf(ids.coffee))[0]!.id);
  });

  it("keeps carts, and every product on sale stays buyable", async () => {
    const cart = await getCart(client, ids.cart);
    expect(cart?.lines.map((line) => [line.productName, line.quantity]).sort()).toEqual([
      ["cafe", 2],
      ["mel", 1],
    ]);
    const added = await addToCart(client, { cartId: ids.cart, productId: ids.honey, quantity: 1 });
    expect(added).toMatchObject({ ok: true, quantity: 2 });
    const [coffee] = await variantsOf(ids.coffee);
    const short = await client.$transaction((tx) =>
      takeUnits(tx, [{ productId: ids.coffee, variantId: coffee!.id, quantity: 3 }]),
    );
    expect(short).toBeNull();
    expect(await totals(ids.coffee)).toEqual({ stock: 27, price_aoa: 8_500 });
  });
});

describe("the release before, still serving on this schema", () => {
  it("sells, releases and adjusts a product through products.stock: its one variant follows", async () => {
    const [honey] = await variantsOf(ids.honey);
    // create-order's reservation, the CAN job's release, the back office's adjustment and price edit.
    expect(
      (await pool.query(`UPDATE products SET stock = stock - 5 WHERE id = $1 AND stock >= 5`, [ids.honey])).rowCount,
    ).toBe(1);
    expect((await variantsOf(ids.honey))[0]).toMatchObject({ id: honey!.id, stock: 7 });
    await query(`UPDATE products SET stock = stock + 2 WHERE id = $1`, [ids.honey]);
    await query(`UPDATE products SET price_aoa = 4200, updated_at = now() WHERE id = $1`, [ids.honey]);
    expect((await variantsOf(ids.honey))[0]).toMatchObject({ stock: 9, price_aoa: 4_200 });
    expect(await totals(ids.honey)).toEqual({ stock: 9, price_aoa: 4_200 });
    // Never below zero, as before.
    expect(
      (await pool.query(`UPDATE products SET stock = stock - 50 WHERE id = $1 AND stock >= 50`, [ids.honey])).rowCount,
    ).toBe(0);
  });

  it("writes order lines, stock adjustments and new products that get their variant", async () => {
    const [honey] = await variantsOf(ids.honey);
    const [line] = await query<{ variant_id: string }>(
      `INSERT INTO order_lines (order_id, product_id, product_name, unit_price_aoa, quantity)
       VALUES ($1, $2, 'mel', 4200, 1) RETURNING variant_id`,
      [ids.order, ids.honey],
    );
    expect(line?.variant_id).toBe(honey!.id);
    const [adjustment] = await query<{ variant_id: string }>(
      `INSERT INTO stock_adjustments (product_id, kind, delta, stock_after, reason) VALUES ($1, 'adjustment', 1, 10, 'contagem') RETURNING variant_id`,
      [ids.honey],
    );
    expect(adjustment?.variant_id).toBe(honey!.id);
    const [created] = await query<{ id: string }>(
      `INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
       VALUES ('novo', 'novo', 'd', '/products/cafe-de-angola-torrado-1kg.svg', 700, 4) RETURNING id`,
    );
    expect(await variantsOf(created!.id)).toEqual([expect.objectContaining({ options: {}, price_aoa: 700, stock: 4 })]);
  });

  it("keeps its cart_items and this release's cart_lines in step, both ways, for products without options", async () => {
    const [cart] = await query<{ id: string }>(`INSERT INTO carts (status) VALUES ('OPEN') RETURNING id`);
    // The release before's upsert (Prisma's native upsert on the unique (cart_id, product_id)).
    const upsert = (quantity: number) =>
      query(
        `INSERT INTO cart_items (cart_id, product_id, quantity) VALUES ($1, $2, $3)
         ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity`,
        [cart!.id, ids.coffee, quantity],
      );
    await upsert(1);
    await upsert(4);
    expect((await getCart(client, cart!.id))?.lines.map((line) => line.quantity)).toEqual([4]);
    // This release adds another product; the release before (after a rollback) sees it.
    expect(await addToCart(client, { cartId: cart!.id, productId: ids.honey, quantity: 2 })).toMatchObject({
      ok: true,
    });
    expect(
      await query(`SELECT product_id, quantity FROM cart_items WHERE cart_id = $1 ORDER BY quantity`, [cart!.id]),
    ).toEqual([
      { product_id: ids.honey, quantity: 2 },
      { product_id: ids.coffee, quantity: 4 },
    ]);
    await query(`DELETE FROM cart_items WHERE cart_id = $1 AND product_id = $2`, [cart!.id, ids.coffee]);
    expect((await getCart(client, cart!.id))?.lines.map((line) => line.productName)).toEqual(["mel"]);
  });

  it("is refused, changing nothing, on a product this release gave options", async () => {
    const [variant] = await variantsOf(ids.coffee);
    await client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM products WHERE id = ${ids.coffee}::uuid FOR NO KEY UPDATE`;
      await tx.productOption.create({
        data: { productId: ids.coffee, position: 1, name: "Moagem", values: ["Grão", "Moído"] },
      });
      await tx.productVariant.update({ where: { id: variant!.id }, data: { options: { Moagem: "Grão" } } });
      await tx.productVariant.create({
        data: { productId: ids.coffee, options: { Moagem: "Moído" }, priceAoa: 9_000, stock: 5 },
      });
    });
    const before = await totals(ids.coffee);
    expect(before).toEqual({ stock: 27 + 5, price_aoa: 8_500 });
    await expect(
      query(`UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock >= 1`, [ids.coffee]),
    ).rejects.toThrow(/has options/);
    const [cart] = await query<{ id: string }>(`INSERT INTO carts (status) VALUES ('OPEN') RETURNING id`);
    await expect(
      query(`INSERT INTO cart_items (cart_id, product_id, quantity) VALUES ($1, $2, 1)`, [cart!.id, ids.coffee]),
    ).rejects.toThrow(/has options/);
    expect(await totals(ids.coffee)).toEqual(before);
    expect(await query(`SELECT 1 FROM cart_lines WHERE cart_id = $1`, [cart!.id])).toEqual([]);
  });
});
