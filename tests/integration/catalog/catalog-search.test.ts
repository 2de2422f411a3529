import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { DEMO_CATEGORIES, DEMO_PRODUCTS, seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import type { BrowseResult } from "@/lib/catalog/browse";
import type { BrowseQuery, Sort } from "@/lib/catalog/browse-query";

// Search, sort, filters and pages (lib/catalog/browse.ts, GET /api/search, GET /api/categories)
// against a real database of this file's own: the demo catalogue plus products written here.

let database: TestDatabase;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };

/** 60 products of this file, three prices only, so every sort has ties the id must break. */
const EXTRA = Array.from({ length: 60 }, (_, i) => ({
  slug: `artigo-de-teste-${String(i).padStart(2, "0")}`,
  name: `Artigo de teste ${String(i).padStart(2, "0")}`,
  price: [1000, 2000, 3000][i % 3]!,
  stock: i % 4 === 0 ? 0 : 3,
}));

const sql = (text: string, values: unknown[] = []) =>
  withPgClient(database.url, (client) => client.query(text, values));

beforeAll(async () => {
  database = await createTestDatabase("search");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  await sql(
    `INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
     VALUES ('acucar-branco-1kg', 'Açúcar branco, 1 kg', 'Açúcar de cana refinado.', '/products/x.svg', 1200, 10),
            ('chocolate-negro-70', 'Chocolate negro 70%', 'Tablete de cacau de São Tomé.', '/products/x.svg', 2200, 4)`,
  );
  await sql(
    `INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])`,
    [
      EXTRA.map((p) => p.slug),
      EXTRA.map((p) => p.name),
      EXTRA.map(() => "Um artigo para contar páginas."),
      EXTRA.map(() => "/products/x.svg"),
      EXTRA.map((p) => p.price),
      EXTRA.map((p) => p.stock),
    ],
  );
  // The café is in its sub-category and, twice over, in the top-level one: listed once.
  await sql(`INSERT INTO product_categories (product_id, category_id)
             SELECT p.id, c.id FROM products p, categories c WHERE p.slug = 'cafe-de-angola-torrado-1kg' AND c.slug = 'mercearia'`);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
});

async function browse(query: Partial<BrowseQuery>): Promise<BrowseResult> {
  const { browseProducts } = await import("@/lib/catalog/browse");
  const { db } = await import("@/lib/db/client");
  const result = await browseProducts(db(), { sort: "name", inStock: false, page: 1, ...query });
  if (!result) throw new Error("unknown category");
  return result;
}

const slugs = (result: BrowseResult) => result.items.map((item) => item.slug);
const ALL = DEMO_PRODUCTS.length + 2 + EXTRA.length;

describe("search", () => {
  it.each([
    ["cafe", "cafe-de-angola-torrado-1kg"],
    ["CAFÉ", "cafe-de-angola-torrado-1kg"],
    ["acucar", "acucar-branco-1kg"],
    ["mascara", "mascara-mwana-pwo"],
    // Stems: the name says "torrado", the shopper "torrada".
    ["ginguba torrada", "ginguba-torrada-500g"],
    // A word of the description only.
    ["embondeiro", "doce-de-mucua-350g"],
    // The beginning of a word.
    ["choc", "chocolate-negro-70"],
  ])("%j finds %s first, without accents or case mattering", async (q, slug) => {
    const result = await browse({ q, sort: "relevance" });
    expect(slugs(result)[0], JSON.stringify(slugs(result))).toBe(slug);
  });

  it.each([
    ["cafee", "cafe-de-angola-torrado-1kg"],
    ["chocolat", "chocolate-negro-70"],
    ["maskara", "mascara-mwana-pwo"],
    ["kisange", "kissange-tradicional"],
  ])("forgives the typo %j", async (q, slug) => {
    expect(slugs(await browse({ q, sort: "relevance" }))).toContain(slug);
  });

  it("finds the products of a category by the category's name", async () => {
    const result = await browse({ q: "artesanato", sort: "relevance" });
    const artesanato = DEMO_CATEGORIES.find((c) => c.slug === "artesanato")!;
    expect(slugs(result).sort()).toEqual([...artesanato.products].sort());
  });

  it("matches nothing for words no product has, and says so with a total of 0", async () => {
    const result = await browse({ q: "frigorífico", sort: "relevance" });
    expect(result).toMatchObject({ items: [], total: 0, page: 1 });
  });

  it("takes operators and punctuation as plain text", async () => {
    for (const q of ["café & | ! ( ) :*", "'; DROP TABLE products; --", "<>", "%", "\\"]) {
      await expect(browse({ q, sort: "relevance" })).resolves.toMatchObject({ page: 1 });
    }
    expect((await browse({})).total).toBe(ALL);
  });
});

describe("sort and pages", () => {
  const keyOf: Record<Exclude<Sort, "relevance">, (p: { priceAoa: number; name: string }) => number | string> = {
    newest: () => 0,
    price_asc: (p) => p.priceAoa,
    price_desc: (p) => -p.priceAoa,
    name: (p) => p.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(),
  };

  it.each(["newest", "price_asc", "price_desc", "name"] as const)(
    "%s: the pages of 24 show every product exactly once, in order",
    async (sort) => {
      const seen: { id: string; priceAoa: number; name: string }[] = [];
      const first = await browse({ sort });
      expect(first.total).toBe(ALL);
      expect(first.pageSize).toBe(24);
      for (let page = 1; page <= Math.ceil(first.total / 24); page++) {
        const result = page === 1 ? first : await browse({ sort, page });
        expect(result.items.length).toBe(Math.min(24, ALL - (page - 1) * 24));
        seen.push(...result.items);
      }
      expect(new Set(seen.map((p) => p.id)).size).toBe(ALL);
      const keys = seen.map(keyOf[sort]);
      for (let i = 1; i < keys.length; i++) expect(keys[i]! >= keys[i - 1]!, `${sort} at ${i}`).toBe(true);
      // Past the last page: nothing, with the total still known.
      expect(await browse({ sort, page: Math.ceil(ALL / 24) + 1 })).toMatchObject({ items: [], total: ALL });
    },
  );

  it("newest first: a product written later comes before the others", async () => {
    await sql(`UPDATE products SET created_at = now() + interval '1 minute' WHERE slug = 'chocolate-negro-70'`);
    expect(slugs(await browse({ sort: "newest" }))[0]).toBe("chocolate-negro-70");
  });

  it("relevance with a search pages without repeats too", async () => {
    const all = await browse({ q: "artigo teste", sort: "relevance" });
    expect(all.total).toBe(EXTRA.length);
    const ids = [
      ...all.items,
      ...(await browse({ q: "artigo teste", sort: "relevance", page: 2 })).items,
      ...(await browse({ q: "artigo teste", sort: "relevance", page: 3 })).items,
    ].map((p) => p.id);
    expect(new Set(ids).size).toBe(EXTRA.length);
  });
});

describe("filters and categories", () => {
  it("keeps prices within minPrice and maxPrice, both included", async () => {
    const result = await browse({ minPrice: 2000, maxPrice: 3000, sort: "price_asc", page: 1 });
    const expected = [...DEMO_PRODUCTS.map((p) => p.priceAoa), 1200, 2200, ...EXTRA.map((p) => p.price)].filter(
      (price) => price >= 2000 && price <= 3000,
    ).length;
    expect(result.total).toBe(expected);
    expect(result.items.every((p) => p.priceAoa >= 2000 && p.priceAoa <= 3000)).toBe(true);
  });

  it("in stock only leaves sold-out products out", async () => {
    const result = await browse({ q: "artigo teste", sort: "relevance", inStock: true });
    expect(result.total).toBe(EXTRA.filter((p) => p.stock > 0).length);
  });

  it("a top-level category lists its sub-categories' products, each once; a sub-category its own", async () => {
    const mercearia = DEMO_CATEGORIES.filter((c) => c.parent === "mercearia").flatMap((c) => c.products);
    const top = await browse({ category: "mercearia" });
    expect(slugs(top).sort()).toEqual([...mercearia].sort());
    expect(top.total).toBe(mercearia.length);
    const child = await browse({ category: "doces-e-mel" });
    expect(slugs(child).sort()).toEqual(["doce-de-mucua-350g", "mel-do-huambo-500g"]);
  });

  it("combines a category, a search and a filter", async () => {
    // "mel" is the honey's name and a word of its sub-category's ("Doces e mel"): the name ranks first.
    const result = await browse({ category: "mercearia", q: "mel", sort: "relevance", maxPrice: 5000 });
    expect(slugs(result)).toEqual(["mel-do-huambo-500g", "doce-de-mucua-350g"]);
    expect(slugs(await browse({ category: "mercearia", q: "mel", sort: "relevance", maxPrice: 4000 }))).toEqual([
      "doce-de-mucua-350g",
    ]);
  });

  it("answers null for a category that does not exist", async () => {
    const { browseProducts } = await import("@/lib/catalog/browse");
    const { db } = await import("@/lib/db/client");
    expect(await browseProducts(db(), { category: "nada", sort: "name", inStock: false, page: 1 })).toBeNull();
  });

  it("leaves archived products out", async () => {
    await sql(`UPDATE products SET archived_at = now() WHERE slug = 'acucar-branco-1kg'`);
    try {
      expect(slugs(await browse({ q: "acucar", sort: "relevance" }))).toEqual([]);
    } finally {
      await sql(`UPDATE products SET archived_at = NULL WHERE slug = 'acucar-branco-1kg'`);
    }
  });

  it("the database refuses a third level of categories", async () => {
    await expect(
      sql(
        `INSERT INTO categories (slug, name, parent_id) SELECT 'terceiro', 'Terceiro', id FROM categories WHERE slug = 'doces-e-mel'`,
      ),
    ).rejects.toMatchObject({ code: "23514" });
    await expect(
      sql(`UPDATE categories SET parent_id = (SELECT id FROM categories WHERE slug = 'moda') WHERE slug = 'mercearia'`),
    ).rejects.toMatchObject({ code: "23514" });
  });
});

describe("GET /api/search and GET /api/categories", () => {
  const search = async (query: string) => {
    const { GET } = await import("@/app/api/search/route");
    return GET(new NextRequest(`http://localhost/api/search${query}`));
  };

  it("answers a page as { items, total, page, pageSize } with the fields a client needs", async () => {
    const response = await search("?q=cafe&sort=relevance");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Record<string, unknown>[]; total: number };
    expect(Object.keys(body).sort()).toEqual(["facets", "items", "page", "pageSize", "total"]);
    expect(Object.keys(body.items[0]!).sort()).toEqual([
      "hasOptions",
      "id",
      "image",
      "name",
      "priceAoa",
      "pricesVary",
      "slug",
      "stock",
    ]);
    expect(body.items[0]).toMatchObject({ slug: "cafe-de-angola-torrado-1kg", priceAoa: 8500 });
  });

  it.each([
    "?sort=cheapest",
    "?page=0",
    "?page=abc",
    "?page=10000",
    "?minPrice=-1",
    "?minPrice=12.5",
    "?minPrice=5000&maxPrice=100",
    "?inStock=maybe",
    "?category=Not%20A%20Slug",
    `?q=${"a".repeat(101)}`,
    "?q=caf%00e",
  ])("refuses %s with a 400 naming the parameter, never a 500", async (query) => {
    const response = await search(query);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_query");
    const name = /^\?([a-zA-Z]+)=/.exec(query)![1]!;
    expect(body.error.message).toContain(name);
  });

  it("answers 404 for an unknown category", async () => {
    const response = await search("?category=nao-existe");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "category_not_found" } });
  });

  it("GET /api/categories answers the tree in order", async () => {
    const { GET } = await import("@/app/api/categories/route");
    const tree = (await (await GET()).json()) as { slug: string; children: { slug: string }[] }[];
    const tops = DEMO_CATEGORIES.filter((c) => !c.parent).sort((a, b) => a.position - b.position);
    expect(tree.map((c) => c.slug)).toEqual(tops.map((c) => c.slug));
    expect(tree[0]!.children.map((c) => c.slug)).toEqual(
      DEMO_CATEGORIES.filter((c) => c.parent === tops[0]!.slug).map((c) => c.slug),
    );
  });
});

describe("reading a page's URL", () => {
  it("drops each bad parameter on its own and keeps the rest", async () => {
    const { readBrowseParams, parseBrowseParams } = await import("@/lib/catalog/browse-query");
    expect(readBrowseParams({ q: "café", sort: "bogus", page: "2", minPrice: "x", inStock: "1" })).toEqual({
      q: "café",
      sort: "relevance",
      page: 2,
      inStock: true,
    });
    expect(readBrowseParams({ sort: "relevance" })).toMatchObject({ sort: "name" });
    expect(parseBrowseParams(new URLSearchParams("q=%20%20&page=3"))).toEqual({
      ok: true,
      query: { sort: "name", inStock: false, page: 3 },
    });
  });
});

describe("products with options", () => {
  // A category of this block's own: the T-shirts with options and a bag without.
  const CATEGORY = "roupa-de-teste";
  const ids: Record<string, string> = {};

  /** A product with options, written as the back office does: the default variant becomes the first combination. */
  async function productWithOptions(
    slug: string,
    options: { name: string; values: string[] }[],
    variants: { options: Record<string, string>; priceAoa: number; stock: number; sku?: string }[],
  ) {
    const { db } = await import("@/lib/db/client");
    const [first, ...others] = variants;
    const product = await db().product.create({
      data: {
        slug,
        name: `Produto ${slug}`,
        description: "Um artigo com opções.",
        imagePath: "/products/x.svg",
        priceAoa: first!.priceAoa,
        stock: first!.stock,
      },
    });
    await db().productOption.createMany({
      data: options.map((option, i) => ({ productId: product.id, position: i + 1, ...option })),
    });
    await db().productVariant.updateMany({
      where: { productId: product.id },
      data: { options: first!.options, sku: first!.sku ?? null },
    });
    await db().productVariant.createMany({
      data: others.map((variant, i) => ({ productId: product.id, position: i + 1, sku: null, ...variant })),
    });
    ids[slug] = product.id;
    return product.id;
  }

  beforeAll(async () => {
    await sql(`INSERT INTO categories (slug, name, position) VALUES ($1, 'Roupa de teste', 99)`, [CATEGORY]);
    // M only in white, G in blue sold out; "Preto" is listed but no variant sells it.
    await productWithOptions(
      "t-shirt-teste-a",
      [
        { name: "Tamanho", values: ["P", "M", "G"] },
        { name: "Cor", values: ["Azul", "Branco", "Preto"] },
      ],
      [
        { options: { Tamanho: "P", Cor: "Azul" }, priceAoa: 4500, stock: 2, sku: "TTA-P-AZUL" },
        { options: { Tamanho: "M", Cor: "Branco" }, priceAoa: 5000, stock: 3 },
        { options: { Tamanho: "G", Cor: "Azul" }, priceAoa: 6000, stock: 0 },
      ],
    );
    await productWithOptions(
      "t-shirt-teste-b",
      [
        { name: "Tamanho", values: ["M", "G"] },
        { name: "Cor", values: ["Azul"] },
      ],
      [
        { options: { Tamanho: "M", Cor: "Azul" }, priceAoa: 7000, stock: 1 },
        { options: { Tamanho: "G", Cor: "Azul" }, priceAoa: 7000, stock: 1 },
      ],
    );
    await sql(
      `INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
       VALUES ('saco-teste-c', 'Saco de teste', 'Sem opções.', '/products/x.svg', 3000, 5)`,
    );
    await sql(
      `INSERT INTO product_categories (product_id, category_id)
       SELECT p.id, c.id FROM products p, categories c
       WHERE p.slug IN ('t-shirt-teste-a', 't-shirt-teste-b', 'saco-teste-c') AND c.slug = $1`,
      [CATEGORY],
    );
  });

  const inCategory = async (query: Partial<BrowseQuery>) =>
    slugs(await browse({ category: CATEGORY, ...query })).sort();

  it("lists each product once at its lowest price, saying whether prices vary and whether it has options", async () => {
    const result = await browse({ category: CATEGORY });
    expect(result.total).toBe(3);
    const bySlug = Object.fromEntries(result.items.map((item) => [item.slug, item]));
    expect(bySlug["t-shirt-teste-a"]).toMatchObject({ priceAoa: 4500, pricesVary: true, hasOptions: true, stock: 5 });
    expect(bySlug["t-shirt-teste-b"]).toMatchObject({ priceAoa: 7000, pricesVary: false, hasOptions: true, stock: 2 });
    expect(bySlug["saco-teste-c"]).toMatchObject({ priceAoa: 3000, pricesVary: false, hasOptions: false });
  });

  it("one variant must match every chosen option: M and Azul is B's, not A's (M in Branco, Azul in P)", async () => {
    expect(
      await inCategory({
        options: [
          { name: "Tamanho", values: ["M"] },
          { name: "Cor", values: ["Azul"] },
        ],
      }),
    ).toEqual(["t-shirt-teste-b"]);
    expect(await inCategory({ options: [{ name: "Cor", values: ["Branco"] }] })).toEqual(["t-shirt-teste-a"]);
  });

  it("values of one option are alternatives", async () => {
    expect(await inCategory({ options: [{ name: "Tamanho", values: ["P", "M"] }] })).toEqual([
      "t-shirt-teste-a",
      "t-shirt-teste-b",
    ]);
    expect(await inCategory({ options: [{ name: "Tamanho", values: ["P"] }] })).toEqual(["t-shirt-teste-a"]);
    expect(await inCategory({ options: [{ name: "Cor", values: ["Preto"] }] })).toEqual([]);
  });

  it("in stock only asks it of the matching variant", async () => {
    // A's G (Azul) is sold out; B's G is not.
    expect(await inCategory({ options: [{ name: "Tamanho", values: ["G"] }] })).toEqual([
      "t-shirt-teste-a",
      "t-shirt-teste-b",
    ]);
    expect(await inCategory({ options: [{ name: "Tamanho", values: ["G"] }], inStock: true })).toEqual([
      "t-shirt-teste-b",
    ]);
  });

  it("in stock only counts the units of a variant kept by a pending order whose hold ran out", async () => {
    const [order] = (
      await sql(
        `INSERT INTO orders (external_transaction_id, amount_aoa, client_id, hold_expires_at)
         VALUES ('order_' || gen_random_uuid(), 6000, 'test-client', now() - interval '1 minute') RETURNING id`,
      )
    ).rows as { id: string }[];
    await sql(
      `INSERT INTO order_lines (order_id, product_id, product_name, variant_id, unit_price_aoa, quantity)
       SELECT $1, v.product_id, 'T-shirt', v.id, v.price_aoa, 1 FROM product_variants v
       WHERE v.product_id = $2 AND v.options = '{"Tamanho": "G", "Cor": "Azul"}'`,
      [order!.id, ids["t-shirt-teste-a"]],
    );
    try {
      expect(await inCategory({ options: [{ name: "Tamanho", values: ["G"] }], inStock: true })).toEqual([
        "t-shirt-teste-a",
        "t-shirt-teste-b",
      ]);
      // Another variant's held units do not make the blue G of A available in P.
      expect(await inCategory({ options: [{ name: "Tamanho", values: ["P"] }], inStock: true })).toEqual([
        "t-shirt-teste-a",
      ]);
    } finally {
      await sql(`DELETE FROM orders WHERE id = $1`, [order!.id]);
    }
  });

  it("a price range matches when some variant's price is within it (the same variant as the options)", async () => {
    expect(await inCategory({ minPrice: 5500, maxPrice: 6500 })).toEqual(["t-shirt-teste-a"]);
    expect(await inCategory({ minPrice: 4000, maxPrice: 4600 })).toEqual(["t-shirt-teste-a"]);
    expect(await inCategory({ minPrice: 2000, maxPrice: 3500 })).toEqual(["saco-teste-c"]);
    expect(await inCategory({ maxPrice: 4800, options: [{ name: "Tamanho", values: ["M"] }] })).toEqual([]);
    expect(await inCategory({ maxPrice: 5000, options: [{ name: "Tamanho", values: ["M"] }] })).toEqual([
      "t-shirt-teste-a",
    ]);
    // The G in blue at 6000 is sold out: in stock only, A has no variant in that range.
    expect(await inCategory({ minPrice: 5500, maxPrice: 6500, inStock: true })).toEqual([]);
  });

  it("an archived variant matches nothing", async () => {
    const { db } = await import("@/lib/db/client");
    const where = { productId: ids["t-shirt-teste-a"]!, priceAoa: 5000 };
    await db().productVariant.updateMany({ where, data: { archivedAt: new Date() } });
    try {
      expect(await inCategory({ options: [{ name: "Cor", values: ["Branco"] }] })).toEqual([]);
    } finally {
      await db().productVariant.updateMany({ where, data: { archivedAt: null } });
    }
  });

  it("facets: the option values the listing's products sell, with how many products, in display order", async () => {
    const { browseFacets } = await import("@/lib/catalog/browse");
    const { db } = await import("@/lib/db/client");
    const facets = await browseFacets(db(), { category: CATEGORY });
    expect(facets).toEqual([
      {
        name: "Tamanho",
        values: [
          { value: "P", count: 1 },
          { value: "M", count: 2 },
          { value: "G", count: 2 },
        ],
      },
      {
        name: "Cor",
        values: [
          { value: "Azul", count: 2 },
          { value: "Branco", count: 1 },
        ],
      },
    ]);
    // A search narrows them (the bag has no options), as does a category without products with options; an unknown category is null.
    expect(await browseFacets(db(), { category: CATEGORY, q: "saco" })).toEqual([]);
    // Each way a search matches reaches the products with options: full text (the description), a
    // typo (pg_trgm alone: `produtp` is no prefix of any word) and the category's name.
    const tShirts = ["t-shirt-teste-a", "t-shirt-teste-b"];
    for (const [q, listed] of [
      ["artigo", tShirts],
      ["produtp", tShirts],
      ["roupa", ["saco-teste-c", ...tShirts]],
    ] as const) {
      expect(slugs(await browse({ category: CATEGORY, q })).sort(), q).toEqual(listed);
      expect(await browseFacets(db(), { category: CATEGORY, q }), q).toEqual(facets);
    }
    expect(await browseFacets(db(), { category: "doces-e-mel" })).toEqual([]);
    expect(await browseFacets(db(), { category: "nao-existe" })).toBeNull();
  });

  it("GET /api/search filters by opt= and answers the facets", async () => {
    const { GET } = await import("@/app/api/search/route");
    const response = await GET(
      new NextRequest(`http://localhost/api/search?category=${CATEGORY}&opt=Tamanho:M&opt=Cor:Azul`),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: { slug: string }[]; total: number; facets: unknown[] };
    expect(body.items.map((item) => item.slug)).toEqual(["t-shirt-teste-b"]);
    expect(body.items[0]).toMatchObject({ priceAoa: 7000, pricesVary: false, hasOptions: true });
    expect(body.facets).toHaveLength(2);
  });

  it.each([
    "?opt=Tamanho",
    "?opt=:M",
    "?opt=Tamanho:",
    `?opt=Tamanho:${"M".repeat(41)}`,
    `?opt=${"T".repeat(41)}:M`,
    "?opt=Tamanho:M%00",
    `?${Array.from({ length: 11 }, (_, i) => `opt=Tamanho:${i}`).join("&")}`,
  ])("GET /api/search refuses %s with a 400 naming opt", async (query) => {
    const { GET } = await import("@/app/api/search/route");
    const response = await GET(new NextRequest(`http://localhost/api/search${query}`));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "invalid_query" });
    expect(body.error.message).toContain("opt");
  });

  it("a page's URL keeps the good option filters, grouped by option, and drops the bad ones", async () => {
    const { readBrowseParams, browseSearch } = await import("@/lib/catalog/browse-query");
    const query = readBrowseParams(
      new URLSearchParams("opt=Tamanho:M&opt=Cor:Azul&opt=bad&opt=Tamanho:G&opt=Tamanho:M"),
    );
    expect(query.options).toEqual([
      { name: "Tamanho", values: ["M", "G"] },
      { name: "Cor", values: ["Azul"] },
    ]);
    expect(browseSearch(query)).toBe("?opt=Tamanho%3AM&opt=Tamanho%3AG&opt=Cor%3AAzul");
    expect(readBrowseParams({ opt: ["Cor:Azul", "x"] }).options).toEqual([{ name: "Cor", values: ["Azul"] }]);
    expect(readBrowseParams({ opt: "x" }).options).toBeUndefined();
  });

  it("GET /api/products/<slug> answers the product with its options and variants", async () => {
    const { GET } = await import("@/app/api/products/[slug]/route");
    const get = (slug: string) =>
      GET(new Request(`http://localhost/api/products/${slug}`), { params: Promise.resolve({ slug }) });
    const response = await get("t-shirt-teste-a");
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown> & { variants: Record<string, unknown>[] };
    expect(Object.keys(body).sort()).toEqual([
      "description",
      "id",
      "image",
      "name",
      "options",
      "priceAoa",
      "slug",
      "variants",
    ]);
    expect(body).toMatchObject({
      id: ids["t-shirt-teste-a"],
      slug: "t-shirt-teste-a",
      priceAoa: 4500,
      image: "/products/x.svg",
      options: [
        { name: "Tamanho", values: ["P", "M", "G"] },
        { name: "Cor", values: ["Azul", "Branco", "Preto"] },
      ],
    });
    expect(body.variants).toHaveLength(3);
    expect(Object.keys(body.variants[0]!).sort()).toEqual(["id", "image", "options", "priceAoa", "sku", "stock"]);
    expect(body.variants[0]).toMatchObject({
      sku: "TTA-P-AZUL",
      options: { Tamanho: "P", Cor: "Azul" },
      priceAoa: 4500,
      stock: 2,
      image: "/products/x.svg",
    });
    // A product without options: its one variant, options {}.
    const bag = (await (await get("saco-teste-c")).json()) as { options: unknown[]; variants: unknown[] };
    expect(bag.options).toEqual([]);
    expect(bag.variants).toEqual([expect.objectContaining({ options: {}, priceAoa: 3000, stock: 5 })]);
  });

  it("GET /api/products/<slug>: 404 for an unknown or archived product, 400 for a malformed slug", async () => {
    const { GET } = await import("@/app/api/products/[slug]/route");
    const get = (slug: string) =>
      GET(new Request(`http://localhost/api/products/x`), { params: Promise.resolve({ slug }) });
    expect((await get("nao-existe")).status).toBe(404);
    expect(await (await get("nao-existe")).json()).toMatchObject({ error: { code: "product_not_found" } });
    await sql(`UPDATE products SET archived_at = now() WHERE slug = 'saco-teste-c'`);
    try {
      expect((await get("saco-teste-c")).status).toBe(404);
    } finally {
      await sql(`UPDATE products SET archived_at = NULL WHERE slug = 'saco-teste-c'`);
    }
    for (const slug of ["Not A Slug", "a--b", "x".repeat(121), "caf%00e"]) {
      const response = await get(slug);
      expect(response.status, slug).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_slug" } });
    }
  });
});
