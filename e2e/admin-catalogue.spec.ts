import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { adminMenu, expectNoIndex, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The catalogue CSV in the back office (/admin/catalogue, lib/catalog/csv/), without JavaScript
 * being needed: a file with a bad line is checked and its problems are listed by line and column,
 * nothing written; the fixed file is checked (a summary), then imported, and its product is in
 * the products' list. The product created here is archived through the back office and removed
 * afterwards, so the other specs' catalogue stays as it was.
 */

const text = pt.admin.catalogue;
const slug = `csv-e2e-${randomUUID().slice(0, 8)}`;
const name = `Produto do CSV ${slug.slice(-8)}`;
const HEADER = "slug,name,description,price_aoa,stock,categories,images,image_alts";
const good = `${slug},"${name}","Importado pelo teste, de um CSV.",6100,4,Artesanato,/products/kissange-tradicional.svg,Um kissange`;
const BAD_CSV = [HEADER, good, "outro-e2e,Outro,Texto.,8.500,1,,foto.png,Uma foto"].join("\r\n");
const GOOD_CSV = [HEADER, good].join("\r\n");

/** A shop's first spreadsheet: no photos. */
const bareSlug = `csv-e2e-bare-${randomUUID().slice(0, 8)}`;
const bareName = `Produto sem foto ${bareSlug.slice(-8)}`;
const BARE_CSV = [HEADER, `${bareSlug},"${bareName}","Importado sem imagens.",2300,5,,,`].join("\r\n");

const csvFile = (content: string) => ({ name: "catalogo.csv", mimeType: "text/csv", buffer: Buffer.from(content) });

test.afterAll(async ({ browser }) => {
  const rows = await query<{ id: string }>("SELECT id FROM products WHERE slug = ANY($1::text[])", [[slug, bareSlug]]);
  if (rows.length === 0) return;
  // Through the back office first, so the cached pages forget them at once (lib/catalog/cached-pages.ts).
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    for (const row of rows) expect((await page.request.post(`/api/admin/products/${row.id}/archive`)).ok()).toBe(true);
  } finally {
    await page.close();
  }
  await query(
    `DELETE FROM cart_lines WHERE variant_id IN
       (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.slug = ANY($1::text[]))`,
    [[slug, bareSlug]],
  );
  await query("DELETE FROM products WHERE slug = ANY($1::text[])", [[slug, bareSlug]]);
});

const check = async (page: Page, content: string) => {
  const form = page.getByRole("form", { name: text.importTitle });
  await form.getByLabel(text.file, { exact: true }).setInputFiles(csvFile(content));
  await form.getByRole("button", { name: text.check }).click();
};

test("without a session the page goes to the sign-in and the routes answer 401", async ({ request }) => {
  const response = await request.get("/admin/catalogue", { maxRedirects: 0 });
  expect([303, 307, 308]).toContain(response.status());
  expect(response.headers().location).toMatch(/\/admin$/);
  expect((await request.get("/api/admin/catalogue/export")).status()).toBe(401);
  const post = await request.post("/api/admin/catalogue/import?dryRun=1", {
    headers: { "content-type": "text/csv" },
    data: GOOD_CSV,
  });
  expect(post.status()).toBe(401);
});

test("a file is checked (problems by line and column, then a summary) and imported", async ({ page }, testInfo) => {
  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: text.title }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue$/);
  await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
  await expectNoIndex(page);

  // A bad line: every problem by line and column, and nothing written.
  await check(page, BAD_CSV);
  const flash = page.getByTestId("catalogue-flash");
  await expect(flash).toHaveAttribute("role", "alert");
  await expect(flash).toContainText(text.invalid(2));
  const problems = page.getByTestId("csv-problem");
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0)).toHaveAttribute("data-line", "3");
  await expect(problems.nth(0)).toHaveAttribute("data-column", "price_aoa");
  await expect(problems.nth(0)).toContainText(`${text.line(3)}, price_aoa: ${text.problems.not_kwanza()}`);
  await expect(problems.nth(1)).toHaveAttribute("data-column", "images");
  await expect(problems.nth(1)).toContainText(text.problems.image_file_not_allowed("foto.png"));
  expect(await query("SELECT 1 FROM products WHERE slug = $1", [slug])).toEqual([]);
  await screenshotAtEachWidth(page, testInfo, "admin-catalogue-problems", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The fixed file: what it would change, and still nothing written.
  await check(page, GOOD_CSV);
  await expect(flash).toHaveAttribute("role", "status");
  await expect(flash).toContainText(text.checked);
  const summary = page.getByTestId("catalogue-summary");
  await expect(summary).toContainText(`${text.summary.created}:1`);
  await expect(summary).toContainText(`${text.summary.rows}:1`);
  expect(await query("SELECT 1 FROM products WHERE slug = $1", [slug])).toEqual([]);
  await screenshotAtEachWidth(page, testInfo, "admin-catalogue-checked", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Import: the same file again, with the check's fingerprint.
  const apply = page.getByRole("form", { name: text.applyTitle });
  await apply.getByLabel(text.file, { exact: true }).setInputFiles(csvFile(GOOD_CSV));
  await apply.getByRole("button", { name: text.apply }).click();
  await expect(flash).toContainText(text.applied);
  await expect(summary).toContainText(`${text.summary.created}:1`);
  await expectNoProblems(page);

  await (await adminMenu(page)).getByRole("link", { name: pt.admin.products.title }).click();
  const row = page.getByTestId("admin-product").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("admin-product-stock")).toHaveText("4");
  const [created] = await query<{ price_aoa: number; image_path: string }>(
    "SELECT price_aoa, image_path FROM products WHERE slug = $1",
    [slug],
  );
  expect(created).toEqual({ price_aoa: 6100, image_path: "/products/kissange-tradicional.svg" });

  // The export has it, as the import reads it.
  const exported = await page.request.get("/api/admin/catalogue/export");
  expect(exported.status()).toBe(200);
  expect(exported.headers()["content-disposition"]).toMatch(/attachment/);
  expect(await exported.text()).toContain(`${slug},${name},`);
});

test("a file without images is imported, and the product shows a placeholder: its card, its page, the cart", async ({
  page,
}, testInfo) => {
  await signInToBackOffice(page);
  await page.goto("/admin/catalogue");
  await check(page, BARE_CSV);
  const flash = page.getByTestId("catalogue-flash");
  await expect(flash).toContainText(text.checked);
  await expectNoProblems(page);
  const apply = page.getByRole("form", { name: text.applyTitle });
  await apply.getByLabel(text.file, { exact: true }).setInputFiles(csvFile(BARE_CSV));
  await apply.getByRole("button", { name: text.apply }).click();
  await expect(flash).toContainText(text.applied);
  expect(await query("SELECT image_path FROM products WHERE slug = $1", [bareSlug])).toEqual([{ image_path: "" }]);

  // Its page: the placeholder where the gallery would be, hidden from screen readers, and no image in its JSON-LD.
  await page.goto(`/products/${bareSlug}`);
  await expect(page.getByRole("heading", { level: 1, name: bareName })).toBeVisible();
  const placeholder = page.getByTestId("image-placeholder");
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toHaveAttribute("aria-hidden", "true");
  await expect(page.locator("[data-gallery], main img")).toHaveCount(0);
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  const product = jsonLd.map((block) => JSON.parse(block)).find((block) => block["@type"] === "Product");
  expect(product).toMatchObject({ name: bareName, offers: { price: 2300 } });
  expect(product).not.toHaveProperty("image");
  await screenshotAtEachWidth(page, testInfo, "product-without-image", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Its card in a search, added to the cart from there; its line in the cart.
  await page.goto(`/search?q=${encodeURIComponent(bareName)}`);
  const card = page.getByTestId("product-card").filter({ hasText: bareName });
  await expect(card.getByTestId("image-placeholder")).toBeVisible();
  await expect(card.locator("img")).toHaveCount(0);
  await expect(page.getByTestId("cart-count")).toHaveText(/^\d+$/);
  const before = Number(await page.getByTestId("cart-count").textContent());
  await card.getByRole("button", { name: pt.catalog.addNamedToCart(bareName) }).click();
  await expect(page.getByTestId("cart-count")).toHaveText(String(before + 1));
  await page.goto("/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: bareName });
  await expect(line.getByTestId("image-placeholder")).toBeVisible();
  await expect(line.locator("img")).toHaveCount(0);
});

async function expectNoProblems(page: Page) {
  await expect(page.getByTestId("csv-problem")).toHaveCount(0);
}
