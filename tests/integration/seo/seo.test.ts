import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { DEMO_CATEGORIES, DEMO_PRODUCTS, seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The sitemaps (/sitemap/<n>.xml), /robots.txt, a product page's metadata and
// the pages built ahead, and the Open Graph images, as Next calls them, against a database of this
// file's own (other files add products to the suite's database, and this file asserts the whole
// catalogue), with one demo product archived: it is not on sale.

let database: TestDatabase;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };
const [archived, ...onSale] = [...DEMO_PRODUCTS].reverse();
const appUrl = () => process.env.APP_URL!.replace(/\/+$/, "");

beforeAll(async () => {
  database = await createTestDatabase("seo");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
  const { db } = await import("@/lib/db/client");
  await db().product.update({ where: { slug: archived!.slug }, data: { archivedAt: new Date() } });
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
});

describe("sitemap", () => {
  it("lists the catalogue page, every category and every product on sale, not the archived one, under APP_URL", async () => {
    const { default: sitemap, generateSitemaps } = await import("@/app/sitemap");
    expect(await generateSitemaps()).toEqual([{ id: 0 }]);
    const entries = await sitemap({ id: Promise.resolve("0") });
    expect(entries.map((entry) => entry.url).sort()).toEqual(
      [
        `${appUrl()}/`,
        ...DEMO_CATEGORIES.map((category) => `${appUrl()}/categories/${category.slug}`),
        ...onSale.map((product) => `${appUrl()}/products/${product.slug}`),
      ].sort(),
    );
    const { db } = await import("@/lib/db/client");
    const latest = await db().product.aggregate({ where: { archivedAt: null }, _max: { updatedAt: true } });
    expect(entries[0]).toEqual({ url: `${appUrl()}/`, lastModified: latest._max.updatedAt });
    for (const product of onSale) {
      const entry = entries.find((e) => e.url === `${appUrl()}/products/${product.slug}`)!;
      expect(entry.lastModified).toBeInstanceOf(Date);
      expect(entry.images).toEqual([`${appUrl()}${product.imagePath}`]);
    }
    const mercearia = await db().category.findUniqueOrThrow({ where: { slug: "mercearia" } });
    expect(entries.find((e) => e.url === `${appUrl()}/categories/mercearia`)).toEqual({
      url: `${appUrl()}/categories/mercearia`,
      lastModified: mercearia.updatedAt,
    });
  });

  it("split, lists each address once across the sitemaps, in order", async () => {
    const { sitemapCounts, sitemapEntriesOf } = await import("@/lib/seo/sitemap");
    const { sitemapIds } = await import("@/lib/seo/seo");
    const counts = await sitemapCounts();
    expect(counts).toEqual({ categories: DEMO_CATEGORIES.length, products: onSale.length });
    const sitemaps = [];
    for (const { id } of sitemapIds(counts, 4)) sitemaps.push(await sitemapEntriesOf(id, appUrl(), 4));
    expect(sitemaps).toHaveLength(Math.ceil((1 + counts.categories + counts.products) / 4));
    for (const entries of sitemaps.slice(0, -1)) expect(entries).toHaveLength(4);

    const { db } = await import("@/lib/db/client");
    const categories = await db().category.findMany({ select: { slug: true }, orderBy: { slug: "asc" } });
    const products = await db().product.findMany({
      where: { archivedAt: null },
      select: { slug: true },
      orderBy: { slug: "asc" },
    });
    expect(sitemaps.flat().map((entry) => entry.url)).toEqual([
      `${appUrl()}/`,
      ...categories.map((c) => `${appUrl()}/categories/${c.slug}`),
      ...products.map((p) => `${appUrl()}/products/${p.slug}`),
    ]);
  });

  it("reads a stretch of the products in batches, each after the last slug of the one before", async () => {
    const { productBatches } = await import("@/lib/seo/sitemap");
    const batches: string[][] = [];
    for await (const batch of productBatches({ skip: 2, take: 7 }, 3)) batches.push(batch.map((p) => p.slug));
    const { db } = await import("@/lib/db/client");
    const slugs = (
      await db().product.findMany({ where: { archivedAt: null }, select: { slug: true }, orderBy: { slug: "asc" } })
    ).map((p) => p.slug);
    expect(batches).toEqual([slugs.slice(2, 5), slugs.slice(5, 8), slugs.slice(8, 9)]);
    const past: string[][] = [];
    for await (const batch of productBatches({ skip: slugs.length - 1, take: 5 }, 3))
      past.push(batch.map((p) => p.slug));
    expect(past).toEqual([slugs.slice(-1)]);
  });
});

describe("the sitemap index, /sitemap.xml", () => {
  it("names every split sitemap, under APP_URL, as XML a crawler reads first", async () => {
    const { GET } = await import("@/app/sitemap_index.xml/route");
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    expect([...xml.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((match) => match[1])).toEqual([
      `${appUrl()}/sitemap/0.xml`,
    ]);
  });

  it("lists as many sitemaps as robots.txt names when the catalogue is split", async () => {
    const { sitemapIndexXml, sitemapIds } = await import("@/lib/seo/seo");
    const { sitemapCounts } = await import("@/lib/seo/sitemap");
    const ids = sitemapIds(await sitemapCounts(), 4);
    expect(ids.length).toBeGreaterThan(1);
    const xml = sitemapIndexXml("https://loja.example.ao/", ids);
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual(
      ids.map(({ id }) => `https://loja.example.ao/sitemap/${id}.xml`),
    );
  });
});

describe("robots", () => {
  it("keeps crawlers out of the back office, API, cart, checkout and orders, and names the sitemaps", async () => {
    const { default: robots } = await import("@/app/robots");
    const result = await robots();
    expect(result.sitemap).toEqual([`${appUrl()}/sitemap/0.xml`]);
    const rules = [result.rules].flat();
    expect(rules).toHaveLength(1);
    expect(rules[0]!.disallow).toEqual(["/admin", "/api", "/checkout", "/cart", "/orders", "/account"]);
  });
});

describe("a product page's metadata", () => {
  it("has the product's title, description and canonical URL, absolute, and leaves the image to opengraph-image.tsx", async () => {
    const { generateMetadata } = await import("@/app/[lang]/(shop)/products/[slug]/page");
    const product = onSale[0]!;
    const metadata = await generateMetadata({
      params: Promise.resolve({ lang: "pt", slug: product.slug }),
    });
    const url = `${appUrl()}/products/${product.slug}`;
    expect(metadata).toMatchObject({
      title: product.name,
      description: product.description,
      alternates: { canonical: url },
      openGraph: { url },
    });
    expect(metadata.openGraph).not.toHaveProperty("images");
  });

  it("is empty for an archived product, whose page is not found", async () => {
    const { generateMetadata } = await import("@/app/[lang]/(shop)/products/[slug]/page");
    const metadata = await generateMetadata({
      params: Promise.resolve({ lang: "pt", slug: archived!.slug }),
    });
    expect(metadata).toEqual({});
  });
});

/** The PNG's width and height, from its IHDR chunk. */
async function pngSize(response: Response): Promise<{ width: number; height: number }> {
  const png = Buffer.from(await response.arrayBuffer());
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** What notFound() throws: Next answers 404. */
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

/** A 404 the route returns (Next caches a thrown notFound() for good). */
const notFoundAnswer = async (response: Promise<Response>) => expect((await response).status).toBe(404);

describe("the Open Graph images", () => {
  it("of a product is a 1200×630 PNG, cached like its page", async () => {
    const image = await import("@/app/[lang]/(shop)/products/[slug]/opengraph-image");
    expect(image).toMatchObject({ size: { width: 1200, height: 630 }, contentType: "image/png", revalidate: 30 });
    expect(image.alt).toBeTruthy();
    const response = await image.default({ params: Promise.resolve({ lang: "pt", slug: onSale[0]!.slug }) });
    expect(response.headers.get("content-type")).toBe("image/png");
    // Next writes it from `revalidate`, as for the page.
    expect(response.headers.get("cache-control")).toBeNull();
    expect(await pngSize(response)).toEqual({ width: 1200, height: 630 });
  });

  it("of a product not on sale, or of no product, is not found", async () => {
    const { default: image } = await import("@/app/[lang]/(shop)/products/[slug]/opengraph-image");
    for (const slug of [archived!.slug, "nao-existe", "../x"])
      await notFoundAnswer(image({ params: Promise.resolve({ lang: "pt", slug }) }));
    // No page of the shop either (next.config.mjs never sends a public address there).
    await expect(image({ params: Promise.resolve({ lang: "xx", slug: onSale[0]!.slug }) })).rejects.toMatchObject(
      NOT_FOUND,
    );
  });

  it("of a category is a 1200×630 PNG; an unknown category's is not found", async () => {
    const image = await import("@/app/[lang]/(shop)/categories/[slug]/opengraph-image");
    expect(image).toMatchObject({ size: { width: 1200, height: 630 }, contentType: "image/png", revalidate: 30 });
    for (const slug of ["mercearia", "cafe-e-petiscos"]) {
      const response = await image.default({ params: Promise.resolve({ lang: "en", slug }) });
      expect(await pngSize(response), slug).toEqual({ width: 1200, height: 630 });
    }
    await notFoundAnswer(image.default({ params: Promise.resolve({ lang: "pt", slug: "nao-existe" }) }));
  });

  it("are not rendered at build: only link previews ask for them", async () => {
    for (const module of [
      await import("@/app/[lang]/(shop)/products/[slug]/opengraph-image"),
      await import("@/app/[lang]/(shop)/categories/[slug]/opengraph-image"),
    ])
      expect(module.generateStaticParams()).toEqual([]);
  });
});

describe("the category count an Open Graph image shows", () => {
  it("is the products on sale of the category and its sub-categories, each once", async () => {
    const { countProductsOnSaleIn, findCategoryBySlug } = await import("@/lib/catalog/categories");
    const { db } = await import("@/lib/db/client");
    const found = (await findCategoryBySlug(db(), "mercearia"))!;
    const ids = [found.category.id, ...found.children.map((child) => child.id)];
    const expected = new Set(
      DEMO_CATEGORIES.filter((c) => c.slug === "mercearia" || c.parent === "mercearia")
        .flatMap((c) => c.products)
        .filter((slug) => slug !== archived!.slug),
    );
    expect(await countProductsOnSaleIn(db(), ids)).toBe(expected.size);
    // A product in two of them counts once.
    const [first] = found.children;
    const other = await db().product.findFirstOrThrow({
      where: { archivedAt: null, categories: { some: { categoryId: found.children[1]!.id } } },
    });
    await db().productCategory.create({ data: { productId: other.id, categoryId: first!.id } });
    expect(await countProductsOnSaleIn(db(), ids)).toBe(expected.size);
    await db().productCategory.delete({
      where: { productId_categoryId: { productId: other.id, categoryId: first!.id } },
    });
  });
});

// Last: it adds products.
describe("the product pages built ahead", () => {
  it("are every product on sale in each language, when there are at most PRERENDERED_PRODUCTS", async () => {
    const { generateStaticParams } = await import("@/app/[lang]/(shop)/products/[slug]/page");
    const params = await generateStaticParams();
    expect(params.map((p) => `${p.lang}/${p.slug}`).sort()).toEqual(
      ["pt", "en"].flatMap((lang) => onSale.map((product) => `${lang}/${product.slug}`)).sort(),
    );
  });

  it("are the PRERENDERED_PRODUCTS changed last, in each language, in a larger catalogue", async () => {
    const { PRERENDERED_PRODUCTS } = await import("@/lib/catalog/cached-pages");
    const { generateStaticParams } = await import("@/app/[lang]/(shop)/products/[slug]/page");
    const { db } = await import("@/lib/db/client");
    const later = Date.now() + 60_000;
    const added = Array.from({ length: PRERENDERED_PRODUCTS }, (_, i) => ({
      slug: `prerender-${String(i).padStart(3, "0")}`,
      name: `Produto ${i}`,
      description: "Só para contar.",
      imagePath: "/products/kissange-tradicional.svg",
      priceAoa: 1_000,
      stock: 1,
      updatedAt: new Date(later + i * 1_000),
    }));
    await db().product.createMany({ data: added });
    const params = await generateStaticParams();
    // The added products are the latest changes; the demo products wait for their first visit.
    expect(params).toHaveLength(2 * PRERENDERED_PRODUCTS);
    expect(new Set(params.map((p) => p.slug))).toEqual(new Set(added.map((p) => p.slug)));
    expect(new Set(params.map((p) => p.lang))).toEqual(new Set(["pt", "en"]));

    // A demo product changed after them all takes the place of the oldest of them.
    await db().product.update({ where: { slug: onSale[0]!.slug }, data: { updatedAt: new Date(later + 10_000_000) } });
    const after = new Set((await generateStaticParams()).map((p) => p.slug));
    expect(after.has(onSale[0]!.slug)).toBe(true);
    expect(after.has(added[0]!.slug)).toBe(false);
    expect(after.size).toBe(PRERENDERED_PRODUCTS);
  });
});
