import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { testPng } from "../../../harness/support/images";
import type { ImportResult } from "@/lib/catalog/csv/import";
import type { ImageStore } from "@/lib/catalog/images/store";

// The catalogue CSV without photos, as a shop's first spreadsheet is: new products (plain and
// with options) are created without images, the same file again changes nothing, the export
// reads back, and the shop shows them without an image (no image in the catalogue's answers, the
// JSON-LD or the sitemap). Then where the import stores image files: before it locks the
// products' rows (a checkout is not kept waiting behind them), still in its own transaction.

let database: TestDatabase;
let folder: string;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };
/** PostgreSQL (CI), not embedded PGlite, whose one session cannot hold two transactions at once. */
const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);

const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  withPgClient(database.url, async (client) => (await client.query(text, values)).rows as T[]);

beforeAll(async () => {
  database = await createTestDatabase("catalogue_csv_no_images");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
  folder = await mkdtemp(join(tmpdir(), "catalogue-csv-no-images-"));
  for (const [name, colour] of [
    ["a.png", [10, 200, 30]],
    ["b.png", [200, 10, 30]],
    ["c.png", [30, 10, 200]],
  ] as const)
    await writeFile(join(folder, name), await testPng({ colour: [...colour] }));
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
  await rm(folder, { recursive: true, force: true });
});

const HEADER =
  "slug,name,description,price_aoa,stock,categories,images,image_alts,option1_name,option1_value,option2_name,option2_value,sku";
const file = (...lines: string[]) => [HEADER, ...lines].join("\n");

async function runImport(csv: string, options: { images?: ImageStore; files?: boolean } = {}) {
  const { importCatalogCsv } = await import("@/lib/catalog/csv/import");
  const { folderFiles } = await import("@/lib/catalog/csv/files");
  const { db } = await import("@/lib/db/client");
  const { postgresImageStore } = await import("@/lib/catalog/images/postgres-store");
  return importCatalogCsv(
    new TextEncoder().encode(csv),
    // As the command line imports (scripts/catalogue-import.ts), nobody signed in.
    { dryRun: false, actor: null, ...(options.files ? { files: folderFiles(folder) } : {}) },
    { db: db(), images: options.images ?? postgresImageStore(db()) },
  );
}

const ok = (result: ImportResult) => {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, problems: [] });
  return result as Extract<ImportResult, { ok: true }>;
};

async function snapshot() {
  return {
    products: await sql("SELECT id, slug, name, price_aoa, stock, image_path, updated_at FROM products ORDER BY slug"),
    gallery: await sql("SELECT id, product_id, position, path, alt FROM gallery_images ORDER BY 2, 3"),
    variants: await sql("SELECT id, options, sku, price_aoa, stock, updated_at FROM product_variants ORDER BY id"),
    options: await sql("SELECT id, product_id, name, values FROM product_options ORDER BY id"),
    links: await sql("SELECT product_id, category_id FROM product_categories ORDER BY 1, 2"),
    adjustments: await sql("SELECT id FROM stock_adjustments ORDER BY id"),
    images: await sql("SELECT id FROM product_images ORDER BY id"),
  };
}

const galleryOf = (slug: string) =>
  sql("SELECT g.path FROM gallery_images g JOIN products p ON p.id = g.product_id WHERE p.slug = $1", [slug]);
const imagePathOf = async (slug: string) =>
  (await sql<{ image_path: string }>("SELECT image_path FROM products WHERE slug = $1", [slug]))[0]?.image_path;

describe("a catalogue without images", () => {
  const CSV = file(
    "feijao-manteiga-1kg,Feijão manteiga 1 kg,Do Cuanza Sul.,1800,40,Mercearia,,,,,,,",
    "fuba-de-bombo-1kg,Fuba de bombo 1 kg,Moída na hora.,1200,0,,,,,,,,",
    "camisa-kizomba,Camisa Kizomba,Algodão.,7000,4,Roupa,,,Tamanho,M,Cor,Azul,CK-M-AZ",
    "camisa-kizomba,,,7500,2,,,,Tamanho,G,Cor,Azul,CK-G-AZ",
  );

  it("is imported: new products, plain and with options, without a gallery; the same file again changes nothing", async () => {
    const first = ok(await runImport(CSV));
    expect(first.summary).toMatchObject({ rows: 4, created: 3, updated: 0, imagesStored: 0 });
    for (const slug of ["feijao-manteiga-1kg", "fuba-de-bombo-1kg", "camisa-kizomba"]) {
      expect(await galleryOf(slug)).toEqual([]);
      expect(await imagePathOf(slug)).toBe("");
    }
    const variants = await sql(
      `SELECT v.sku, v.price_aoa, v.stock FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE p.slug = 'camisa-kizomba' ORDER BY v.position`,
    );
    expect(variants).toEqual([
      { sku: "CK-M-AZ", price_aoa: 7000, stock: 4 },
      { sku: "CK-G-AZ", price_aoa: 7500, stock: 2 },
    ]);

    const before = await snapshot();
    const second = ok(await runImport(CSV));
    expect(second.summary).toMatchObject({ rows: 4, created: 0, updated: 0, unchanged: 3 });
    expect(await snapshot()).toEqual(before);
  });

  it("reads back from the export without a change, the images cells empty", async () => {
    const { catalogCsv } = await import("@/lib/catalog/csv/export");
    const { db } = await import("@/lib/db/client");
    const csv = await new Response(catalogCsv(db())).text();
    const line = csv.split(/\r?\n/).find((row) => row.startsWith("feijao-manteiga-1kg,"));
    expect(line).toBe("feijao-manteiga-1kg,Feijão manteiga 1 kg,Do Cuanza Sul.,1800,40,Mercearia,,,,,,,,,");
    const before = await snapshot();
    expect(ok(await runImport(csv)).summary).toMatchObject({ created: 0, updated: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it("shows no image: the catalogue's answers say null, the JSON-LD and the sitemap name none", async () => {
    const { findProductBySlug, listProducts } = await import("@/lib/catalog/products");
    const { productJsonLd, productSitemapEntry } = await import("@/lib/seo/seo");
    const feijao = (await findProductBySlug("feijao-manteiga-1kg"))!;
    expect(feijao.image).toBeNull();
    expect(feijao.variants.map((variant) => variant.image)).toEqual([null]);
    expect((await listProducts()).find((p) => p.slug === "fuba-de-bombo-1kg")?.image).toBeNull();
    const camisa = (await findProductBySlug("camisa-kizomba"))!;
    const ld = productJsonLd(camisa, "https://loja.example.ao") as unknown as Record<string, unknown>;
    expect(ld).not.toHaveProperty("image");
    const group = ld as { hasVariant?: Record<string, unknown>[] };
    for (const variant of group.hasVariant ?? []) expect(variant).not.toHaveProperty("image");
    // A search's page, and a cart holding it.
    const { browseProducts } = await import("@/lib/catalog/browse");
    const { db } = await import("@/lib/db/client");
    const found = await browseProducts(db(), { q: "fuba de bombo", sort: "relevance", inStock: false, page: 1 });
    expect(found?.items.find((p) => p.slug === "fuba-de-bombo-1kg")).toMatchObject({ image: null });
    const { getCart } = await import("@/lib/cart/cart");
    const cart = await db().cart.create({
      data: { lines: { create: [{ variantId: camisa.variants[0]!.id, quantity: 1 }] } },
    });
    expect((await getCart(db(), cart.id))?.lines.map((line) => line.image)).toEqual([null]);
    const entry = productSitemapEntry(
      { slug: "fuba-de-bombo-1kg", image: null, updatedAt: new Date() },
      "https://loja.example.ao",
    );
    expect(entry).not.toHaveProperty("images");
  });

  it("and an image given later is the product's first", async () => {
    const later = file("fuba-de-bombo-1kg,Fuba de bombo 1 kg,Moída na hora.,1200,0,,a.png,Saco de fuba,,,,,");
    ok(await runImport(later, { files: true }));
    const gallery = await galleryOf("fuba-de-bombo-1kg");
    expect(gallery).toHaveLength(1);
    expect(await imagePathOf("fuba-de-bombo-1kg")).toBe(gallery[0]!.path);
  });
});

describe("an import's image files", () => {
  it("are stored in its transaction: an import that fails after storing some leaves none", async () => {
    const { db } = await import("@/lib/db/client");
    const { postgresImageStore } = await import("@/lib/catalog/images/postgres-store");
    const store = postgresImageStore(db());
    let puts = 0;
    const failing: ImageStore = {
      ...store,
      async put(bytes, contentType, tx) {
        if (++puts === 2) throw new Error("the store failed");
        return store.put(bytes, contentType, tx);
      },
    };
    const before = await snapshot();
    await expect(
      runImport(
        file(
          "com-b,Com B,Texto.,100,1,,b.png,Vermelho,,,,,",
          "com-c,Com C,Texto.,100,1,,c.png,Azul,,,,,",
          "cafe-de-angola-torrado-1kg,Café de Angola torrado 1 kg,Outro texto.,8500,3,,,,,,,,",
        ),
        { files: true, images: failing },
      ),
    ).rejects.toThrow("the store failed");
    expect(puts).toBe(2);
    expect(await snapshot()).toEqual(before);
  });

  // Not on embedded PGlite: its one session runs one transaction at a time.
  it.runIf(server)(
    "are stored before the products' rows are locked: a checkout's lock is not kept waiting",
    async () => {
      const { db } = await import("@/lib/db/client");
      const { postgresImageStore } = await import("@/lib/catalog/images/postgres-store");
      const store = postgresImageStore(db());
      const [cafe] = await sql<{ id: string; description: string }>(
        "SELECT id, description FROM products WHERE slug = 'cafe-de-angola-torrado-1kg'",
      );
      /** What a checkout's lock of the product (lib/catalog/stock.ts) meets while each image is stored. */
      const seen: string[] = [];
      const probing: ImageStore = {
        ...store,
        async put(bytes, contentType, tx) {
          seen.push(
            await withPgClient(database.url, async (client) => {
              await client.query("BEGIN");
              try {
                await client.query("SELECT id FROM products WHERE id = $1 FOR UPDATE NOWAIT", [cafe!.id]);
                return "free";
              } catch (error) {
                if ((error as { code?: string }).code === "55P03") return "locked";
                throw error;
              } finally {
                await client.query("ROLLBACK");
              }
            }),
          );
          return store.put(bytes, contentType, tx);
        },
      };
      const result = ok(
        await runImport(
          file(
            "com-imagem-b,Com imagem B,Texto.,100,1,,b.png,Vermelho,,,,,",
            `cafe-de-angola-torrado-1kg,Café de Angola torrado 1 kg,"${cafe!.description.replaceAll('"', '""')} Novo.",8500,3,,c.png,Pacote azul,,,,,`,
          ),
          { files: true, images: probing },
        ),
      );
      expect(result.summary).toMatchObject({ created: 1, updated: 1, imagesStored: 2 });
      expect(seen).toEqual(["free", "free"]);
      expect(await galleryOf("cafe-de-angola-torrado-1kg")).toHaveLength(1);
    },
  );
});
