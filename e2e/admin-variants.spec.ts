import { randomUUID } from "node:crypto";
import { signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";

/**
 * A product's options and variants in the back office (/admin/products/<id>,
 * lib/catalog/variants-admin.ts), with plain forms: the owner gives a product the options Tamanho (P, M)
 * and Cor (Azul, Branco), sees its 4 variants, sets the price and stock of one in the table, saves
 * and sees them, then adjusts another variant's stock. The product is the test's own, archived
 * from the start so the shop's catalogue (which other specs read) never shows it, and removed
 * afterwards.
 */

const text = pt.admin.variantsAdmin;
const slug = `variantes-e2e-${randomUUID().slice(0, 8)}`;
let productId = "";

test.beforeAll(async () => {
  const [row] = await query<{ id: string }>(
    `INSERT INTO products (slug, name, description, image_path, price_aoa, stock, archived_at)
     VALUES ($1, $2, 'Uma t-shirt de algodão para o teste das variantes.', '/products/camisola-palancas-negras.svg', 5000, 2, now())
     RETURNING id`,
    [slug, `T-shirt ${slug.slice(-8)}`],
  );
  productId = row!.id;
  await query("INSERT INTO gallery_images (product_id, position, path, alt) VALUES ($1, 0, $2, 'Uma t-shirt')", [
    productId,
    "/products/camisola-palancas-negras.svg",
  ]);
});

test.afterAll(async () => {
  await query("DELETE FROM products WHERE slug = $1", [slug]);
});

test("without a session the routes answer 401", async ({ request }) => {
  const response = await request.post(`/api/admin/products/${productId}/options`, {
    data: { options: [{ name: "Tamanho", values: ["P"] }] },
  });
  expect(response.status()).toBe(401);
});

test("the owner adds options, sees the 4 variants and sets one's price and stock", async ({ page }, testInfo) => {
  await signInToBackOffice(page);
  await page.goto(`/admin/products/${productId}`);
  // Without options the product form has its price; the table has the one variant.
  await expect(page.getByLabel(pt.admin.products.fields.priceAoa, { exact: true })).toBeVisible();
  await expect(page.getByTestId("variant-row")).toHaveCount(1);

  await page.getByLabel(text.optionName(1), { exact: true }).fill("Tamanho");
  await page.getByLabel(text.optionValues(1), { exact: true }).fill("P, M");
  await page.getByLabel(text.optionName(2), { exact: true }).fill("Cor");
  await page.getByLabel(text.optionValues(2), { exact: true }).fill("Azul, Branco");
  await page.getByRole("button", { name: text.saveOptions }).click();

  const flash = page.getByTestId("variants-flash");
  await expect(flash).toHaveAttribute("role", "status");
  await expect(flash).toContainText(text.done.options_saved);
  const rows = page.getByTestId("variant-row");
  await expect(rows).toHaveCount(4);
  await expect(rows.locator("th")).toHaveText(["P, Azul", "P, Branco", "M, Azul", "M, Branco"]);
  // The first combination kept the product's stock; the price and stock are the variants' now.
  await expect(page.getByLabel(text.stockOf("P, Azul"), { exact: true })).toHaveValue("2");
  await expect(page.getByLabel(pt.admin.products.fields.priceAoa, { exact: true })).toHaveCount(0);

  await page.getByLabel(text.priceOf("M, Branco"), { exact: true }).fill("6500");
  await page.getByLabel(text.stockOf("M, Branco"), { exact: true }).fill("8");
  await page.getByLabel(text.stockReason, { exact: true }).fill("Primeira entrega");
  await page.getByRole("button", { name: text.save, exact: true }).click();

  await expect(flash).toContainText(text.done.variants_saved);
  await expect(page.getByLabel(text.priceOf("M, Branco"), { exact: true })).toHaveValue("6500");
  await expect(page.getByLabel(text.stockOf("M, Branco"), { exact: true })).toHaveValue("8");
  const [product] = await query<{ stock: number; price_aoa: number }>(
    "SELECT stock, price_aoa FROM products WHERE id = $1",
    [productId],
  );
  expect(product).toEqual({ stock: 10, price_aoa: 5000 });
  // The stock history names the variant; the adjustment form asks which one.
  await expect(page.getByTestId("adjustment-variant").first()).toHaveText("M, Branco");
  await page.getByLabel(text.variantToAdjust, { exact: true }).selectOption({ label: "P, Azul (Stock: 2)" });
  await page.getByLabel(pt.admin.products.fields.delta).fill("3");
  await page.getByLabel(pt.admin.products.fields.reason, { exact: true }).fill("Devolução");
  await page.getByRole("button", { name: pt.admin.products.adjust }).click();
  await expect(page.getByRole("status").filter({ hasText: pt.admin.products.done.adjusted })).toBeVisible();
  await expect(page.getByLabel(text.stockOf("P, Azul"), { exact: true })).toHaveValue("5");
  await expect(page.getByTestId("current-stock")).toHaveText("13");
  await screenshotAtEachWidth(page, testInfo, "admin-variants", { accessible: true });
});
