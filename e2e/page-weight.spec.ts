import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { devices, type Page, type TestInfo } from "@playwright/test";
import sharp from "sharp";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { DATA_BUDGET, type PageBudget, SAVE_DATA_BUDGET } from "./support/data-budget";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { describeResponses, describeWeight, measureFirstVisit, type PageWeight, PHONE } from "./support/page-weight";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The data budget (e2e/support/data-budget.ts): a phone's first visit to the catalogue, a
 * category of 24 products, a search and the product pages, measured from Chromium's network
 * events against the production build, printed as `[page-weight] …` and failed past the budget.
 * Then the same with `Save-Data: on`, and what prefetching costs: nothing until the shopper
 * reaches for a link, and nothing at all for a shopper saving data.
 */

const [coffee] = DEMO_PRODUCTS;
const WITH_OPTIONS = "camisola-palancas-negras";

const run = randomBytes(3).toString("hex");
const CATEGORY = { slug: `cesta-${run}`, name: `Cesta do dia ${run}` };
/** A full page of a category: 24 products, their pictures the demo catalogue's. */
const PRODUCTS = Array.from({ length: 24 }, (_, i) => {
  const demo = DEMO_PRODUCTS[i % DEMO_PRODUCTS.length]!;
  return {
    slug: `cesta-${run}-${String(i + 1).padStart(2, "0")}`,
    name: `${demo.name} (cesta ${run} nº ${i + 1})`,
    description: demo.description,
    image: demo.imagePath,
    priceAoa: demo.priceAoa,
    stock: 10,
  };
});
/** A product with a photograph, uploaded as the back office does: the demo's pictures are SVG. */
const PHOTO = { slug: `fotografia-${run}`, name: `Cesto fotografado ${run}` };
let photoId: string | undefined;

/** The category's products leave as soon as it is measured: the other pages show the demo catalogue. */
async function removeCategory() {
  await query(`DELETE FROM products WHERE slug = ANY($1::text[])`, [PRODUCTS.map((p) => p.slug)]);
  await query(`DELETE FROM categories WHERE slug = $1`, [CATEGORY.slug]);
}

test.afterAll(async ({ browser }) => {
  await removeCategory();
  if (!photoId) return;
  // Through the back office, so the cached pages follow for the specs after this one.
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    expect((await page.request.post(`/api/admin/products/${photoId}/archive`)).ok()).toBe(true);
  } finally {
    await page.close();
  }
});

async function report(testInfo: TestInfo, label: string, rows: [string, PageWeight, PageBudget?][]) {
  for (const [name, weight, budget] of rows) {
    console.log(`[page-weight] ${label.padEnd(9)} ${describeWeight(name, weight, budget)}`);
    // Where the bytes go: status, header bytes, body bytes, address.
    for (const line of describeResponses(weight)) console.log(`[page-weight] ${label.padEnd(9)}   ${line}`);
  }
  const file = testInfo.outputPath(`${label}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      rows.map(([name, weight, budget]) => ({ name, budget, ...weight })),
      null,
      2,
    )}\n`,
  );
  await testInfo.attach(label, { path: file, contentType: "application/json" });
}

function expectWithin(name: string, weight: PageWeight, budget: PageBudget) {
  const heaviest = [...weight.entries]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8)
    .map((entry) => `${entry.kind} ${entry.bytes} (headers ${entry.headerBytes}) ${entry.url}`)
    .join("\n");
  expect.soft(weight.totalBytes, `${name}: bytes over the wire\n${heaviest}`).toBeLessThanOrEqual(budget.totalBytes);
  expect.soft(weight.scriptBytes, `${name}: JavaScript bytes`).toBeLessThanOrEqual(budget.scriptBytes);
  expect
    .soft(weight.requests, `${name}: requests\n${weight.entries.map((e) => e.url).join("\n")}`)
    .toBeLessThanOrEqual(budget.requests);
  // Nothing of a page the shopper has not opened, but for a listing's next page, the likely next step.
  const prefetched = weight.entries.filter((entry) => entry.kind === "prefetch").map((entry) => new URL(entry.url));
  expect
    .soft(
      prefetched.filter((url) => !/^\/(categories\/[^/]+\/)?page\/\d+$/.test(url.pathname)).map(String),
      `${name}: prefetches on arrival`,
    )
    .toEqual([]);
}

/**
 * The catalogue as the demo has it, in the cache too: a spec before this one may have left the
 * cached catalogue stale for its 30 s (products it added and removed in SQL).
 */
async function demoCatalogueCached(page: Page) {
  await expect
    .poll(
      async () => ((await (await page.request.get("/")).text()).match(/data-testid="product-card"/g) ?? []).length,
      {
        message: "the cached catalogue shows the demo's products",
        timeout: 60_000,
        intervals: [2_000],
      },
    )
    .toBe(DEMO_PRODUCTS.length);
}

const cards = (page: Page) => page.getByTestId("product-card");

test("a phone's first visit stays within the data budget: catalogue, search, product pages", async ({
  browser,
  baseURL,
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await demoCatalogueCached(page);
  let homeCards = 0;
  const home = await measureFirstVisit(browser, baseURL!, "/", {
    inspect: async (page) => void (homeCards = await cards(page).count()),
  });
  const search = await measureFirstVisit(browser, baseURL!, "/search?sort=price_asc");
  const product = await measureFirstVisit(browser, baseURL!, `/products/${coffee!.slug}`);
  const withOptions = await measureFirstVisit(browser, baseURL!, `/products/${WITH_OPTIONS}`);
  await report(testInfo, "budget", [
    [`home (${homeCards} products)`, home, DATA_BUDGET.home],
    ["search", search, DATA_BUDGET.search],
    ["product", product, DATA_BUDGET.product],
    ["product with options", withOptions, DATA_BUDGET.product],
  ]);
  // The demo catalogue: one page, every product with its picture.
  expect(homeCards).toBe(DEMO_PRODUCTS.length);
  expect(home.byKind.image.requests).toBeGreaterThanOrEqual(DEMO_PRODUCTS.length);
  expectWithin("home", home, DATA_BUDGET.home);
  expectWithin("search", search, DATA_BUDGET.search);
  expectWithin("product", product, DATA_BUDGET.product);
  expectWithin("product with options", withOptions, DATA_BUDGET.product);
});

test("with Save-Data: on, a phone's first visit costs less: no prefetch, no decorative pictures", async ({
  browser,
  baseURL,
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await demoCatalogueCached(page);
  let homePictures = -1;
  let thumbnails = -1;
  const home = await measureFirstVisit(browser, baseURL!, "/", {
    saveData: true,
    inspect: async (visit) => {
      await expect(cards(visit)).toHaveCount(DEMO_PRODUCTS.length);
      homePictures = await visit.getByRole("main").getByRole("img").count();
    },
  });
  const product = await measureFirstVisit(browser, baseURL!, `/products/${coffee!.slug}`, {
    saveData: true,
    inspect: async (visit) => {
      // The gallery's choices are numbers; the large picture is there.
      const gallery = visit.getByRole("group", { name: pt.gallery.label });
      await expect(gallery.getByRole("radio")).toHaveCount(3);
      thumbnails = await gallery.locator("img").count();
      await expect(visit.getByRole("main").getByRole("img", { name: coffee!.name })).toBeVisible();
    },
  });
  await report(testInfo, "save-data", [
    ["home", home, SAVE_DATA_BUDGET.home],
    ["product", product, SAVE_DATA_BUDGET.product],
  ]);
  // The cached pages answer the header with their lighter form, from the cache too, and say they vary by it.
  for (const path of ["/", `/products/${coffee!.slug}`]) {
    for (const saveData of [false, true]) {
      const answer = await page.request.get(path, { headers: saveData ? { "Save-Data": "on" } : {} });
      expect(answer.status(), path).toBe(200);
      expect(answer.headers()["vary"], path).toMatch(/\bSave-Data\b/);
      expect((await answer.text()).includes("data-save-data"), `${path}, Save-Data ${saveData}`).toBe(saveData);
    }
    expect((await page.request.get(path, { headers: { "Save-Data": "on" } })).headers()["x-nextjs-cache"]).toMatch(
      /HIT|STALE/,
    );
  }
  // The lighter form has no address of its own.
  expect((await page.request.get("/save-data")).status()).toBe(404);
  expect((await page.request.get(`/save-data/products/${coffee!.slug}`)).status()).toBe(404);

  expect(homePictures, "pictures on the catalogue's cards").toBe(0);
  expect(thumbnails, "pictures in the gallery's thumbnails").toBe(0);
  expectWithin("home (Save-Data)", home, SAVE_DATA_BUDGET.home);
  expectWithin("product (Save-Data)", product, SAVE_DATA_BUDGET.product);
});

/** Next's router prefetches (`Next-Router-Prefetch`, or a segment's) the page makes from now on. */
function prefetches(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers["next-router-prefetch"] || headers["next-router-segment-prefetch"]) urls.push(request.url());
  });
  return urls;
}

test("a link prefetches its page only once the shopper reaches for it, and never for one saving data", async ({
  page,
  browser,
  baseURL,
}) => {
  const seen = prefetches(page);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(seen, "prefetches on arrival").toEqual([]);
  const link = cards(page).first().getByRole("heading").getByRole("link");
  const href = (await link.getAttribute("href"))!;
  await link.hover();
  await expect
    .poll(() => seen.some((url) => new URL(url).pathname === href), { message: "prefetched on hover" })
    .toBe(true);

  // The browser says so (Chromium's data saver), even where the server did not hear it.
  const saving = await browser.newContext({ baseURL });
  try {
    await saving.addInitScript(() => {
      const connection = (navigator as Navigator & { connection?: object }).connection;
      if (connection) Object.defineProperty(connection, "saveData", { get: () => true });
    });
    const visit = await saving.newPage();
    const none = prefetches(visit);
    await visit.goto("/");
    await visit.waitForLoadState("networkidle");
    await cards(visit).first().getByRole("heading").getByRole("link").hover();
    await visit.waitForTimeout(1000);
    expect(none, "prefetches while saving data").toEqual([]);
  } finally {
    await saving.close();
  }
});

test("a phone's first visit to a category of 24 products stays within the data budget", async ({
  browser,
  baseURL,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await query(
    `WITH category AS (
       INSERT INTO categories (slug, name, position, parent_id)
       SELECT $7, $8, 99, id FROM categories WHERE slug = 'cultura' RETURNING id)
     , created AS (
       INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
       RETURNING id, image_path, name)
     , linked AS (
       INSERT INTO product_categories (product_id, category_id) SELECT created.id, category.id FROM created, category)
     INSERT INTO gallery_images (product_id, position, path, alt) SELECT id, 0, image_path, name FROM created`,
    [
      PRODUCTS.map((p) => p.slug),
      PRODUCTS.map((p) => p.name),
      PRODUCTS.map((p) => p.description),
      PRODUCTS.map((p) => p.image),
      PRODUCTS.map((p) => p.priceAoa),
      PRODUCTS.map((p) => p.stock),
      CATEGORY.slug,
      CATEGORY.name,
    ],
  );
  // A sub-category (the header, which lists the top level, stays as it is) added after the build:
  // its page is rendered on this first visit, with all 24, and cached.
  await page.goto(`/categories/${CATEGORY.slug}`);
  await expect(cards(page)).toHaveCount(24);

  const category = await measureFirstVisit(browser, baseURL!, `/categories/${CATEGORY.slug}`).finally(removeCategory);
  await report(testInfo, "budget", [["category (24 products)", category, DATA_BUDGET.category]]);
  expectWithin("category", category, DATA_BUDGET.category);
});

test("with Save-Data: on, a product's photograph is a smaller file, still sharp enough to see", async ({
  browser,
  baseURL,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A photograph as a phone takes it: 1600 × 1200, with detail (noise) that compresses as a photo does.
  const photo = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: { r: 180, g: 140, b: 90 },
      noise: { type: "gaussian", mean: 120, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  await signInToBackOffice(page);
  const created = await page.request.post("/api/admin/products", {
    multipart: {
      name: PHOTO.name,
      slug: PHOTO.slug,
      description: "Um produto com fotografia, só deste teste.",
      priceAoa: "3000",
      stock: "5",
      image: { name: "foto.jpg", mimeType: "image/jpeg", buffer: photo },
    },
    headers: { accept: "application/json" },
  });
  expect(created.status(), await created.text()).toBe(201);
  photoId = ((await created.json()) as { product: { id: string } }).product.id;

  const picture = async (visit: Page) =>
    visit
      .getByRole("main")
      .getByRole("img", { name: PHOTO.name })
      .evaluate((image: HTMLImageElement) => ({ width: image.naturalWidth, src: image.currentSrc }));
  let usual = { width: 0, src: "" };
  let saving = { width: 0, src: "" };
  const path = `/products/${PHOTO.slug}`;
  const normal = await measureFirstVisit(browser, baseURL!, path, {
    inspect: async (visit) => void (usual = await picture(visit)),
  });
  const light = await measureFirstVisit(browser, baseURL!, path, {
    saveData: true,
    inspect: async (visit) => void (saving = await picture(visit)),
  });
  await report(testInfo, "photo", [
    // A photograph of noise, heavier than any product's: the figures show what Save-Data takes off.
    ["product, photograph", normal],
    ["the same, Save-Data", light],
  ]);
  console.log(
    `[page-weight] photo     the picture: ${normal.byKind.image.bytes} bytes (${usual.src}); ` +
      `saving data: ${light.byKind.image.bytes} bytes (${saving.src})`,
  );
  // Resized by the image optimizer for the phone's screen, never the upload as it is.
  const fileWidth = (src: string) => Number(new URL(src).searchParams.get("w"));
  expect(usual.src).toContain("/_next/image");
  expect(fileWidth(usual.src)).toBeLessThan(1600);
  // Saving data: at most half the bytes, and still a file 640 pixels wide, wider than the phone's screen.
  expect(light.byKind.image.bytes).toBeLessThanOrEqual(normal.byKind.image.bytes / 2);
  expect(fileWidth(saving.src)).toBeGreaterThanOrEqual(640);
  expect(saving.width).toBeGreaterThanOrEqual(640);
});

test("the pages for a shopper saving data pass axe-core, on a phone and on a desktop", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  for (const device of [PHONE, devices["Desktop Chrome"]]) {
    const context = await browser.newContext({ ...device, baseURL, extraHTTPHeaders: { "Save-Data": "on" } });
    try {
      const page = await context.newPage();
      for (const path of ["/", `/products/${coffee!.slug}`, `/products/${WITH_OPTIONS}`, "/search?q=mel"]) {
        await page.goto(path);
        await expect(page.locator("[data-save-data]").first()).toBeAttached();
        await expectNoAxeViolations(page, `${path} saving data, ${device.viewport.width} px`);
      }
    } finally {
      await context.close();
    }
  }
});
