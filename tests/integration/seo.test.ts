import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { DEMO_PRODUCTS, seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";

// /sitemap.xml, /robots.txt and a product page's metadata, as Next calls them, against a
// database of this file's own (other files add products to the suite's database, and this file
// asserts the whole catalogue), with one demo product archived: it is not on sale.

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
  it("lists the catalogue page and every product on sale, not the archived one, under APP_URL", async () => {
    const { default: sitemap } = await import("@/app/sitemap");
    const entries = await sitemap();
    expect(entries.map((entry) => entry.url).sort()).toEqual(
      [`${appUrl()}/`, ...onSale.map((product) => `${appUrl()}/products/${product.slug}`)].sort(),
    );
    for (const product of onSale) {
      const entry = entries.find((e) => e.url === `${appUrl()}/products/${product.slug}`)!;
      expect(entry.lastModified).toBeInstanceOf(Date);
      expect(entry.images).toEqual([`${appUrl()}${product.imagePath}`]);
    }
  });
});

describe("robots", () => {
  it("keeps crawlers out of the back office, API, cart, checkout and orders, and names the sitemap", async () => {
    const { default: robots } = await import("@/app/robots");
    const result = robots();
    expect(result.sitemap).toBe(`${appUrl()}/sitemap.xml`);
    const rules = [result.rules].flat();
    expect(rules).toHaveLength(1);
    expect(rules[0]!.disallow).toEqual(["/admin", "/api", "/checkout", "/cart", "/orders"]);
  });
});

describe("a product page's metadata", () => {
  it("has the product's title, description, canonical URL and image, all absolute", async () => {
    const { generateMetadata } = await import("@/app/[lang]/products/[slug]/page");
    const product = onSale[0]!;
    const metadata = await generateMetadata({
      params: Promise.resolve({ lang: "pt", slug: product.slug }),
    });
    const url = `${appUrl()}/products/${product.slug}`;
    expect(metadata).toMatchObject({
      title: product.name,
      description: product.description,
      alternates: { canonical: url },
      openGraph: { url, images: [{ url: `${appUrl()}${product.imagePath}`, alt: product.name }] },
    });
  });

  it("is empty for an archived product, whose page is not found", async () => {
    const { generateMetadata } = await import("@/app/[lang]/products/[slug]/page");
    const metadata = await generateMetadata({
      params: Promise.resolve({ lang: "pt", slug: archived!.slug }),
    });
    expect(metadata).toEqual({});
  });
});
