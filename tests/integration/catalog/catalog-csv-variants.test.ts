import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import type { ImportResult } from "@/lib/catalog/csv/import";

// Products with options in the catalogue CSV (docs/catalog-csv.md): one line per variant,
// sharing the product's slug, with option1_name…option3_value and sku. What an import creates,
// changes, archives and refuses, and that an export reads back without a change.

let database: TestDatabase;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };

const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  withPgClient(database.url, async (client) => (await client.query(text, values)).rows as T[]);

beforeAll(async () => {
  database = await createTestDatabase("catalogue_csv_variants");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
});

const HEADER =
  "slug,name,description,price_aoa,stock,categories,images,image_alts,option1_name,option1_value,option2_name,option2_value,sku";

/** The T-shirt: Tamanho × Cor, four variants. */
const TSHIRT = [
  "t-shirt-kianda,T-shirt Kianda,Algodão angolano.,9000,5,Roupa,/products/t-shirt.svg,T-shirt dobrada,Tamanho,M,Cor,Azul,TK-M-AZ",
  "t-shirt-kianda,,,9000,3,,,,Tamanho,M,Cor,Branco,TK-M-BR",
  "t-shirt-kianda,,,9500,0,,,,Tamanho,G,Cor,Azul,TK-G-AZ",
  "t-shirt-kianda,T-shirt Kianda,,9500,7,Roupa,,,Tamanho,G,Cor,Branco,TK-G-BR",
];
const file = (...lines: string[]) => [HEADER, ...lines].join("\n");

async function runImport(csv: string | Uint8Array, dryRun = false) {
  const { importCatalogCsv } = await import("@/lib/catalog/csv/import");
  const { db } = await import("@/lib/db/client");
  const { postgresImageStore } = await import("@/lib/catalog/images/postgres-store");
  const bytes = typeof csv === "string" ? new TextEncoder().encode(csv) : csv;
  // As the command line imports (scripts/catalogue-import.ts), nobody signed in.
  return importCatalogCsv(bytes, { dryRun, actor: null }, { db: db(), images: postgresImageStore(db()) });
}

const ok = (result: ImportResult) => {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, problems: [] });
  return result as Extract<ImportResult, { ok: true }>;
};
const invalid = (result: ImportResult) => {
  expect(result.ok).toBe(false);
  if (!("problems" in result)) throw new Error(JSON.stringify(result));
  return result.problems.map(({ line, column, code }) => ({ line, column, code }));
};

/** Everything an import of variants may write. */
async function snapshot() {
  return {
    products: await sql("SELECT id, slug, name, price_aoa, stock, updated_at, archived_at FROM products ORDER BY slug"),
    options: await sql("SELECT id, product_id, position, name, values FROM product_options ORDER BY id"),
    variants: await sql(
      "SELECT id, product_id, options, sku, price_aoa, stock, position, archived_at, updated_at FROM product_variants ORDER BY id",
    ),
    adjustments: await sql("SELECT id FROM stock_adjustments ORDER BY id"),
  };
}

const productOf = async (slug: string) =>
  (
    await sql<{ id: string; price_aoa: number; stock: number }>(
      "SELECT id, price_aoa, stock FROM products WHERE slug = $1",
      [slug],
    )
  )[0]!;
const variantsOf = (slug: string) =>
  sql<{
    id: string;
    options: Record<string, string>;
    sku: string | null;
    price_aoa: number;
    stock: number;
    position: number;
    archived: boolean;
    updated_at: Date;
  }>(
    `SELECT v.id, v.options, v.sku, v.price_aoa, v.stock, v.position, v.archived_at IS NOT NULL AS archived, v.updated_at
     FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.slug = $1
     ORDER BY v.archived_at IS NOT NULL, v.position, v.created_at`,
    [slug],
  );
const optionsOf = (slug: string) =>
  sql<{ position: number; name: string; values: string[] }>(
    `SELECT o.position, o.name, o.values FROM product_options o JOIN products p ON p.id = o.product_id
     WHERE p.slug = $1 ORDER BY o.position`,
    [slug],
  );
const adjustmentsOf = (slug: string) =>
  sql<{ variant_id: string; kind: string; delta: number; stock_after: number; reason: string }>(
    `SELECT a.variant_id, a.kind, a.delta, a.stock_after, a.reason FROM stock_adjustments a
     JOIN products p ON p.id = a.product_id WHERE p.slug = $1 ORDER BY a.created_at, a.id`,
    [slug],
  );

describe("a product with options", () => {
  it("is imported from one line per variant: its options, variants, SKUs, and the lowest price", async () => {
    const dry = ok(await runImport(file(...TSHIRT), true));
    expect(dry.summary).toMatchObject({ rows: 4, created: 1, updated: 0 });
    expect(await sql("SELECT 1 FROM products WHERE slug = 't-shirt-kianda'")).toHaveLength(0);

    expect(ok(await runImport(file(...TSHIRT))).summary).toMatchObject({ rows: 4, created: 1 });
    expect(await optionsOf("t-shirt-kianda")).toEqual([
      { position: 1, name: "Tamanho", values: ["M", "G"] },
      { position: 2, name: "Cor", values: ["Azul", "Branco"] },
    ]);
    const variants = await variantsOf("t-shirt-kianda");
    expect(
      variants.map(({ options, sku, price_aoa, stock, position, archived }) => ({
        options,
        sku,
        price_aoa,
        stock,
        position,
        archived,
      })),
    ).toEqual([
      {
        options: { Tamanho: "M", Cor: "Azul" },
        sku: "TK-M-AZ",
        price_aoa: 9000,
        stock: 5,
        position: 0,
        archived: false,
      },
      {
        options: { Tamanho: "M", Cor: "Branco" },
        sku: "TK-M-BR",
        price_aoa: 9000,
        stock: 3,
        position: 1,
        archived: false,
      },
      {
        options: { Tamanho: "G", Cor: "Azul" },
        sku: "TK-G-AZ",
        price_aoa: 9500,
        stock: 0,
        position: 2,
        archived: false,
      },
      {
        options: { Tamanho: "G", Cor: "Branco" },
        sku: "TK-G-BR",
        price_aoa: 9500,
        stock: 7,
        position: 3,
        archived: false,
      },
    ]);
    expect(await productOf("t-shirt-kianda")).toMatchObject({ price_aoa: 9000, stock: 15 });
    // One transaction: their created_at are equal, so by delta.
    const adjustments = (await adjustmentsOf("t-shirt-kianda")).sort((a, b) => a.delta - b.delta);
    expect(adjustments.map(({ kind, delta, stock_after, reason }) => ({ kind, delta, stock_after, reason }))).toEqual([
      { kind: "initial", delta: 3, stock_after: 3, reason: "CSV import" },
      { kind: "initial", delta: 5, stock_after: 5, reason: "CSV import" },
      { kind: "initial", delta: 7, stock_after: 7, reason: "CSV import" },
    ]);
    expect(new Set(adjustments.map((a) => a.variant_id))).toEqual(
      new Set([variants[0]!.id, variants[1]!.id, variants[3]!.id]),
    );

    // The same file again changes nothing.
    const before = await snapshot();
    expect(ok(await runImport(file(...TSHIRT))).summary).toMatchObject({ unchanged: 1, created: 0, updated: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it("changes only the variant whose line changed, with one stock adjustment", async () => {
    const before = await variantsOf("t-shirt-kianda");
    const changed = [...TSHIRT];
    changed[1] = "t-shirt-kianda,,,8000,10,,,,Tamanho,M,Cor,Branco,TK-M-BR";
    const adjustments = (await adjustmentsOf("t-shirt-kianda")).length;
    expect(ok(await runImport(file(...changed))).summary).toMatchObject({ updated: 1, unchanged: 0 });

    const after = await variantsOf("t-shirt-kianda");
    expect(after.map((v) => v.id)).toEqual(before.map((v) => v.id));
    expect(after[1]).toMatchObject({ price_aoa: 8000, stock: 10 });
    for (const i of [0, 2, 3]) expect(after[i]).toEqual(before[i]);
    const added = (await adjustmentsOf("t-shirt-kianda")).slice(adjustments);
    expect(added).toEqual([
      { variant_id: before[1]!.id, kind: "edit", delta: 7, stock_after: 10, reason: "CSV import" },
    ]);
    expect(await productOf("t-shirt-kianda")).toMatchObject({ price_aoa: 8000, stock: 22 });
  });

  it("archives the variant whose line is dropped, and brings it back when it is listed again", async () => {
    const before = await variantsOf("t-shirt-kianda");
    const dropped = [TSHIRT[0]!, "t-shirt-kianda,,,8000,10,,,,Tamanho,M,Cor,Branco,TK-M-BR", TSHIRT[3]!];
    expect(ok(await runImport(file(...dropped))).summary).toMatchObject({ updated: 1 });
    const after = await variantsOf("t-shirt-kianda");
    expect(after).toHaveLength(4);
    const gone = after.find((v) => v.id === before[2]!.id)!;
    expect(gone).toMatchObject({ archived: true, sku: "TK-G-AZ" });
    expect(after.filter((v) => !v.archived).map((v) => v.id)).toEqual([before[0]!.id, before[1]!.id, before[3]!.id]);
    expect(await productOf("t-shirt-kianda")).toMatchObject({ price_aoa: 8000, stock: 22 });
    // Its value stays an option value only while a variant has it: G stays (G, Branco), Azul too.
    expect((await optionsOf("t-shirt-kianda")).map((o) => o.values)).toEqual([
      ["M", "G"],
      ["Azul", "Branco"],
    ]);

    // Listed again (its SKU with it): the archived variant comes back, no second one.
    const back = [TSHIRT[0]!, "t-shirt-kianda,,,8000,10,,,,Tamanho,M,Cor,Branco,TK-M-BR", TSHIRT[2]!, TSHIRT[3]!];
    ok(await runImport(file(...back)));
    const again = await variantsOf("t-shirt-kianda");
    expect(again).toHaveLength(4);
    expect(again.every((v) => !v.archived)).toBe(true);
    expect(again.map((v) => v.id)).toEqual(before.map((v) => v.id));
  });

  it("turns a product's default variant into its first combination, keeping its id", async () => {
    const slug = "capulana-classica";
    ok(
      await runImport(
        file(`${slug},Capulana clássica,Tecido africano.,6000,4,,/products/capulana.svg,Capulana,,,,,CAP-1`),
      ),
    );
    const [only] = await variantsOf(slug);
    expect(only).toMatchObject({ options: {}, sku: "CAP-1", stock: 4 });
    expect(await optionsOf(slug)).toEqual([]);

    ok(
      await runImport(
        file(
          `${slug},Capulana clássica,Tecido africano.,6000,4,,,,Padrão,Azul,,,CAP-1`,
          `${slug},,,6500,2,,,,Padrão,Vermelho,,,CAP-2`,
        ),
      ),
    );
    const variants = await variantsOf(slug);
    expect(variants.map(({ id, options, sku, stock, archived }) => ({ id, options, sku, stock, archived }))).toEqual([
      { id: only!.id, options: { Padrão: "Azul" }, sku: "CAP-1", stock: 4, archived: false },
      { id: variants[1]!.id, options: { Padrão: "Vermelho" }, sku: "CAP-2", stock: 2, archived: false },
    ]);
    expect(await optionsOf(slug)).toEqual([{ position: 1, name: "Padrão", values: ["Azul", "Vermelho"] }]);
    expect(await productOf(slug)).toMatchObject({ price_aoa: 6000, stock: 6 });
  });

  it("refuses contradictions and duplicates by line and column, and writes nothing", async () => {
    const before = await snapshot();
    const result = await runImport(
      file(
        TSHIRT[0]!,
        "t-shirt-kianda,T-shirt Luanda,,9000,3,,,,Tamanho,M,Cor,Branco,TK-M-BR",
        "t-shirt-kianda,,,9500,0,,,,Tamanho,M,Cor,Azul,TK-X",
        "t-shirt-kianda,,,9500,7,,,,Cor,G,Tamanho,Branco,TK-G-BR",
        "t-shirt-kianda,,,9500,7,,,,Tamanho,P,Cor,Branco,TK-M-AZ",
        "t-shirt-kianda,,,9500,7,,,,Tamanho,,Cor,Preto,bad sku",
        "outro-produto,Outro,Outro.,100,1,,/products/x.svg,X,,,,,CAP-2",
      ),
    );
    expect(invalid(result)).toEqual([
      { line: 3, column: "name", code: "product_column_differs" },
      { line: 4, column: "option1_value", code: "duplicate_combination" },
      { line: 5, column: "option1_name", code: "option_names_differ" },
      { line: 6, column: "sku", code: "duplicate_sku" },
      { line: 7, column: "option1_value", code: "required" },
      { line: 7, column: "sku", code: "sku_format" },
      { line: 8, column: "sku", code: "sku_taken" },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("with a file without option columns, refuses a product that has options", async () => {
    const before = await snapshot();
    const result = await runImport(
      "slug,name,description,price_aoa,stock\nt-shirt-kianda,T-shirt Kianda,Algodão angolano.,9000,5\n",
    );
    expect(invalid(result)).toEqual([{ line: 2, column: null, code: "product_has_options" }]);
    expect(await snapshot()).toEqual(before);
  });

  it("reads back from the export without a change", async () => {
    const { GET } = await import("@/app/api/admin/catalogue/export/route");
    const { adminRequest } = await import("../../../harness/support/admin");
    const response = await GET(await adminRequest("/api/admin/catalogue/export", { method: "GET" }));
    const text = await response.text();
    const lines = text.split("\r\n").filter((line) => line.startsWith("t-shirt-kianda,"));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain(",Tamanho,M,Cor,Azul,,,TK-M-AZ");
    expect(lines[3]).toContain(",Tamanho,G,Cor,Branco,,,TK-G-BR");

    const before = await snapshot();
    const count = Number((await sql<{ n: string }>("SELECT count(*) AS n FROM products"))[0]!.n);
    const result = ok(await runImport(text));
    expect(result.summary).toMatchObject({ created: 0, updated: 0, unchanged: count });
    expect(await snapshot()).toEqual(before);
  });
});

describe("SKUs and options changing hands", () => {
  it("swaps two variants' SKUs in one import", async () => {
    const slug = "capulana-classica";
    ok(
      await runImport(
        file(
          `${slug},Capulana clássica,Tecido africano.,6000,4,,,,Padrão,Azul,,,CAP-2`,
          `${slug},,,6500,2,,,,Padrão,Vermelho,,,CAP-1`,
        ),
      ),
    );
    expect((await variantsOf(slug)).map((v) => [v.options, v.sku])).toEqual([
      [{ Padrão: "Azul" }, "CAP-2"],
      [{ Padrão: "Vermelho" }, "CAP-1"],
    ]);
  });

  it("keeps an option's values in the shop's order, the new ones after them, and drops one no line has", async () => {
    const line = (size: string, first = false) =>
      first
        ? `vestido-mwangole,Vestido Mwangole,Pano do Congo.,15000,1,,/products/vestido.svg,Vestido,Tamanho,${size},,,`
        : `vestido-mwangole,,,15000,1,,,,Tamanho,${size},,,`;
    ok(await runImport(file(line("P", true), line("M"), line("G"))));
    expect(await optionsOf("vestido-mwangole")).toEqual([{ position: 1, name: "Tamanho", values: ["P", "M", "G"] }]);
    ok(await runImport(file(line("G", true), line("P"), line("XL"))));
    expect(await optionsOf("vestido-mwangole")).toEqual([{ position: 1, name: "Tamanho", values: ["P", "G", "XL"] }]);
    const variants = await variantsOf("vestido-mwangole");
    expect(variants.filter((v) => !v.archived).map((v) => [v.options, v.position])).toEqual([
      [{ Tamanho: "G" }, 0],
      [{ Tamanho: "P" }, 1],
      [{ Tamanho: "XL" }, 2],
    ]);
    expect(variants.filter((v) => v.archived).map((v) => v.options)).toEqual([{ Tamanho: "M" }]);
  });

  it("takes a product back to no options: its variants archived, a default variant at the line's price and stock", async () => {
    const slug = "capulana-classica";
    const before = await variantsOf(slug);
    ok(await runImport(file(`${slug},Capulana clássica,Tecido africano.,7000,9,,,,,,,,CAP-3`)));
    const after = await variantsOf(slug);
    expect(after.filter((v) => v.archived).map((v) => v.id)).toEqual(before.map((v) => v.id));
    expect(after.filter((v) => !v.archived)).toMatchObject([{ options: {}, sku: "CAP-3", price_aoa: 7000, stock: 9 }]);
    expect(await optionsOf(slug)).toEqual([]);
    expect(await productOf(slug)).toMatchObject({ price_aoa: 7000, stock: 9 });
  });
});
