import { DEMO_PRODUCTS } from "../../scripts/db/seed.mjs";
import { sameRequestEveryTime, type Answer, type Scenario, type StaticFileBaseline } from "../lib/scenario";

/**
 * The shopper's two most visited pages, as a browser asks for them (HTML, no cookie: a first
 * visit), against the same Next server sending a static file of public/ that holds the page's
 * own HTML as the build wrote it: the same bytes on the wire, so the ratio says what serving the
 * page costs beyond sending it. A page rendered per request (a database query, the CSP nonce)
 * lands far below 1; one served from the cache comes close. The third scenario compares the
 * catalogue with a small file (a product's 1 KB image), where the page's size counts too.
 */

const product = DEMO_PRODUCTS[0]!;
const SMALL_FILE = product.imagePath;
const HTML = { Accept: "text/html" };

function checkPage(answers: { app: Answer; baseline?: Answer }, expected: string[]): void {
  const { app, baseline } = answers;
  if (
    app.status !== 200 ||
    !app.contentType?.startsWith("text/html") ||
    !expected.every((text) => app.body.includes(text))
  ) {
    throw new Error(`the page answered ${app.status} ${app.contentType}: ${app.body.slice(0, 200)}`);
  }
  if (baseline?.status !== 200) throw new Error(`the static file answered ${baseline?.status}`);
}

export const pageScenario = (
  name: string,
  summary: string,
  path: string,
  /** What the app's page must contain. */
  expected: string[],
  baseline: StaticFileBaseline,
): Scenario => ({
  name,
  summary,
  baseline,
  prepare: async ({ target }) =>
    sameRequestEveryTime(
      target === "baseline" ? { method: "GET", path: baseline.staticFile } : { method: "GET", path, headers: HTML },
    ),
  checkAnswers: (answers) => checkPage(answers, expected),
});

/** The page as `next build` wrote it (Portuguese, the language of a first visit), served as a file of public/. */
export const sameBytes = (name: string, built: string, page: string): StaticFileBaseline => ({
  staticFile: `/bench-pages/${name}.html`,
  copyOf: built,
  page,
});

/**
 * A listing with products. Not the first demo product's name: with the 10 000 products of
 * `search` and `category-page` (catalog-data.ts) in the run, the first page by name shows others.
 */
const LISTING = ['id="catalog-title"', 'href="/products/'];

export const catalogPageScenario = pageScenario(
  "catalogue-page",
  "GET /: the catalogue page, against the same server sending the same HTML as a file",
  "/",
  LISTING,
  sameBytes("catalogue", ".next/server/app/pt.html", "/"),
);

export const productPageScenario = pageScenario(
  "product-page",
  `GET /products/${product.slug}: a product page, against the same server sending the same HTML as a file`,
  `/products/${product.slug}`,
  [product.name],
  sameBytes("product", `.next/server/app/pt/products/${product.slug}.html`, `/products/${product.slug}`),
);

export const catalogPageSmallFileScenario = pageScenario(
  "catalogue-page-small-file",
  `GET /: the catalogue page, against the same server's ${SMALL_FILE} (1 KB)`,
  "/",
  LISTING,
  { staticFile: SMALL_FILE },
);
