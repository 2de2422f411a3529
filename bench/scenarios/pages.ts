import { DEMO_PRODUCTS } from "../../scripts/db/seed.mjs";
import { sameRequestEveryTime, type Answer, type Scenario } from "../lib/scenario";

/**
 * The shopper's two most visited pages, as a browser asks for them (HTML, no cookie: a first
 * visit), against the same Next server sending a static file of public/ (a product's image):
 * the ratio says how far a page is from what the server does at best. A page that is rendered
 * per request (a database query, the CSP nonce) lands far below 1; one served from the
 * prerender cache comes close.
 */

const product = DEMO_PRODUCTS[0]!;
const STATIC_FILE = product.imagePath;
const HTML = { Accept: "text/html" };

function checkPage(answers: { app: Answer; baseline?: Answer }, expected: string): void {
  const { app, baseline } = answers;
  if (app.status !== 200 || !app.contentType?.startsWith("text/html") || !app.body.includes(expected)) {
    throw new Error(`the page answered ${app.status} ${app.contentType}: ${app.body.slice(0, 200)}`);
  }
  if (baseline?.status !== 200) throw new Error(`the static file ${STATIC_FILE} answered ${baseline?.status}`);
}

const pageScenario = (name: string, summary: string, path: string, expected: string): Scenario => ({
  name,
  summary,
  baseline: { staticFile: STATIC_FILE },
  prepare: async ({ target }) =>
    sameRequestEveryTime(
      target === "baseline" ? { method: "GET", path: STATIC_FILE } : { method: "GET", path, headers: HTML },
    ),
  checkAnswers: (answers) => checkPage(answers, expected),
});

export const cataloguePageScenario = pageScenario(
  "catalogue-page",
  `GET /: the catalogue page, against the same server's ${STATIC_FILE}`,
  "/",
  product.name,
);

export const productPageScenario = pageScenario(
  "product-page",
  `GET /products/${product.slug}: a product page, against the same server's ${STATIC_FILE}`,
  `/products/${product.slug}`,
  product.name,
);
