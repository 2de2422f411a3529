import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { adminMenu, expectNoIndex, PRODUCT_PNG, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The back office's catalogue structure in the browser, without JavaScript doing any of it (every
 * change is a plain form): a category and a sub-category created on /admin/categories, a new
 * product put in the sub-category, a second image added to its gallery with its text alternative
 * and moved first, which makes it the product's card image. Other specs read the demo catalogue
 * and its category menu: what this one creates is removed afterwards, whatever happens.
 */

const run = randomUUID().slice(0, 8);
const TOP = `Estrutura ${run}`;
const SUB = `Sub ${run}`;
const PRODUCT = { name: `Produto com galeria ${run}`, slug: `produto-galeria-${run}` };

/** A 4×3 PNG of one colour, made here: a second image, different from the first (PRODUCT_PNG). */
function png([r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(3, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [r, g, b]).flat()]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat([row, row, row]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

test.afterAll(async ({ browser }) => {
  const categories = await query<{ id: string; parent_id: string | null }>(
    "SELECT id, parent_id FROM categories WHERE name = ANY($1::text[])",
    [[TOP, SUB]],
  );
  const products = await query<{ id: string }>("SELECT id FROM products WHERE slug = $1", [PRODUCT.slug]);
  // Through the back office, as an owner would, so the cached pages follow (lib/catalog/cached-pages.ts):
  // sub-categories first, then the product out of the shop.
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    for (const category of [...categories].sort((a, b) => Number(a.parent_id === null) - Number(b.parent_id === null)))
      expect((await page.request.post(`/api/admin/categories/${category.id}/delete`)).ok()).toBe(true);
    for (const { id } of products)
      expect((await page.request.post(`/api/admin/products/${id}/archive`)).ok()).toBe(true);
  } finally {
    await page.close();
  }
  // Archived and out of every page: its gallery and history go with it.
  await query("DELETE FROM products WHERE slug = $1", [PRODUCT.slug]);
});

test("categories in two levels, a product in one, and its gallery ordered with alt text", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const categoriesText = pt.admin.categories;
  const galleryText = pt.admin.gallery;

  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: categoriesText.title }).click();
  await expect(page).toHaveURL(/\/admin\/categories$/);
  await expect(page.getByRole("heading", { level: 1, name: categoriesText.title })).toBeVisible();
  await expectNoIndex(page);

  // A top-level category, its slug left empty: made from the name.
  const newCategory = page.getByRole("region", { name: categoriesText.newTitle });
  await newCategory.getByLabel(categoriesText.name).fill(TOP);
  await newCategory.getByLabel(categoriesText.position).fill("90");
  await newCategory.getByRole("button", { name: categoriesText.create }).click();
  await expect(page).toHaveURL(/\/admin\/categories\?done=created$/);
  await expect(page.getByRole("status").filter({ hasText: categoriesText.done.created })).toBeVisible();
  const top = page.getByTestId("admin-category").filter({ has: page.getByRole("link", { name: TOP, exact: true }) });
  await expect(top).toContainText(`/estrutura-${run}`);

  // Its sub-category: the parent is chosen among top-level categories.
  await newCategory.getByLabel(categoriesText.name).fill(SUB);
  await newCategory.getByLabel(categoriesText.parent).selectOption({ label: TOP });
  await newCategory.getByRole("button", { name: categoriesText.create }).click();
  await expect(page.getByRole("status").filter({ hasText: categoriesText.done.created })).toBeVisible();
  await expect(
    page.getByRole("list", { name: `${categoriesText.subcategories}: ${TOP}` }).getByRole("link", { name: SUB }),
  ).toBeVisible();
  await screenshotAtEachWidth(page, testInfo, "admin-categories", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A category with a sub-category is not deleted: the page says why.
  await top.getByRole("link", { name: TOP, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: TOP })).toBeVisible();
  await expect(page.getByLabel(categoriesText.parent)).toBeDisabled();
  await expectNoAxeViolations(page, "admin category");
  await page.getByRole("button", { name: categoriesText.delete }).click();
  await expect(page.getByTestId("category-flash")).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("category-flash")).toContainText(categoriesText.errors.has_children);

  // A new product in the sub-category, its image with its text alternative.
  await page.goto("/admin/products/new");
  await page.getByLabel(pt.admin.products.fields.name).fill(PRODUCT.name);
  await page.getByLabel(pt.admin.products.fields.slug).fill(PRODUCT.slug);
  await page.getByLabel(pt.admin.products.fields.description).fill("Criado pelo teste da estrutura do catálogo.");
  await page.getByLabel(pt.admin.products.fields.priceAoa).fill("2500");
  await page.getByLabel(pt.admin.products.fields.stock, { exact: true }).fill("4");
  await page.getByRole("group", { name: pt.admin.products.fields.categories }).getByLabel(SUB, { exact: true }).check();
  await page
    .getByLabel(pt.admin.products.fields.image, { exact: true })
    .setInputFiles({ name: "frente.png", mimeType: "image/png", buffer: PRODUCT_PNG });
  await page.getByLabel(pt.admin.products.fields.imageAlt, { exact: true }).fill("O pacote visto de frente");
  await page.getByRole("button", { name: pt.admin.products.create }).click();
  await expect(page).toHaveURL(/\/admin\/products\/[0-9a-f-]{36}\?done=created$/);
  const productPage = page.url().replace(/\?.*$/, "");
  const productId = productPage.split("/").pop()!;
  const categories = page.getByRole("group", { name: pt.admin.products.fields.categories });
  await expect(categories.getByLabel(SUB, { exact: true })).toBeChecked();
  await expect(categories.getByLabel(TOP, { exact: true })).not.toBeChecked();

  // The gallery: one image so far, with the text the form sent.
  const gallery = page.getByRole("region", { name: galleryText.title });
  const images = gallery.getByTestId("gallery-image");
  await expect(images).toHaveCount(1);
  await expect(images.first().getByRole("img")).toHaveAttribute("alt", "O pacote visto de frente");
  await expect(gallery.getByRole("button", { name: new RegExp(`^${galleryText.remove}`) })).toHaveCount(0);

  // A second image: a file and its text alternative, added last.
  await gallery
    .getByLabel(galleryText.file)
    .setInputFiles({ name: "verso.png", mimeType: "image/png", buffer: png([200, 40, 40]) });
  await gallery.getByLabel(galleryText.alt, { exact: true }).fill("O verso do pacote, com a composição");
  await gallery.getByRole("button", { name: galleryText.add }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/products/${productId}\\?gallery=added#gallery$`));
  await expect(gallery.getByTestId("gallery-flash")).toHaveText(galleryText.done.added);
  await expect(images).toHaveCount(2);
  await expect(images.nth(1).getByRole("img")).toHaveAttribute("alt", "O verso do pacote, com a composição");
  await screenshotAtEachWidth(page, testInfo, "admin-product-gallery", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Moved first: it becomes the product's image.
  const second = await images.nth(1).getAttribute("data-image-id");
  await gallery.getByRole("button", { name: `${galleryText.moveUp}${galleryText.ofImage(2)}` }).click();
  await expect(gallery.getByTestId("gallery-flash")).toHaveText(galleryText.done.moved);
  await expect(images.first()).toHaveAttribute("data-image-id", second!);
  await expect(images.first().getByRole("img")).toHaveAttribute("alt", "O verso do pacote, com a composição");
  const [row] = await query<{ image_path: string; first: string }>(
    `SELECT p.image_path, g.path AS first FROM products p
     JOIN gallery_images g ON g.product_id = p.id AND g.position = 0 WHERE p.id = $1`,
    [productId],
  );
  expect(row?.image_path).toBe(row?.first);
  expect(row?.image_path).toMatch(/^\/api\/images\//);

  // A text alternative changed, then the old first image removed.
  await gallery.getByLabel(galleryText.altOf(2)).fill("A frente do pacote");
  await gallery.getByRole("button", { name: `${galleryText.saveAlt}${galleryText.textOfImage(2)}` }).click();
  await expect(gallery.getByTestId("gallery-flash")).toHaveText(galleryText.done.alt_saved);
  await expect(images.nth(1).getByRole("img")).toHaveAttribute("alt", "A frente do pacote");
  await gallery.getByRole("button", { name: `${galleryText.remove}${galleryText.ofImage(2)}` }).click();
  await expect(gallery.getByTestId("gallery-flash")).toHaveText(galleryText.done.removed);
  await expect(images).toHaveCount(1);
  await expectNoAxeViolations(page, "admin product after the gallery's changes");
});
