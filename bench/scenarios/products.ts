import { isDeepStrictEqual } from "node:util";
import { sameRequestEveryTime, type BaselineHandler, type Scenario } from "../lib/scenario";
import type pg from "pg";

/**
 * GET /api/products: the catalogue as JSON, its first page (500 products, with a Link header
 * when more follow: the case when the run has the bench catalogue of `search`). The app goes
 * through Next's router, the route handler, Prisma (driver adapter over pg) and Response.json;
 * the baseline sends the same SELECT through pg and writes the same JSON by hand.
 */

interface ProductRow {
  id: string;
  slug: string;
  name: string;
  price_aoa: number;
  image_path: string;
  stock: number;
}

/** lib/catalog/products.ts PRODUCTS_PAGE_SIZE. */
const PAGE_SIZE = 500;
/** lib/catalog/products.ts listProducts: on sale, by name then id, one more than a page to know whether another follows. */
const LIST_PRODUCTS = `SELECT id, slug, name, price_aoa, image_path, stock FROM products
WHERE archived_at IS NULL ORDER BY name, id LIMIT ${PAGE_SIZE + 1}`;

const listProducts =
  (database: pg.Pool): BaselineHandler =>
  async (_request, response) => {
    const { rows } = await database.query<ProductRow>(LIST_PRODUCTS);
    const body = JSON.stringify(
      rows.slice(0, PAGE_SIZE).map((row) => ({
        id: row.id,
        slug: row.slug,
        name: row.name,
        priceAoa: row.price_aoa,
        image: row.image_path,
        stock: row.stock,
      })),
    );
    response.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      ...(rows.length > PAGE_SIZE ? { Link: '</api/products?page=2>; rel="next"' } : {}),
    });
    response.end(body);
  };

export const productsScenario: Scenario = {
  name: "products",
  summary: "GET /api/products: the first page of products (up to 500) as JSON",
  baseline: { method: "GET", path: "/api/products", handler: ({ database }) => listProducts(database) },
  prepare: async () => sameRequestEveryTime({ method: "GET", path: "/api/products" }),

  checkAnswers({ app, baseline }) {
    for (const [target, answer] of Object.entries({ app, baseline })) {
      if (answer?.status !== 200 || !answer.contentType?.startsWith("application/json")) {
        throw new Error(
          `${target} answered ${answer?.status} ${answer?.contentType ?? "(no content type)"}: ${answer?.body.slice(0, 200)}`,
        );
      }
    }
    const appProducts: unknown = JSON.parse(app.body);
    if (!Array.isArray(appProducts) || appProducts.length === 0) throw new Error("the app listed no products");
    if (!isDeepStrictEqual(appProducts, JSON.parse(baseline!.body))) {
      throw new Error("the app and the baseline list different products; the comparison would be meaningless");
    }
  },
};
