import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pt } from "../lib/i18n/dictionaries";
import { formatAoa } from "../lib/money";

/**
 * A shopper finds products in a catalogue larger than a page: the header's search (without
 * accents, with a typo), a category narrowed by price and stock and paged through, a product's
 * gallery with the keyboard. On the desktop and on a phone (playwright.config.ts).
 *
 * The 60 products of this file go into the demo's "Doces e mel" sub-category through SQL and are
 * deleted afterwards, with two products with options (Tamanho, Cor) of the same run in "Moda". The cached
 * pages built before them never show them; the views filtered here are /search, rendered per
 * request, which always does.
 */

const run = randomBytes(3).toString("hex");
/** Prices 1 000 to 60 000 Kz; of every three, one sold out and one with 3 units left. */
const EXTRA = Array.from({ length: 60 }, (_, i) => ({
  slug: `compota-${run}-${String(i + 1).padStart(2, "0")}`,
  name: `Compota caseira ${run} nº ${String(i + 1).padStart(2, "0")}`,
  priceAoa: (i + 1) * 1000,
  stock: [10, 3, 0][i % 3]!,
}));

test.beforeAll(async () => {
  await query(
    `WITH created AS (
       INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
       RETURNING id, image_path, name)
     , linked AS (
       INSERT INTO product_categories (product_id, category_id)
       SELECT created.id, c.id FROM created, categories c WHERE c.slug = 'doces-e-mel')
     INSERT INTO gallery_images (product_id, position, path, alt) SELECT id, 0, image_path, name FROM created`,
    [
      EXTRA.map((p) => p.slug),
      EXTRA.map((p) => p.name),
      EXTRA.map(() => "Compota de fruta da época, feita em pequenas quantidades."),
      EXTRA.map(() => "/products/doce-de-mucua-350g.svg"),
      EXTRA.map((p) => p.priceAoa),
      EXTRA.map((p) => p.stock),
    ],
  );
});

/** Products with options, written as the back office does: the default variant becomes the first combination. */
const WITH_OPTIONS = [
  {
    slug: `camiseta-${run}-a`,
    name: `Camiseta ${run} A`,
    variants: [
      { options: { Tamanho: "P", Cor: "Azul" }, priceAoa: 4500, stock: 4 },
      { options: { Tamanho: "G", Cor: "Branco" }, priceAoa: 6000, stock: 2 },
    ],
  },
  {
    slug: `camiseta-${run}-b`,
    name: `Camiseta ${run} B`,
    variants: [
      { options: { Tamanho: "G", Cor: "Azul" }, priceAoa: 7000, stock: 1 },
      { options: { Tamanho: "P", Cor: "Branco" }, priceAoa: 7000, stock: 1 },
    ],
  },
];

test.beforeAll(async () => {
  for (const product of WITH_OPTIONS) {
    const [first, ...others] = product.variants;
    const [created] = await query<{ id: string }>(
      `INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
       VALUES ($1, $2, 'Camiseta de algodão, em dois tamanhos e duas cores.', '/products/doce-de-mucua-350g.svg', $3, $4) RETURNING id`,
      [product.slug, product.name, first!.priceAoa, first!.stock],
    );
    const id = created!.id;
    await query(
      `INSERT INTO product_categories (product_id, category_id) SELECT $1, id FROM categories WHERE slug = 'moda'`,
      [id],
    );
    await query(
      `INSERT INTO product_options (product_id, position, name, "values")
       VALUES ($1, 1, 'Tamanho', ARRAY['P', 'G']), ($1, 2, 'Cor', ARRAY['Azul', 'Branco'])`,
      [id],
    );
    await query(`UPDATE product_variants SET options = $2 WHERE product_id = $1`, [id, JSON.stringify(first!.options)]);
    for (const [i, variant] of others.entries())
      await query(
        `INSERT INTO product_variants (product_id, options, price_aoa, stock, position) VALUES ($1, $2, $3, $4, $5)`,
        [id, JSON.stringify(variant.options), variant.priceAoa, variant.stock, i + 1],
      );
  }
});

test.afterAll(async () => {
  await query(`DELETE FROM products WHERE slug = ANY($1::text[])`, [[...EXTRA, ...WITH_OPTIONS].map((p) => p.slug)]);
});

const cards = (page: Page) => page.getByTestId("product-card");
const cardNames = (page: Page) => cards(page).getByRole("heading", { level: 2 }).allTextContents();

/** The header's search box, as a shopper types into it. */
async function searchFromHeader(page: Page, text: string) {
  const box = page.getByRole("searchbox", { name: pt.browse.searchLabel });
  await box.fill(text);
  await box.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: pt.browse.searchTitle(text) })).toBeVisible();
}

test("the header's search finds a product typed without accents and with a typo", async ({ page }) => {
  await page.goto("/");
  await searchFromHeader(page, "mucua");
  await expect(cards(page).first()).toContainText("Doce de múcua, 350 g");
  await expectNoAxeViolations(page, "search results");

  await searchFromHeader(page, "cafee");
  await expect(cards(page).first()).toContainText("Café de Angola torrado, 1 kg");
  await cards(page).first().getByRole("link", { name: "Café de Angola torrado, 1 kg" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Café de Angola torrado, 1 kg" })).toBeVisible();

  // Nothing matches: the page says so and suggests the categories.
  await searchFromHeader(page, "frigorifico");
  await expect(page.getByTestId("no-results")).toContainText(pt.browse.noResults("frigorifico"));
  await expect(page.getByTestId("no-results").getByRole("link", { name: "Mercearia" })).toBeVisible();
});

test("a category narrowed by price and stock, paged through, leads to the product", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: pt.browse.categories }).getByRole("link", { name: "Mercearia" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mercearia" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: pt.browse.breadcrumbs })).toContainText(pt.browse.home);
  await expectNoAxeViolations(page, "category page");
  await page
    .getByRole("navigation", { name: pt.browse.subcategories })
    .getByRole("link", { name: "Doces e mel" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Doces e mel" })).toBeVisible();

  // Between 5 000 and 59 000 Kz, in stock, cheapest first: two pages.
  const form = page.getByRole("form", { name: pt.browse.refine });
  await form.getByLabel(pt.browse.sort).selectOption("price_asc");
  await form.getByLabel(pt.browse.minPrice).fill("5000");
  await form.getByLabel(pt.browse.maxPrice).fill("59000");
  await form.getByLabel(pt.browse.inStockOnly).check();
  await form.getByRole("button", { name: pt.browse.apply }).click();
  const expected = EXTRA.filter((p) => p.priceAoa >= 5000 && p.priceAoa <= 59000 && p.stock > 0);
  expect(expected.length).toBeGreaterThan(24);
  await expect(page.getByTestId("result-count")).toHaveText(pt.browse.resultCount(expected.length));
  await expect(page).toHaveURL(/\/search\?.*category=doces-e-mel/);
  await expectNoAxeViolations(page, "filtered category");

  const seen = await cardNames(page);
  expect(seen).toHaveLength(24);
  const pages = page.getByRole("navigation", { name: pt.browse.pagination });
  await pages.getByRole("link", { name: pt.browse.next }).click();
  await expect(pages.locator('[aria-current="page"]')).toContainText("2");
  seen.push(...(await cardNames(page)));
  expect(seen).toEqual(expected.map((p) => p.name));

  // The back button returns to the first page, as the URL holds everything.
  await page.goBack();
  await expect(pages.locator('[aria-current="page"]')).toContainText("1");

  const last = expected.at(-1)!;
  await page.goForward();
  await cards(page).getByRole("link", { name: last.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: last.name })).toBeVisible();
});

test("a category filtered by option values: one variant must have them all", async ({ page }) => {
  const [a, b] = WITH_OPTIONS;
  await page.goto(`/search?category=moda&q=${encodeURIComponent(`camiseta ${run}`)}`);
  const cardOf = (name: string) => cards(page).filter({ has: page.getByRole("link", { name, exact: true }) });
  // Listed once each, "desde" the lowest price when it varies, chosen on the product's page.
  await expect(cardOf(a!.name).getByTestId("price")).toHaveText(pt.browse.priceFrom(formatAoa(4500)));
  await expect(cardOf(b!.name).getByTestId("price")).toHaveText(formatAoa(7000));
  await expect(cardOf(a!.name).getByRole("link", { name: pt.browse.chooseOptionsFor(a!.name) })).toBeVisible();
  await expect(cardOf(a!.name).getByRole("button", { name: pt.catalog.addNamedToCart(a!.name) })).toHaveCount(0);

  // G and Azul: A sells G only in Branco, B sells G in Azul.
  const form = page.getByRole("form", { name: pt.browse.refine });
  await form.getByRole("group", { name: "Tamanho" }).getByRole("checkbox", { name: /^G \(/ }).check();
  await form
    .getByRole("group", { name: "Cor" })
    .getByRole("checkbox", { name: /^Azul \(/ })
    .check();
  await form.getByRole("button", { name: pt.browse.apply }).click();
  await expect(page).toHaveURL(/\/search\?.*category=moda.*opt=Tamanho%3AG/);
  await expect(page.getByTestId("result-count")).toHaveText(pt.browse.resultCount(1));
  expect(await cardNames(page)).toEqual([b!.name]);
  await expect(form.getByRole("group", { name: "Cor" }).getByRole("checkbox", { name: /^Azul \(/ })).toBeChecked();
  await expectNoAxeViolations(page, "category filtered by option values");

  await cards(page)
    .getByRole("link", { name: pt.browse.chooseOptionsFor(b!.name) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/products/${b!.slug}`));
  await expect(page.getByRole("heading", { level: 1, name: b!.name })).toBeVisible();
});

test("a sold-out product is listed but cannot be added; a scarce one says how many are left", async ({ page }) => {
  const soldOut = EXTRA.find((p) => p.stock === 0)!;
  await page.goto(`/products/${soldOut.slug}`);
  await expect(page.getByTestId("stock")).toHaveText(pt.catalog.soldOut);
  await expect(page.getByRole("main").getByRole("button", { name: pt.catalog.soldOut })).toBeDisabled();
  await expect(page.getByRole("main").getByRole("button", { name: pt.catalog.addToCart })).toHaveCount(0);
  // 3 units: at most the default LOW_STOCK_THRESHOLD (5).
  await page.goto(`/products/${EXTRA.find((p) => p.stock === 3)!.slug}`);
  await expect(page.getByTestId("stock")).toHaveText(pt.catalog.lowStock(3));
  await page.goto(`/products/${EXTRA.find((p) => p.stock === 10)!.slug}`);
  await expect(page.getByTestId("stock")).toHaveText(pt.catalog.inStock);
});

test("the gallery is operated with the keyboard", async ({ page }) => {
  await page.goto("/products/cafe-de-angola-torrado-1kg");
  const gallery = page.getByRole("group", { name: pt.gallery.label });
  const first = gallery.getByRole("radio", { name: new RegExp(`^${pt.gallery.showImage(1, 3)}`) });
  const second = gallery.getByRole("radio", { name: new RegExp(`^${pt.gallery.showImage(2, 3)}`) });
  const main = page.getByRole("main");
  await expect(main.getByRole("img", { name: "Café de Angola torrado, 1 kg" })).toBeVisible();
  await expect(main.getByRole("img", { name: "Grãos de café torrado, de perto" })).toBeHidden();

  await first.focus();
  await page.keyboard.press("ArrowRight");
  await expect(second).toBeChecked();
  await expect(second).toBeFocused();
  await expect(main.getByRole("img", { name: "Grãos de café torrado, de perto" })).toBeVisible();
  await expect(main.getByRole("img", { name: "Café de Angola torrado, 1 kg" })).toBeHidden();
  await expectNoAxeViolations(page, "product page with its gallery");
});

test("the catalogue's later pages are cached pages of their own", async ({ page }) => {
  // With this file's products the catalogue has more than one page; page 2 is rendered on its first visit, then cached.
  const first = await page.request.get("/page/2");
  expect(first.status()).toBe(200);
  const again = await page.request.get("/page/2");
  expect(["HIT", "STALE"]).toContain(again.headers()["x-nextjs-cache"]);
  await page.goto("/page/2");
  await expect(
    page.getByRole("navigation", { name: pt.browse.pagination }).locator('[aria-current="page"]'),
  ).toContainText("2");
  await expect(cards(page)).not.toHaveCount(0);
});
