import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { DEMO_PRODUCTS, seedCatalog } from "@/scripts/db/seed.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// GET /api/products, called as Next calls it, against a real database of this file's own:
// other files add products of their own to the suite's database, and this file asserts the
// whole catalogue.

let database: TestDatabase;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };

beforeAll(async () => {
  database = await createTestDatabase("products");
  await applyMigrations({ connectionString: database.url });
  await seedCatalog(database.url);
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("GET /api/products", () => {
  it("lists the catalogue with integer AOA prices and local images", async () => {
    const { GET } = await import("@/app/api/products/route");
    const response = await GET(new Request("http://localhost/api/products"));
    expect(response.status).toBe(200);
    const products = (await response.json()) as Record<string, unknown>[];
    expect(products.map((p) => p.slug).sort()).toEqual(DEMO_PRODUCTS.map((p) => p.slug).sort());
    for (const product of products) {
      expect(Object.keys(product).sort()).toEqual(["hasOptions", "id", "image", "name", "priceAoa", "slug", "stock"]);
      expect(Number.isSafeInteger(product.priceAoa) && (product.priceAoa as number) > 0).toBe(true);
      expect(product.image).toMatch(/^\/products\/[a-z0-9-]+\.svg$/);
    }
    const cafe = DEMO_PRODUCTS[0]!;
    expect(products.find((p) => p.slug === cafe.slug)).toMatchObject({ name: cafe.name, priceAoa: cafe.priceAoa });
  });

  it("answers 503 with a JSON error, and no detail, when the database is unreachable", async () => {
    vi.stubEnv("DATABASE_URL", "postgresql://postgres:hunter2@127.0.0.1:1/nowhere");
    const hotReloadCache = globalThis as { shopPrismaClient?: unknown };
    const saved = hotReloadCache.shopPrismaClient;
    hotReloadCache.shopPrismaClient = undefined;
    vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { GET } = await import("@/app/api/products/route");
      const response = await GET(new Request("http://localhost/api/products"));
      expect(response.status).toBe(503);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({ error: { code: "catalog_unavailable", message: expect.any(String) } });
      expect(body).not.toContain("hunter2");
    } finally {
      hotReloadCache.shopPrismaClient = saved;
    }
  });
});
