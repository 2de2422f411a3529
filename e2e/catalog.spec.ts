import { DEMO_PRODUCTS, DEMO_VARIANTS } from "../scripts/db/seed.mjs";
import { expect, loadAllImages, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";
import { whatsappLink } from "../lib/whatsapp";
import { E2E_SHOP_WHATSAPP } from "../harness/server-environment";

/** The catalogue page and GET /api/products, against the freshly seeded demo catalogue. */

// Computed here rather than copied, so the test follows the platform's pt-AO data
// (the separators are non-breaking spaces: "12 500 Kz" is "12\u00a0500\u00a0Kz").
const kwanza = new Intl.NumberFormat("pt-AO", { style: "currency", currency: "AOA", maximumFractionDigits: 0 });

test("the catalogue lists every seeded product with its price in kwanza", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: pt.catalog.title })).toBeVisible();
  const cards = page.getByTestId("product-card");
  await expect(cards).toHaveCount(DEMO_PRODUCTS.length);

  for (const product of DEMO_PRODUCTS) {
    const card = cards.filter({ has: page.getByRole("heading", { name: product.name, exact: true }) });
    await expect(card, product.name).toHaveCount(1);
    // Exact text, separators included: toHaveText would fold the non-breaking spaces away. A
    // product whose variants cost different amounts shows the lowest, "desde".
    const prices = DEMO_VARIANTS[product.slug]?.variants.map((variant) => variant.priceAoa) ?? [product.priceAoa];
    const lowest = kwanza.format(Math.min(...prices));
    expect(await card.getByTestId("price").textContent(), product.name).toBe(
      new Set(prices).size > 1 ? pt.browse.priceFrom(lowest) : lowest,
    );
  }
});

test("a pk_test_ shop says it is in test mode, above the site header", async ({ page }) => {
  await page.goto("/");
  const banner = page.getByRole("status").filter({ hasText: pt.shop.testMode });
  await expect(banner).toBeVisible();
  const [bannerBox, headerBox] = [await banner.boundingBox(), await page.getByRole("banner").boundingBox()];
  expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(headerBox!.y);
});

test("every product image loads from the shop itself", async ({ page, baseURL }) => {
  await page.goto("/");
  const images = page.getByRole("main").getByRole("img");
  await expect(images).toHaveCount(DEMO_PRODUCTS.length);
  await loadAllImages(page);

  const sources = await images.evaluateAll((elements) =>
    elements.map((element) => (element as HTMLImageElement).currentSrc),
  );
  const expected = DEMO_PRODUCTS.map((product) => new URL(product.imagePath, baseURL).href);
  expect(sources.sort()).toEqual(expected.sort());
});

test("GET /api/products returns every seeded product", async ({ request }) => {
  const response = await request.get("/api/products");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const products = (await response.json()) as Record<string, unknown>[];

  expect(products).toHaveLength(DEMO_PRODUCTS.length);
  for (const seeded of DEMO_PRODUCTS) {
    const listed = products.find((product) => product.slug === seeded.slug);
    expect(listed, seeded.slug).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      slug: seeded.slug,
      name: seeded.name,
      priceAoa: seeded.priceAoa,
      image: seeded.imagePath,
      hasOptions: Boolean(DEMO_VARIANTS[seeded.slug]),
      // Orders placed by other e2e tests may have taken some; never more than the seed put in.
      stock: expect.any(Number),
    });
    expect(listed?.stock, seeded.slug).toBeGreaterThanOrEqual(0);
    expect(listed?.stock, seeded.slug).toBeLessThanOrEqual(seeded.initialStock);
  }
});

test("browsing the catalogue never calls the service", async ({ page, sandbox }) => {
  const before = await sandbox.requests();
  await page.goto("/");
  await expect(page.getByTestId("product-card")).toHaveCount(DEMO_PRODUCTS.length);
  // Every e2e test shares this sandbox; the ones that pay run in a later project (playwright.config.ts),
  // so any new entry came from showing the catalogue.
  expect(await sandbox.requests()).toEqual(before);
});

test("full-page screenshots at phone and desktop widths", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByTestId("product-card")).toHaveCount(DEMO_PRODUCTS.length);
  await screenshotAtEachWidth(page, testInfo, "catalog");
});

test("a product page asks on the shop's WhatsApp, with the product's name and address typed in", async ({
  page,
  baseURL,
}) => {
  const product = DEMO_PRODUCTS[0]!;
  await page.goto(`/products/${product.slug}`);
  const link = page.getByRole("link", { name: pt.product.askOnWhatsapp, exact: true });
  await expect(link).toHaveAttribute(
    "href",
    whatsappLink(
      E2E_SHOP_WHATSAPP.replace(/\D/g, ""),
      pt.product.whatsappText(product.name, `${baseURL}/products/${product.slug}`),
    ),
  );
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener");
});
