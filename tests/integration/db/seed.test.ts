import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setArchived, updateProduct } from "@/lib/catalog/products-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import {
  DEMO_CATEGORIES,
  DEMO_DELIVERY_ZONES,
  DEMO_PICKUP_POINTS,
  DEMO_PRODUCTS,
  DEMO_PROMO_CODES,
  DEMO_VARIANTS,
  describeSeed,
  seedCatalog,
} from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The demo catalogue on a database of its own, so other tests' stock changes cannot interfere.

const PUBLIC_DIR = fileURLToPath(new URL("../../../public", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

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

it("a fresh database gets everything; a second run finds nothing missing and leaves the same rows", async () => {
  const fresh = await seedCatalog(database.url);
  expect(fresh).toEqual({
    products: DEMO_PRODUCTS.length,
    inserted: DEMO_PRODUCTS.length,
    kept: 0,
    categories: DEMO_CATEGORIES.length,
    pickupPoints: DEMO_PICKUP_POINTS.length,
    deliveryZones: DEMO_DELIVERY_ZONES.length,
    promoCodes: DEMO_PROMO_CODES.map((code) => code.code),
  });
  expect(describeSeed(fresh)).toBe(
    `added ${DEMO_PRODUCTS.length} products; left 0 existing products as they are; ` +
      "added 7 categories, 2 pickup points, 4 delivery zones, the promo code BEMVINDO10",
  );
  const first = await productRows();
  expect(first).toHaveLength(DEMO_PRODUCTS.length);

  const again = await seedCatalog(pool);
  expect(again).toEqual({
    products: DEMO_PRODUCTS.length,
    inserted: 0,
    kept: DEMO_PRODUCTS.length,
    categories: 0,
    pickupPoints: 0,
    deliveryZones: 0,
    promoCodes: [],
  });
  expect(describeSeed(again)).toBe(
    `added 0 products; left ${DEMO_PRODUCTS.length} existing products as they are; ` +
      "no category, pickup point, delivery zone or promo code was missing",
  );
  expect(await productRows()).toEqual(first);
});

/** Everything the seed writes about products, for products other than `except`. */
const catalogState = async (except: string) => {
  const rows = async (sql: string) => (await pool.query(sql, [except])).rows;
  return {
    products: await rows(`SELECT * FROM products WHERE slug <> $1 ORDER BY slug`),
    variants: await rows(
      `SELECT v.* FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.slug <> $1 ORDER BY v.id`,
    ),
    options: await rows(
      `SELECT o.* FROM product_options o JOIN products p ON p.id = o.product_id WHERE p.slug <> $1 ORDER BY o.id`,
    ),
    categories: await rows(
      `SELECT pc.* FROM product_categories pc JOIN products p ON p.id = pc.product_id WHERE p.slug <> $1
       ORDER BY pc.product_id, pc.category_id`,
    ),
    gallery: await rows(
      `SELECT g.* FROM gallery_images g JOIN products p ON p.id = g.product_id WHERE p.slug <> $1 ORDER BY g.id`,
    ),
  };
};

it("never changes a product that exists: an owner's edits stay, and only what was removed comes back", async () => {
  // On the file's pool, which afterAll ends before the database is dropped.
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  try {
    const bySlug = (slug: string) => client.product.findUniqueOrThrow({ where: { slug } });
    // Through the back office's own functions, by a person of this database: a new name, price
    // and stock, and one archived.
    const owner = { id: "seed-test-owner", name: "Dona", email: "dona@shop.example", role: "owner" as const };
    await client.staff.create({ data: owner });
    const cloth = await bySlug("pano-samakaka-6-jardas");
    const edited = await updateProduct(
      cloth.id,
      {
        name: "Pano samakaka (promoção)",
        slug: cloth.slug,
        description: cloth.description,
        priceAoa: "15000",
        stock: "3",
        stockShown: String(cloth.stock),
        stockReason: "Inventário",
      },
      undefined,
      owner,
      { db: client, images: undefined as never },
    );
    expect(edited).toMatchObject({ ok: true });
    expect(await setArchived((await bySlug("mascara-mwana-pwo")).id, true, owner, { db: client })).toMatchObject({
      ok: true,
    });
    // In SQL: the café out of its categories and down to one image, a category renamed, and a
    // product and a category deleted.
    const coffee = await bySlug("cafe-de-angola-torrado-1kg");
    await pool.query("DELETE FROM product_categories WHERE product_id = $1", [coffee.id]);
    await pool.query("DELETE FROM gallery_images WHERE product_id = $1 AND position > 0", [coffee.id]);
    await pool.query("UPDATE categories SET name = 'Roupa' WHERE slug = 'moda'");
    await pool.query("DELETE FROM products WHERE slug = 'livro-mayombe-pepetela'");
    await pool.query("DELETE FROM categories WHERE slug = 'cultura'");
    const before = await catalogState("livro-mayombe-pepetela");

    const result = await seedCatalog(pool);
    expect(describeSeed(result)).toBe(
      `added 1 product; left ${DEMO_PRODUCTS.length - 1} existing products as they are; added 1 category`,
    );
    // Every row of every product that existed, as it was: not a price, a stock, a name, an updated_at.
    expect(await catalogState("livro-mayombe-pepetela")).toEqual(before);
    expect(await bySlug("pano-samakaka-6-jardas")).toMatchObject({
      name: "Pano samakaka (promoção)",
      priceAoa: 15000,
      stock: 3,
    });
    expect((await bySlug("mascara-mwana-pwo")).archivedAt).not.toBeNull();
    expect((await pool.query("SELECT name FROM categories WHERE slug = 'moda'")).rows).toEqual([{ name: "Roupa" }]);
    // What was deleted comes back, and the product it adds goes into the category it adds; the
    // kissange, which existed, is not put back in it.
    const culture = await client.category.findUniqueOrThrow({
      where: { slug: "cultura" },
      select: { products: { select: { product: { select: { slug: true } } } } },
    });
    expect(culture.products.map((link) => link.product.slug)).toEqual(["livro-mayombe-pepetela"]);
  } finally {
    await client.$disconnect();
  }
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
  expect(await seedCatalog(pool)).toMatchObject({ inserted: 0, kept: DEMO_PRODUCTS.length });
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

it("lists the demo zones' municipalities with the zones it adds, never with a zone that exists", async () => {
  await seedCatalog(pool);
  const listed = async () =>
    (
      await pool.query<{ zone: string; municipalities: string[] }>(
        `SELECT z.name AS zone, array_agg(m.name ORDER BY m.name) AS municipalities
         FROM delivery_zones z JOIN delivery_zone_municipalities m ON m.zone_id = z.id
         GROUP BY z.name ORDER BY z.name`,
      )
    ).rows;
  expect(await listed()).toEqual(
    DEMO_DELIVERY_ZONES.map((zone) => ({ zone: zone.name, municipalities: [...zone.municipalities].sort() })).sort(
      (a, b) => a.zone.localeCompare(b.zone),
    ),
  );
  // The owner's own list: Cazenga moved to a zone of theirs, Viana left with none.
  await pool.query("DELETE FROM delivery_zone_municipalities WHERE name IN ('Cazenga', 'Viana')");
  const before = await listed();
  await seedCatalog(pool);
  expect(await listed()).toEqual(before);
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

it("npm run db:seed says what it did: everything added to a fresh database, then nothing missing", async () => {
  const fresh = await createTestDatabase("seed-script");
  try {
    await applyMigrations({ connectionString: fresh.url });
    // scripts/seed.mjs as `npm run db:seed` runs it, configured by its environment alone.
    const seed = () =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["scripts/seed.mjs"],
          { cwd: ROOT, env: { ...process.env, DATABASE_URL: fresh.url, DATABASE_URL_UNPOOLED: "" }, timeout: 60_000 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim()),
        ),
      );
    const database = new URL(fresh.url);
    const where = `${database.hostname}:${database.port}${database.pathname}`;
    expect(await seed()).toBe(
      `[seed] ${where}: added ${DEMO_PRODUCTS.length} products; left 0 existing products as they are; ` +
        "added 7 categories, 2 pickup points, 4 delivery zones, the promo code BEMVINDO10",
    );
    expect(await seed()).toBe(
      `[seed] ${where}: added 0 products; left ${DEMO_PRODUCTS.length} existing products as they are; ` +
        "no category, pickup point, delivery zone or promo code was missing",
    );
  } finally {
    await fresh.drop();
  }
});
