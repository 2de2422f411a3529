import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { DEMO_PRODUCTS, seedCatalog } from "@/scripts/db/seed.mjs";

type DemoProduct = (typeof DEMO_PRODUCTS)[number];
import { adminRequest, type AdminCaller } from "../../../harness/support/admin";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import type { ImportResult } from "@/lib/catalog/csv/import";

// The catalogue CSV (lib/catalog/csv/, POST /api/admin/catalogue/import, GET
// /api/admin/catalogue/export) against a real database of this file's own, the demo catalogue in
// it: what a dry run answers, what an import writes (and that a second one writes nothing), image
// files from a folder, categories by path, the export read back, and the routes' refusals.

let database: TestDatabase;
let folder: string;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };

const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  withPgClient(database.url, async (client) => (await client.query(text, values)).rows as T[]);

beforeAll(async () => {
  database = await createTestDatabase("catalogue_csv");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
  folder = await mkdtemp(join(tmpdir(), "catalogue-csv-"));
  await mkdir(join(folder, "fotos"));
  await writeFile(join(folder, "red.png"), png([200, 30, 30]));
  await writeFile(join(folder, "fotos", "blue.png"), png([30, 30, 200]));
  await writeFile(join(folder, "red-copy.png"), png([200, 30, 30]));
  await writeFile(join(folder, "not-an-image.png"), "hello");
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
  await rm(folder, { recursive: true, force: true });
});

/** A 2×2 PNG of one colour: a different colour is a different image. */
function png([r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.from([0, r, g, b, r, g, b]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat([row, row]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const HEADER = "slug,name,description,price_aoa,stock,categories,images,image_alts";
/** What the export writes: the columns above, then the options' and the SKU. */
const EXPORT_HEADER = `${HEADER},option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,sku`;

async function runImport(csv: string | Uint8Array, options: { dryRun?: boolean; files?: boolean } = {}) {
  const { importCatalogCsv } = await import("@/lib/catalog/csv/import");
  const { folderFiles } = await import("@/lib/catalog/csv/files");
  const { db } = await import("@/lib/db/client");
  const { postgresImageStore } = await import("@/lib/catalog/images/postgres-store");
  const bytes = typeof csv === "string" ? new TextEncoder().encode(csv) : csv;
  return importCatalogCsv(
    bytes,
    // As the command line imports (scripts/catalogue-import.ts): image files from a folder, nobody signed in.
    {
      dryRun: options.dryRun ?? false,
      actor: null,
      ...(options.files === false ? {} : { files: folderFiles(folder) }),
    },
    { db: db(), images: postgresImageStore(db()) },
  );
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

/** Everything an import may write, to compare before and after. */
async function snapshot() {
  return {
    products: await sql(
      "SELECT id, slug, name, description, price_aoa, stock, image_path, updated_at, archived_at FROM products ORDER BY slug",
    ),
    categories: await sql("SELECT id, slug, name, parent_id, updated_at FROM categories ORDER BY slug"),
    links: await sql("SELECT product_id, category_id FROM product_categories ORDER BY 1, 2"),
    gallery: await sql("SELECT id, product_id, position, path, alt, created_at FROM gallery_images ORDER BY 2, 3"),
    adjustments: await sql("SELECT id FROM stock_adjustments ORDER BY id"),
    images: await sql("SELECT id, sha256 FROM product_images ORDER BY id"),
  };
}

const product = async (slug: string) =>
  (
    await sql<{ id: string; name: string; price_aoa: number; stock: number; image_path: string; updated_at: Date }>(
      "SELECT id, name, price_aoa, stock, image_path, updated_at FROM products WHERE slug = $1",
      [slug],
    )
  )[0];
const galleryOf = (slug: string) =>
  sql<{ path: string; alt: string }>(
    "SELECT g.path, g.alt FROM gallery_images g JOIN products p ON p.id = g.product_id WHERE p.slug = $1 ORDER BY g.position",
    [slug],
  );
const categoriesOf = async (slug: string) =>
  (
    await sql<{ slug: string }>(
      `SELECT c.slug FROM product_categories pc JOIN categories c ON c.id = pc.category_id
       JOIN products p ON p.id = pc.product_id WHERE p.slug = $1 ORDER BY c.slug`,
      [slug],
    )
  ).map((row) => row.slug);
const adjustmentsOf = (slug: string) =>
  sql<{ kind: string; delta: number; stock_after: number; reason: string }>(
    `SELECT a.kind, a.delta, a.stock_after, a.reason FROM stock_adjustments a JOIN products p ON p.id = a.product_id
     WHERE p.slug = $1 ORDER BY a.created_at, a.id`,
    [slug],
  );

describe("a dry run", () => {
  it("answers every problem by line and column, and writes nothing", async () => {
    const before = await snapshot();
    const csv = [
      HEADER,
      "novo-cafe,Café novo,Um café.,8500,10,Mercearia > Café e petiscos,red.png,Pacote vermelho",
      'preco-virgula,Preço com vírgula,Texto.,"8500,50",1,,red.png,Vermelho',
      "preco-ponto,Preço com ponto,Texto.,8.500,1,,red.png,Vermelho",
      "Slug Mau,Nome,Texto.,100,-1,,red.png,Vermelho",
      ",,,,,,,",
      "sem-imagem,Sem imagem,Texto.,100,1,,,",
      "novo-cafe,Repetido,Texto.,100,1,,red.png,Vermelho",
      "fundo,Fundo,Texto.,100,1,A > B > C,red.png|fotos/blue.png,Só um",
      "ficheiros,Ficheiros,Texto.,100,1,,missing.png|not-an-image.png|../fora.png|https://x.example/a.png,a|b|c|d",
      "caminhos,Caminhos,Texto.,100,1,Café e petiscos,/api/images/00000000-0000-4000-8000-000000000000,a",
      "curta,Curta,Texto.,100,1,,red.png,Vermelho,extra",
    ].join("\n");
    const result = await runImport(csv, { dryRun: true });
    expect(result).toMatchObject({ ok: false, dryRun: true });
    expect(invalid(result)).toEqual([
      { line: 3, column: "price_aoa", code: "not_kwanza" },
      { line: 4, column: "price_aoa", code: "not_kwanza" },
      { line: 5, column: "slug", code: "slug_format" },
      { line: 5, column: "stock", code: "not_whole" },
      { line: 8, column: "slug", code: "duplicate_slug" },
      { line: 9, column: "categories", code: "category_too_deep" },
      { line: 9, column: "image_alts", code: "alts_count" },
      { line: 10, column: "images", code: "image_outside_folder" },
      { line: 10, column: "images", code: "image_url" },
      { line: 10, column: "images", code: "image_not_found" },
      { line: 10, column: "images", code: "unsupported_image" },
      { line: 11, column: "categories", code: "category_is_sub" },
      { line: 11, column: "images", code: "image_unknown" },
      { line: 12, column: null, code: "field_count" },
    ]);
    if (!("problems" in result)) throw new Error("no problems");
    const price = result.problems.find((p) => p.line === 3)!;
    expect(price.message).toMatch(/whole number of kwanza.*digits only/);
    expect(result.problems.find((p) => p.line === 8)).toMatchObject({ value: "2" });
    expect(result.problems.find((p) => p.code === "category_is_sub")).toMatchObject({
      value: "Mercearia > Café e petiscos",
    });
    expect(await snapshot()).toEqual(before);
  });

  it("of a good file says what would change, and writes nothing", async () => {
    const before = await snapshot();
    const [first, second] = DEMO_PRODUCTS as [DemoProduct, DemoProduct];
    const line = (p: DemoProduct, price: number) => [p.slug, p.name, p.description, price, p.initialStock, "", "", ""];
    const csv = stringify([
      HEADER.split(","),
      line(first, first.priceAoa + 1),
      line(second, second.priceAoa),
      ["seco-novo", "Seco novo", "Texto.", 100, 0, "Nova Categoria > Nova Sub", "red.png", "Vermelho"],
    ]);
    const result = ok(await runImport(csv, { dryRun: true }));
    expect(result.summary).toEqual({
      rows: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      archived: 0,
      categoriesCreated: 2,
      imagesStored: 1,
    });
    expect(await snapshot()).toEqual(before);
  });

  it("of a back-office upload refuses image file names: only the shop's paths", async () => {
    const result = await runImport([HEADER, "enviado,Enviado,Texto.,100,1,,red.png,Vermelho"].join("\n"), {
      dryRun: true,
      files: false,
    });
    expect(invalid(result)).toEqual([{ line: 2, column: "images", code: "image_file_not_allowed" }]);
    if ("problems" in result) expect(result.problems[0]!.message).toMatch(/npm run catalogue:import/);
  });
});

describe("an import", () => {
  const CSV = [
    HEADER,
    '"cafe-importado","Café importado, 250 g","Torra escura.',
    'Moagem fina.",4200,12,"Mercearia > Café e petiscos|Ofertas",red.png|fotos/blue.png,Pacote vermelho|Pacote azul',
    "cha-importado,Chá importado,Folhas secas.,1500,0,ofertas|MERCEARIA > cafe E PETISCOS,red-copy.png,Caixa vermelha",
    "ginguba-torrada-500g,Ginguba torrada com sal 500 g,Amendoim.,2600,50,,,",
  ].join("\r\n");

  it("creates and updates products, their categories, galleries and stock; a second import changes nothing", async () => {
    const ginguba = (await product("ginguba-torrada-500g"))!;
    const imagesBefore = (await sql("SELECT id FROM product_images")).length;
    const first = ok(await runImport(CSV));
    expect(first.summary).toMatchObject({ rows: 3, created: 2, updated: 1, unchanged: 0, categoriesCreated: 1 });
    // red.png and red-copy.png have the same bytes: stored once.
    expect(first.summary.imagesStored).toBe(2);
    expect((await sql("SELECT id FROM product_images")).length).toBe(imagesBefore + 2);

    const cafe = (await product("cafe-importado"))!;
    expect(cafe).toMatchObject({ name: "Café importado, 250 g", price_aoa: 4200, stock: 12 });
    const gallery = await galleryOf("cafe-importado");
    expect(gallery.map((image) => image.alt)).toEqual(["Pacote vermelho", "Pacote azul"]);
    expect(gallery[0]!.path).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
    expect(cafe.image_path).toBe(gallery[0]!.path);
    expect((await galleryOf("cha-importado"))[0]!.path).toBe(gallery[0]!.path);
    // Matched by name whatever the case and accents; "Ofertas" is new.
    expect(await categoriesOf("cafe-importado")).toEqual(["cafe-e-petiscos", "ofertas"]);
    expect(await categoriesOf("cha-importado")).toEqual(["cafe-e-petiscos", "ofertas"]);
    expect(await adjustmentsOf("cafe-importado")).toEqual([
      { kind: "initial", delta: 12, stock_after: 12, reason: "CSV import" },
    ]);
    expect(await adjustmentsOf("cha-importado")).toEqual([]);

    // The existing product: its fields and stock; its gallery and categories kept (empty cells).
    expect(await product("ginguba-torrada-500g")).toMatchObject({ price_aoa: 2600, stock: 50 });
    expect(await adjustmentsOf("ginguba-torrada-500g")).toEqual([
      { kind: "edit", delta: 50 - ginguba.stock, stock_after: 50, reason: "CSV import" },
    ]);
    expect(await galleryOf("ginguba-torrada-500g")).toHaveLength(1);
    expect(await categoriesOf("ginguba-torrada-500g")).toEqual(["cafe-e-petiscos"]);

    const before = await snapshot();
    const second = ok(await runImport(CSV));
    expect(second.summary).toMatchObject({
      rows: 3,
      created: 0,
      updated: 0,
      unchanged: 3,
      categoriesCreated: 0,
      imagesStored: 0,
    });
    expect(await snapshot()).toEqual(before);
    expect(ok(await runImport(CSV, { dryRun: true })).summary).toMatchObject({ unchanged: 3, imagesStored: 0 });
  });

  it("sets the stock asked for against the stock as it is when it runs", async () => {
    const { id } = (await product("ginguba-torrada-500g"))!;
    // A checkout took 3 units since the file was written.
    await sql("UPDATE products SET stock = stock - 3 WHERE id = $1", [id]);
    ok(await runImport(CSV));
    expect((await product("ginguba-torrada-500g"))!.stock).toBe(50);
    expect((await adjustmentsOf("ginguba-torrada-500g")).at(-1)).toEqual({
      kind: "edit",
      delta: 3,
      stock_after: 50,
      reason: "CSV import",
    });
  });

  it("with one bad line writes nothing at all", async () => {
    const before = await snapshot();
    const csv = [
      HEADER,
      "outro-novo,Outro novo,Texto.,100,5,Categoria Que Não Existe,red.png,Vermelho",
      "ginguba-torrada-500g,Ginguba,Amendoim.,1,1,,,",
      "mau,Mau,Texto.,0,1,,red.png,Vermelho",
    ].join("\n");
    expect(invalid(await runImport(csv))).toEqual([{ line: 4, column: "price_aoa", code: "below_min" }]);
    expect(await snapshot()).toEqual(before);
  });

  it("reads a BOM and semicolons (Excel in pt-AO), and a quoted cell with both separators", async () => {
    // Excel also writes a stray empty column, and empty rows as separators only.
    const csv =
      `\uFEFF${HEADER.replaceAll(",", ";")};\r\n` +
      `excel-pt;"Vinho; tinto, 75 cl";Texto.;3000;4;Ofertas;red.png;Garrafa;\r\n;;;;;;;;\r\n`;
    ok(await runImport(csv));
    expect(await product("excel-pt")).toMatchObject({ name: "Vinho; tinto, 75 cl", price_aoa: 3000, stock: 4 });
  });

  it("refuses a file that is not UTF-8, a header it does not know, and too many columns", async () => {
    const latin1 = Uint8Array.from([
      ...new TextEncoder().encode(`${HEADER}\nx,`),
      0xe9,
      ...new TextEncoder().encode(",t,1,1,,,\n"),
    ]);
    expect(invalid(await runImport(latin1))).toEqual([{ line: 2, column: null, code: "not_utf8" }]);
    expect(invalid(await runImport("slug,name,price,stock\nx,y,1,1\n"))).toEqual([
      { line: 1, column: "description", code: "missing_column" },
      { line: 1, column: "price_aoa", code: "missing_column" },
      { line: 1, column: "price", code: "unknown_column" },
    ]);
    expect(invalid(await runImport(""))).toEqual([{ line: 1, column: null, code: "empty_file" }]);
    // PostgreSQL's text cannot hold a NUL: refused before the database sees it.
    expect(invalid(await runImport(`${HEADER}\nnul,Na\u0000me,Texto.,1,1,,/products/x.svg,x\n`))).toEqual([
      { line: 2, column: null, code: "nul_character" },
    ]);
    expect(invalid(await runImport(`${HEADER}\n${"x,y,z,1,1,,,\n".repeat(20_001)}`))).toEqual([
      { line: 20_002, column: null, code: "too_many_rows" },
    ]);
    expect(invalid(await runImport(`${HEADER}\n"aberto,x\n`))).toEqual([{ line: 2, column: null, code: "malformed" }]);
  });
});

describe("categories by path", () => {
  it("creates what is missing, a sub-category whose slug is taken as <parent>-<child>, and refuses a third level", async () => {
    // "Café e petiscos" exists under Mercearia (slug cafe-e-petiscos): under Bebidas it is new.
    const csv = [
      HEADER,
      "sumo-de-mucua,Sumo de múcua,Texto.,900,3,Bebidas > Café e petiscos|Bebidas > Sumos,red.png,Garrafa",
    ].join("\n");
    const result = ok(await runImport(csv));
    expect(result.summary.categoriesCreated).toBe(3);
    const rows = await sql<{ slug: string; name: string; parent: string | null }>(
      `SELECT c.slug, c.name, p.slug AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id
       WHERE c.slug IN ('bebidas', 'bebidas-cafe-e-petiscos', 'sumos')`,
    );
    expect(rows.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
      { slug: "bebidas", name: "Bebidas", parent: null },
      { slug: "bebidas-cafe-e-petiscos", name: "Café e petiscos", parent: "bebidas" },
      { slug: "sumos", name: "Sumos", parent: "bebidas" },
    ]);
    const deeper = [HEADER, "x-fundo,X,Texto.,1,1,Bebidas > Sumos > Naturais|Sumos > Naturais,red.png,a"].join("\n");
    expect(invalid(await runImport(deeper))).toEqual([
      { line: 2, column: "categories", code: "category_too_deep" },
      { line: 2, column: "categories", code: "category_too_deep" },
    ]);
  });
});

describe("two imports at once", () => {
  it("that create the same category: each is imported or told to import again, and the category exists once", async () => {
    const csv = (slug: string) =>
      [HEADER, `${slug},${slug},Texto.,100,1,Feira Paralela,/products/mel-do-huambo-500g.svg,Frasco`].join("\n");
    const files = [csv("paralelo-a"), csv("paralelo-b")];
    const results = await Promise.all(files.map((file) => runImport(file, { files: false })));
    for (const [index, result] of results.entries()) {
      if ("conflict" in result) {
        expect(result.message).toMatch(/nothing was written/);
        ok(await runImport(files[index]!, { files: false }));
      } else ok(result);
    }
    expect(await sql("SELECT id FROM categories WHERE name = 'Feira Paralela'")).toHaveLength(1);
    expect(await categoriesOf("paralelo-a")).toEqual(["feira-paralela"]);
    expect(await categoriesOf("paralelo-b")).toEqual(["feira-paralela"]);
  });
});

describe("the export", () => {
  it("reads back into the same shop without a change, formulas escaped and unescaped", async () => {
    await sql("UPDATE products SET name = '=HYPERLINK(\"x\")' WHERE slug = 'excel-pt'");
    await sql("UPDATE products SET archived_at = CURRENT_TIMESTAMP WHERE slug = 'kissange-tradicional'");
    const response = await exportRoute();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith(`\uFEFF${EXPORT_HEADER}\r\n`)).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('cafe-de-angola-torrado-1kg,"Café de Angola torrado, 1 kg",');
    expect(text).toContain("/products/cafe-de-angola-torrado-1kg.svg|/products/cafe-de-angola-torrado-1kg-graos.svg");
    const count = Number((await sql<{ n: string }>("SELECT count(*) AS n FROM products"))[0]!.n);
    // One line per active variant: the demo's products with options have several.
    const lines = Number(
      (await sql<{ n: string }>("SELECT count(*) AS n FROM product_variants WHERE archived_at IS NULL"))[0]!.n,
    );
    expect(lines).toBeGreaterThan(count);
    expect(parse(text, { bom: true })).toHaveLength(lines + 1);

    const before = await snapshot();
    const result = ok(await runImport(bytes, { files: false }));
    expect(result.summary).toMatchObject({ rows: lines, created: 0, updated: 0, unchanged: count, archived: 1 });
    expect(await snapshot()).toEqual(before);

    const semicolons = await exportRoute("?delimiter=semicolon");
    const excel = new Uint8Array(await semicolons.arrayBuffer());
    expect(new TextDecoder().decode(excel).split("\r\n")[0]).toBe(EXPORT_HEADER.replaceAll(",", ";"));
    expect(ok(await runImport(excel, { files: false })).summary.unchanged).toBe(count);
  });
});

async function exportRoute(query = "", caller: AdminCaller = {}) {
  const { GET } = await import("@/app/api/admin/catalogue/export/route");
  return GET(await adminRequest(`/api/admin/catalogue/export${query}`, { method: "GET", ...caller }));
}

async function importRoute(query: string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/catalogue/import/route");
  return POST(await adminRequest(`/api/admin/catalogue/import${query}`, caller));
}

/** A multipart form of the page: the CSV as `file`, and its other fields. */
async function formPost(query: string, csv: string, fields: Record<string, string> = {}, accept?: string) {
  const { POST } = await import("@/app/api/admin/catalogue/import/route");
  const request = await adminRequest(`/api/admin/catalogue/import${query}`, accept ? { accept } : {});
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new File([csv], "catalogue.csv", { type: "text/csv" }));
  const { NextRequest } = await import("next/server");
  return POST(
    new NextRequest(request.url, { method: "POST", headers: withoutContentType(request.headers), body: form }),
  );
}
const withoutContentType = (headers: Headers) => {
  const copy = new Headers(headers);
  copy.delete("content-type");
  return copy;
};

describe("the routes", () => {
  const GOOD = [HEADER, "pela-api,Pela API,Texto.,700,2,Ofertas,/products/mel-do-huambo-500g.svg,Frasco"].join("\n");
  const csvBody = (body: string) => ({ raw: { body, contentType: "text/csv; charset=utf-8" } });

  it("refuse without a session (401) and from another site (403)", async () => {
    expect((await importRoute("?dryRun=1", { session: false, ...csvBody(GOOD) })).status).toBe(401);
    expect((await exportRoute("", { session: false })).status).toBe(401);
    const crossSite = await importRoute("", { crossSite: true, ...csvBody(GOOD) });
    expect(crossSite.status).toBe(403);
    expect(await product("pela-api")).toBeUndefined();
  });

  it("answer JSON: a dry run, the problems (400, nothing written), then the import", async () => {
    const dry = await importRoute("?dryRun=1", csvBody(GOOD));
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ ok: true, dryRun: true, summary: { created: 1 }, problems: [] });
    expect(await product("pela-api")).toBeUndefined();

    const bad = await importRoute("", csvBody(`${GOOD}\nmau,Mau,Texto.,8.500,1,,,`));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      ok: false,
      dryRun: false,
      problems: [{ line: 3, column: "price_aoa", code: "not_kwanza" }],
    });
    expect(await product("pela-api")).toBeUndefined();

    const applied = await importRoute("", csvBody(GOOD));
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ ok: true, dryRun: false, summary: { created: 1 } });
    expect(await product("pela-api")).toMatchObject({ price_aoa: 700, image_path: "/products/mel-do-huambo-500g.svg" });
  });

  it("answer 4xx JSON, never 500, to bodies they cannot use", async () => {
    const cases: [AdminCaller, number, string][] = [
      [{ json: { csv: GOOD } }, 415, "unsupported_media_type"],
      [
        { raw: { body: GOOD, contentType: "multipart/form-data; boundary=x" }, accept: "application/json" },
        400,
        "unreadable",
      ],
      [{ multipart: { fields: {} }, accept: "application/json" }, 400, "file_required"],
      [{ raw: { body: "x".repeat(21 * 1024 * 1024), contentType: "text/csv" } }, 413, "file_too_large"],
    ];
    for (const [caller, status, code] of cases) {
      const response = await importRoute("?dryRun=1", caller);
      expect(response.status, code).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code } });
    }
    const bodies = ["", "\u0000\u0001", 'slug\n"', `${HEADER}\n${"x,".repeat(5000)}`, `${HEADER}\na,b\u0000,c,1,1,,,`];
    for (const body of bodies) {
      const response = await importRoute("?dryRun=1", csvBody(body));
      expect(response.status, JSON.stringify(body.slice(0, 20))).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false });
    }
  });

  it("answer the page's form with a redirect: the problems, then the summary, then the import of the checked file", async () => {
    const bad = await formPost("?dryRun=1", `${GOOD.replace("pela-api", "pelo-form")}\nmau,Mau,Texto.,1,1,,foto.png,a`);
    expect(bad.status).toBe(303);
    const badUrl = new URL(bad.headers.get("location")!, "http://shop");
    expect(badUrl.pathname).toBe("/admin/catalogue");
    expect(badUrl.searchParams.get("outcome")).toBe("invalid");
    expect(badUrl.searchParams.getAll("p").map((p) => JSON.parse(p))).toEqual([
      [3, "images", "image_file_not_allowed", "foto.png"],
    ]);

    const form = GOOD.replace("pela-api", "pelo-form");
    const checked = await formPost("?dryRun=1", form);
    const checkedUrl = new URL(checked.headers.get("location")!, "http://shop");
    expect(Object.fromEntries(checkedUrl.searchParams)).toMatchObject({ outcome: "checked", created: "1" });
    const hash = checkedUrl.searchParams.get("checked")!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await product("pelo-form")).toBeUndefined();

    const other = await formPost("", form.replace("700", "701"), { checked: hash });
    expect(new URL(other.headers.get("location")!, "http://shop").searchParams.get("error")).toBe("not_checked");
    expect(await product("pelo-form")).toBeUndefined();

    const applied = await formPost("", form, { checked: hash });
    const appliedUrl = new URL(applied.headers.get("location")!, "http://shop");
    expect(Object.fromEntries(appliedUrl.searchParams)).toMatchObject({ outcome: "applied", created: "1" });
    expect(await product("pelo-form")).toMatchObject({ price_aoa: 700 });
  });
});
