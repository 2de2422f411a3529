import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import {
  DEMO_DELIVERY_ZONES,
  DEMO_PICKUP_POINTS,
  DEMO_PRODUCTS,
  DEMO_PROMO_CODES,
  DEMO_VARIANTS,
  seedCatalog,
} from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";

// The demo catalogue on a database of its own, so other tests' stock changes cannot interfere.

const PUBLIC_DIR = fileURLToPath(new URL("../../public", import.meta.url));

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase("seed");
  await applyMigrations({ connectionString: database.url });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const productRows = async () =>
  (
    await pool.query<{
      slug: string;
      name: string;
      image_path: string;
      price_aoa: number;
      stock: number;
      updated_at: Date;
    }>("SELECT slug, name, image_path, price_aoa, stock, updated_at FROM products ORDER BY slug")
  ).rows;

it("inserts the catalogue, then leaves the same rows on a second run", async () => {
  expect(await seedCatalog(database.url)).toEqual({
    products: DEMO_PRODUCTS.length,
    inserted: DEMO_PRODUCTS.length,
    updated: 0,
  });
  const first = await productRows();
  expect(first).toHaveLength(DEMO_PRODUCTS.length);

  expect(await seedCatalog(pool)).toEqual({ products: DEMO_PRODUCTS.length, inserted: 0, updated: 0 });
  expect(await productRows()).toEqual(first);
});

it("restores catalogue fields but never touches live stock", async () => {
  const [sold, edited] = DEMO_PRODUCTS;
  await pool.query("UPDATE products SET stock = 2 WHERE slug = $1", [sold!.slug]);
  await pool.query("UPDATE products SET price_aoa = 1, name = 'renamed' WHERE slug = $1", [edited!.slug]);

  expect(await seedCatalog(pool)).toEqual({ products: DEMO_PRODUCTS.length, inserted: 0, updated: 1 });
  const rows = new Map((await productRows()).map((row) => [row.slug, row]));
  expect(rows.get(sold!.slug)?.stock).toBe(2);
  expect(rows.get(edited!.slug)).toMatchObject({
    price_aoa: edited!.priceAoa,
    name: edited!.name,
    stock: edited!.initialStock,
  });
});

it("gives every product a local image, a positive integer price and a plausible stock", () => {
  expect(new Set(DEMO_PRODUCTS.map((product) => product.slug)).size).toBe(DEMO_PRODUCTS.length);
  for (const product of DEMO_PRODUCTS) {
    expect(product.imagePath).toBe(`/products/${product.slug}.svg`);
    expect(existsSync(`${PUBLIC_DIR}${product.imagePath}`), product.imagePath).toBe(true);
    expect(Number.isInteger(product.priceAoa) && product.priceAoa > 0, `${product.slug} price`).toBe(true);
    expect(product.initialStock).toBeGreaterThanOrEqual(5);
    expect(product.initialStock).toBeLessThanOrEqual(40);
  }
});

it("sells two demo products with options, one with two, as variants whose totals are the product's", async () => {
  await seedCatalog(pool);
  const variantRows = async () =>
    (
      await pool.query<{
        slug: string;
        options: Record<string, string>;
        sku: string;
        price_aoa: number;
        stock: number;
      }>(
        `SELECT p.slug, v.options, v.sku, v.price_aoa, v.stock FROM product_variants v JOIN products p ON p.id = v.product_id
         WHERE v.archived_at IS NULL AND v.options <> '{}' ORDER BY p.slug, v.sku`,
      )
    ).rows;
  const rows = await variantRows();
  expect(new Set(rows.map((row) => row.slug))).toEqual(new Set(Object.keys(DEMO_VARIANTS)));
  expect(Object.values(DEMO_VARIANTS).some((demo) => demo.options.length === 2)).toBe(true);
  for (const [slug, demo] of Object.entries(DEMO_VARIANTS)) {
    const ofProduct = rows.filter((row) => row.slug === slug);
    expect(ofProduct.map((row) => row.sku).sort()).toEqual(demo.variants.map((variant) => variant.sku).sort());
    const [product] = (await productRows()).filter((row) => row.slug === slug);
    expect(product).toMatchObject({
      price_aoa: Math.min(...demo.variants.map((variant) => variant.priceAoa)),
      stock: demo.variants.reduce((sum, variant) => sum + variant.initialStock, 0),
    });
    expect(product!.stock).toBe(DEMO_PRODUCTS.find((p) => p.slug === slug)!.initialStock);
  }
  // Again: nothing changes, the options are not added twice.
  expect(await seedCatalog(pool)).toMatchObject({ inserted: 0, updated: 0 });
  expect(await variantRows()).toEqual(rows);
});

it("adds the demo pickup points and delivery zones once, and never undoes an owner's change to them", async () => {
  await seedCatalog(pool);
  const rows = async () => ({
    points: (
      await pool.query("SELECT name, address, hours, active, position, updated_at FROM pickup_points ORDER BY name")
    ).rows,
    zones: (
      await pool.query(
        "SELECT name, fee_aoa, free_from_aoa, estimated_days, active, position, updated_at FROM delivery_zones ORDER BY name",
      )
    ).rows,
  });
  const first = await rows();
  expect(first.points.map((p) => p.name).sort()).toEqual(DEMO_PICKUP_POINTS.map((p) => p.name).sort());
  expect(first.zones).toHaveLength(4);
  expect(first.zones.map((z) => z.name).sort()).toEqual(DEMO_DELIVERY_ZONES.map((z) => z.name).sort());
  expect(first.zones.find((z) => z.name === "Talatona")).toMatchObject({
    fee_aoa: 2500,
    free_from_aoa: 50000,
    active: true,
  });

  await seedCatalog(pool);
  expect(await rows()).toEqual(first);

  // An owner's zone turned off, with another fee: the seed leaves it so.
  await pool.query("UPDATE delivery_zones SET active = false, fee_aoa = 4000 WHERE name = 'Viana'");
  await seedCatalog(pool);
  expect((await rows()).zones.find((z) => z.name === "Viana")).toMatchObject({ active: false, fee_aoa: 4000 });
});

it("adds the demo promo code once, and never undoes an owner's change to it", async () => {
  await seedCatalog(pool);
  const rows = async () =>
    (
      await pool.query(
        "SELECT code, kind, value, min_subtotal_aoa, starts_at, ends_at, max_uses, max_uses_per_phone, uses, active, updated_at FROM promo_codes ORDER BY code",
      )
    ).rows;
  const first = await rows();
  expect(first.map((c) => c.code)).toEqual(DEMO_PROMO_CODES.map((c) => c.code));
  expect(first[0]).toMatchObject({
    code: "BEMVINDO10",
    kind: "percent",
    value: 10,
    min_subtotal_aoa: 0,
    starts_at: null,
    ends_at: null,
    max_uses: null,
    max_uses_per_phone: null,
    uses: 0,
    active: true,
  });

  await seedCatalog(pool);
  expect(await rows()).toEqual(first);

  // An owner's code turned off, with a limit: the seed leaves it so.
  await pool.query("UPDATE promo_codes SET active = false, max_uses = 5 WHERE code = 'BEMVINDO10'");
  await seedCatalog(pool);
  expect((await rows())[0]).toMatchObject({ active: false, max_uses: 5 });
});
