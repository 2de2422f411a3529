import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { adminMenu, expectNoIndex, PRODUCT_PNG, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { kwanza } from "./support/shop";
import { en, pt } from "../lib/i18n/dictionaries";

/**
 * The back office's products and stock (/admin/products, lib/catalog/products-admin.ts) in the browser:
 * a demo product's price, stock and image edited and seen at once in /api/products and the
 * catalogue, a stock adjustment with its reason in the history, and a product of the test's own
 * created, archived and restored. Other specs read the demo catalogue: the demo product is put
 * back as it was, and the product created here is removed, whatever happens.
 */

const DEMO = DEMO_PRODUCTS[0]!;
type ProductRow = { id: string; price_aoa: number; stock: number; image_path: string; archived_at: Date | null };
const demoRow = async () =>
  (
    await query<ProductRow>("SELECT id, price_aoa, stock, image_path, archived_at FROM products WHERE slug = $1", [
      DEMO.slug,
    ])
  )[0]!;

let original: ProductRow | undefined;
const createdSlugs: string[] = [];

test.beforeAll(async () => {
  original = await demoRow();
});

test.afterAll(async ({ browser }) => {
  // The image and the created products straight in the database (the shop deletes nothing)...
  if (original) {
    await query("UPDATE products SET image_path = $2 WHERE id = $1", [original.id, original.image_path]);
    // The form's new image replaced the gallery's first (lib/catalog/products-admin.ts): that one too.
    await query("UPDATE gallery_images SET path = $2 WHERE product_id = $1 AND position = 0", [
      original.id,
      original.image_path,
    ]);
  }
  const created = createdSlugs.length
    ? await query<{ id: string }>("SELECT id FROM products WHERE slug = ANY($1::text[]) AND archived_at IS NULL", [
        createdSlugs,
      ])
    : [];
  // ...and the rest through the back office, as an owner would, so the cached catalogue and
  // product pages follow at once (lib/catalog/cached-pages.ts) for the specs that read them next.
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    for (const { id } of created)
      expect((await page.request.post(`/api/admin/products/${id}/archive`)).ok()).toBe(true);
    if (original) {
      const demo = await demoRow();
      const restored = await page.request.post(`/api/admin/products/${original.id}`, {
        data: {
          name: DEMO.name,
          slug: DEMO.slug,
          description: DEMO.description,
          priceAoa: original.price_aoa,
          stock: original.stock,
          stockShown: demo.stock,
          stockReason: "e2e: back as it was",
        },
      });
      expect(restored.ok(), await restored.text()).toBe(true);
      if (original.archived_at === null && demo.archived_at !== null)
        expect((await page.request.post(`/api/admin/products/${original.id}/restore`)).ok()).toBe(true);
    }
  } finally {
    await page.close();
  }
  // Archived and out of every page: their stock adjustments go with them.
  if (createdSlugs.length) await query("DELETE FROM products WHERE slug = ANY($1::text[])", [createdSlugs]);
});

const apiProduct = async (page: Page, slug: string) => {
  const response = await page.request.get("/api/products");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { slug: string; priceAoa: number; stock: number; image: string }[]).find(
    (product) => product.slug === slug,
  );
};

const catalogCard = (page: Page, name: string) =>
  page.getByTestId("product-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("without a session the pages go to the sign-in, the API answers 401, and a form post goes to the sign-in", async ({
  request,
}) => {
  const { id } = await demoRow();
  for (const path of ["/admin/products", "/admin/products/new", `/admin/products/${id}`]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect([303, 307, 308], path).toContain(response.status());
    expect(response.headers().location, path).toMatch(/\/admin$/);
  }
  for (const path of ["/api/admin/products", `/api/admin/products/${id}`, `/api/admin/products/${id}/archive`]) {
    const response = await request.post(path, { data: { name: "x" } });
    expect(response.status(), path).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
    // A browser's form is never answered with JSON.
    const form = await request.post(path, { form: { name: "x" }, maxRedirects: 0 });
    expect(form.status(), path).toBe(303);
    expect(form.headers().location, path).toMatch(/^\/admin\?expired=1&next=/);
  }
});

test("signed in, a post from another site is refused", async ({ page }) => {
  await signInToBackOffice(page);
  const { id } = await demoRow();
  const response = await page.request.post(`/api/admin/products/${id}/archive`, {
    headers: { origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403);
  expect((await demoRow()).archived_at).toBeNull();
});

test("editing a product's price, stock and image shows in /api/products and the catalogue at once", async ({
  page,
}, testInfo) => {
  // Two pages screenshotted and checked by axe at two widths, then the whole edit: a loaded CI
  // machine has taken more than the default 30 s.
  test.setTimeout(90_000);
  const before = await demoRow();
  const newPrice = before.price_aoa + 1_234;
  const newStock = before.stock + 7;

  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: pt.admin.products.title }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.products.title })).toBeVisible();
  await expectNoIndex(page);
  const row = page.getByTestId("admin-product").filter({ hasText: DEMO.name });
  await expect(row.getByTestId("admin-product-price")).toHaveText(kwanza.format(before.price_aoa));
  await screenshotAtEachWidth(page, testInfo, "admin-products", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole("link", { name: DEMO.name }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products/${before.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: DEMO.name })).toBeVisible();
  await screenshotAtEachWidth(page, testInfo, "admin-product", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByLabel(pt.admin.products.fields.priceAoa).fill(String(newPrice));
  await page.getByLabel(pt.admin.products.fields.stock, { exact: true }).fill(String(newStock));
  await page.getByLabel(pt.admin.products.fields.stockReason).fill("Chegou uma palete");
  await page
    .getByLabel(pt.admin.products.newImage)
    .setInputFiles({ name: "cafe.png", mimeType: "image/png", buffer: PRODUCT_PNG });
  await page.getByRole("button", { name: pt.admin.products.save }).click();
  await expect(page.getByRole("status").filter({ hasText: pt.admin.products.done.saved })).toBeVisible();
  await expect(page.getByTestId("current-stock")).toHaveText(String(newStock));
  await expect(page.getByTestId("stock-adjustment").first()).toContainText("Chegou uma palete");
  await expect(page.getByTestId("stock-adjustment").first().getByTestId("adjustment-delta")).toHaveText("+7");

  const listed = await apiProduct(page, DEMO.slug);
  expect(listed).toMatchObject({
    priceAoa: newPrice,
    stock: newStock,
    image: expect.stringMatching(/^\/api\/images\//),
  });
  const image = await page.request.get(listed!.image);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(image.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(image.headers()["x-content-type-options"]).toBe("nosniff");

  await page.goto("/");
  const card = catalogCard(page, DEMO.name);
  expect(await card.getByTestId("price").textContent()).toBe(kwanza.format(newPrice));
  await expect(card.getByTestId("stock")).toHaveText(pt.catalog.inStock);
  const picture = card.getByRole("img");
  // The stored image, through the image optimizer (components/catalog/product-image.tsx).
  await expect(picture).toHaveAttribute("src", new RegExp(`^/_next/image\\?url=${encodeURIComponent(listed!.image)}&`));
  await expect
    .poll(() => picture.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
    .toBe(true);

  // An adjustment with a reason, newest first in the history.
  await page.goto(`/admin/products/${before.id}`);
  await page.getByLabel(pt.admin.products.fields.delta).fill("-2");
  await page.getByLabel(pt.admin.products.fields.reason, { exact: true }).fill("Partido no transporte");
  await page.getByRole("button", { name: pt.admin.products.adjust }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stock ajustado." })).toBeVisible();
  await expect(page.getByTestId("current-stock")).toHaveText(String(newStock - 2));
  const newest = page.getByTestId("stock-adjustment").first();
  await expect(newest).toContainText("Partido no transporte");
  await expect(newest.getByTestId("adjustment-delta")).toHaveText("-2");
  expect((await apiProduct(page, DEMO.slug))?.stock).toBe(newStock - 2);
});

test("a new product is created with its image, archived out of the shop and restored", async ({ page }, testInfo) => {
  const slug = `produto-e2e-${randomUUID().slice(0, 8)}`;
  const name = `Produto de teste ${slug.slice(-8)}`;
  createdSlugs.push(slug);

  await signInToBackOffice(page);
  await page.goto("/admin/products");
  await page.getByRole("link", { name: pt.admin.products.newProduct }).click();
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.products.newProduct })).toBeVisible();

  const fill = async (withSlug: string) => {
    await page.getByLabel(pt.admin.products.fields.name).fill(name);
    await page.getByLabel(pt.admin.products.fields.slug).fill(withSlug);
    await page.getByLabel(pt.admin.products.fields.description).fill("Criado pelo teste do navegador.");
    await page.getByLabel(pt.admin.products.fields.priceAoa).fill("4321");
    await page.getByLabel(pt.admin.products.fields.stock, { exact: true }).fill("9");
    await page
      .getByLabel(pt.admin.products.fields.image, { exact: true })
      .setInputFiles({ name: "novo.png", mimeType: "image/png", buffer: PRODUCT_PNG });
    await page.getByLabel(pt.admin.products.fields.imageAlt, { exact: true }).fill("Um quadrado verde");
    await page.getByRole("button", { name: pt.admin.products.create }).click();
  };

  // A slug another product has: the form comes back saying so, as an alert.
  await fill(DEMO.slug);
  await expect(page).toHaveURL(/\/admin\/products\/new\?error=slug_taken&field=slug$/);
  await expect(page.getByTestId("product-flash")).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("product-flash")).toContainText(pt.admin.products.errors.slug_taken);
  await expect(page.getByLabel(pt.admin.products.fields.slug)).toHaveAttribute("aria-invalid", "true");
  await screenshotAtEachWidth(page, testInfo, "admin-product-new", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await fill(slug);
  await expect(page).toHaveURL(/\/admin\/products\/[0-9a-f-]{36}\?done=created$/);
  await expect(page.getByRole("status").filter({ hasText: "Produto criado." })).toBeVisible();
  await expect(page.getByTestId("stock-adjustment")).toHaveCount(1);
  expect(await apiProduct(page, slug)).toMatchObject({ priceAoa: 4321, stock: 9 });
  const productPage = page.url().replace(/\?.*$/, "");

  await page.getByRole("button", { name: pt.admin.products.archive }).click();
  await expect(page.getByRole("status").filter({ hasText: "Produto arquivado" })).toBeVisible();
  await expect(page.getByTestId("product-state")).toContainText(pt.admin.products.archived);
  await expect(page.getByRole("button", { name: pt.admin.products.restore })).toBeVisible();
  await expect(page.getByRole("button", { name: /apagar|eliminar/i })).toHaveCount(0);
  expect(await apiProduct(page, slug)).toBeUndefined();
  await page.goto("/");
  await expect(catalogCard(page, name)).toHaveCount(0);
  expect((await page.goto(`/products/${slug}`))?.status()).toBe(404);

  await page.goto(productPage);
  await page.getByRole("button", { name: pt.admin.products.restore }).click();
  await expect(page.getByRole("status").filter({ hasText: "Produto reposto à venda." })).toBeVisible();
  expect(await apiProduct(page, slug)).toMatchObject({ priceAoa: 4321 });
  await page.goto("/");
  await expect(catalogCard(page, name)).toHaveCount(1);
});

test("in English through the language cookie", async ({ page, baseURL }) => {
  await signInToBackOffice(page);
  await page.context().addCookies([{ name: "lang", value: "en", url: baseURL! }]);
  await page.goto("/admin/products");
  await expect(page.getByRole("heading", { level: 1, name: en.admin.products.title })).toBeVisible();
  await expect(page.getByRole("link", { name: en.admin.products.newProduct })).toBeVisible();
});
