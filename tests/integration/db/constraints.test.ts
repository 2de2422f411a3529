import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The database's own guards on money, stock and ids (the CHECK section of the init migration):
// a bug in application code must fail here instead of storing a wrong row.

let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
});
afterAll(() => pool.end());

/** Runs `sql` in a transaction that is always rolled back, and returns the violated constraint, if any. */
async function violatedConstraint(sql: string, params: unknown[]): Promise<string | undefined> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(sql, params);
    return undefined;
  } catch (error) {
    return (error as { constraint?: string }).constraint;
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

const insertProduct = (price: number, stock: number) =>
  violatedConstraint(
    `INSERT INTO products (slug, name, description, image_path, price_aoa, stock) VALUES ($1, 'x', 'x', '/x.svg', $2, $3)`,
    [`test-${randomUUID()}`, price, stock],
  );

const insertOrder = (externalTransactionId: string, amountAoa: number) =>
  violatedConstraint(`INSERT INTO orders (external_transaction_id, amount_aoa, client_id) VALUES ($1, $2, 'shopper')`, [
    externalTransactionId,
    amountAoa,
  ]);

const insertCartItem = (quantity: number) =>
  violatedConstraint(
    `WITH cart AS (INSERT INTO carts DEFAULT VALUES RETURNING id),
          product AS (INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
                      VALUES ($1, 'x', 'x', '/x.svg', 100, 1) RETURNING id)
     INSERT INTO cart_items (cart_id, product_id, quantity) SELECT cart.id, product.id, $2 FROM cart, product`,
    [`test-${randomUUID()}`, quantity],
  );

describe("CHECK constraints", () => {
  it("accept a valid product, order and cart line", async () => {
    expect(await insertProduct(2_500, 0)).toBeUndefined();
    expect(await insertOrder(`order_${randomUUID()}`, 2_500)).toBeUndefined();
    expect(await insertCartItem(99)).toBeUndefined();
  });

  it.each([
    [0, 1, "products_price_aoa_check"],
    [-100, 1, "products_price_aoa_check"],
    [100, -1, "products_stock_check"],
  ])("refuse a product priced %s with stock %s", async (price, stock, constraint) => {
    expect(await insertProduct(price, stock)).toBe(constraint);
  });

  it.each([0, 100])("refuse a cart line of %s units", async (quantity) => {
    expect(await insertCartItem(quantity)).toBe("cart_items_quantity_check");
  });

  it("refuse an order that charges nothing", async () => {
    expect(await insertOrder(`order_${randomUUID()}`, 0)).toBe("orders_amount_aoa_check");
  });

  it.each([
    ["no prefix", randomUUID()],
    ["another prefix", `ord_${randomUUID()}`],
    ["upper case", `order_${randomUUID().toUpperCase()}`],
    ["a UUID that is not version 4", "order_3f2b8c1e-5d4a-1f6b-9c2d-1a2b3c4d5e6f"],
    ["trailing text", `order_${randomUUID()}x`],
  ])("refuse an externalTransactionId with %s", async (_, id) => {
    expect(await insertOrder(id, 100)).toBe("orders_external_transaction_id_check");
  });
});
