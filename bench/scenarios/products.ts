import { isDeepStrictEqual } from "node:util";
import { shownImage } from "../../lib/catalog/gallery";
import { expiredHoldsByProduct } from "../lib/expired-holds";
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
  has_options: boolean;
}

/** lib/catalog/products.ts PRODUCTS_PAGE_SIZE. */
const PAGE_SIZE = 500;
/**
 * lib/catalog/products.ts listProducts: on sale, by name then id, one more than a page to know
 * whether another follows; a product has options when it has a row in product_options; then the
 * units of expired holds, by the app's own statement. `npm test` runs this scenario's answer
 * check, which compares every field, so a copy that drifts from the app fails there.
 */
const LIST_PRODUCTS = `SELECT p.id, p.slug, p.name, p.price_aoa, p.image_path, p.stock,
  EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id) AS has_options
FROM products p WHERE p.archived_at IS NULL ORDER BY p.name, p.id LIMIT ${PAGE_SIZE + 1}`;

const listProducts =
  (database: pg.Pool): BaselineHandler =>
  async (_request, response) => {
    const { rows } = await database.query<ProductRow>(LIST_PRODUCTS);
    const page = rows.slice(0, PAGE_SIZE);
    const held = await expiredHoldsByProduct(
      database,
      page.map((row) => row.id),
    );
    const body = JSON.stringify(
      page.map((row) => ({
        id: row.id,
        slug: row.slug,
        name: row.name,
        priceAoa: row.price_aoa,
        image: shownImage(row.image_path),
        stock: row.stock + (held.get(row.id) ?? 0),
        hasOptions: row.has_options,
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
    const baselineProducts = JSON.parse(baseline!.body) as unknown[];
    if (!isDeepStrictEqual(appProducts, baselineProducts)) {
      const at = appProducts.findIndex((product, index) => !isDeepStrictEqual(product, baselineProducts[index]));
      throw new Error(
        `the app and the baseline list different products (${appProducts.length} and ${baselineProducts.length}; ` +
          `the first difference, #${at}: ${JSON.stringify(appProducts[at])} against ${JSON.stringify(baselineProducts[at])}); ` +
          "the comparison would be meaningless",
      );
    }
  },
};
