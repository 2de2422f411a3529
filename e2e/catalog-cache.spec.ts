import { randomUUID } from "node:crypto";
import type { APIResponse, Page } from "@playwright/test";
import { PRODUCT_PNG, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { kwanza, pickupDelivery } from "./support/shop";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The catalogue and product pages come from Next's cache (lib/catalog/cached-pages.ts), and follow the
 * database within seconds: a product created in the back office appears, a checkout that reserves
 * its last units shows it sold out, its cancellation puts them back (the CAN webhook's job, in the
 * drain after it), and a price edit shows the new price, each within 5 s (the pages' own expiry is
 * 30 s), while the pages are still answered from the cache between changes.
 */

const WITHIN_MS = 5_000;

/** Next says where a page came from; a page of the cache is HIT (or STALE while it is being rendered again). */
const fromCache = (response: APIResponse) => ["HIT", "STALE"].includes(response.headers()["x-nextjs-cache"] ?? "");

const slug = `cache-test-${randomUUID().slice(0, 8)}`;
const name = `Produto de cache ${slug.slice(-8)}`;

let createdId: string | undefined;

test.afterAll(async ({ browser }) => {
  if (!createdId) return;
  // Archived through the back office (its order keeps it in the database), so it leaves the cached pages at once.
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    expect((await page.request.post(`/api/admin/products/${createdId}/archive`)).ok()).toBe(true);
  } finally {
    await page.close();
  }
});

/** The page's HTML as a shopper's browser would get it, within WITHIN_MS of the change, once it holds `text`. */
async function expectPageSoon(page: Page, path: string, text: string) {
  await expect
    .poll(async () => (await (await page.request.get(path)).text()).includes(text), {
      timeout: WITHIN_MS,
      intervals: [250],
    })
    .toBe(true);
}

test("a product's creation, its last units reserved and put back, and a price edit reach the cached pages within 5 s", async ({
  page,
  sandbox,
}) => {
  // Served from the cache before any change. A change an earlier test made (a hold released in the
  // background, a product archived) leaves the page stale, and its next visit renders it again: the
  // visits after that one are answered from the cache.
  await expect
    .poll(async () => (await page.request.get("/")).headers()["x-nextjs-cache"], {
      message: "GET / is served from the cache",
      timeout: WITHIN_MS,
      intervals: [250],
    })
    .toMatch(/^(HIT|STALE)$/);
  const home = await page.request.get("/");
  expect(home.status()).toBe(200);
  expect(home.headers()["cache-control"]).toMatch(/s-maxage=/);

  await signInToBackOffice(page);
  const created = await page.request.post("/api/admin/products", {
    multipart: {
      name,
      slug,
      description: "Um produto só deste teste.",
      priceAoa: "1500",
      stock: "2",
      image: { name: "p.png", mimeType: "image/png", buffer: PRODUCT_PNG },
    },
    headers: { accept: "application/json" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { product } = (await created.json()) as { product: { id: string } };
  createdId = product.id;

  await expectPageSoon(page, "/", name);
  await expectPageSoon(page, `/products/${slug}`, pt.catalog.lowStock(2));
  expect(fromCache(await page.request.get(`/products/${slug}`)), "the product page is cached once rendered").toBe(true);

  // A checkout reserves both units: sold out, on both pages.
  const order = await page.request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product.id, quantity: 2 }],
      delivery: await pickupDelivery((path) => page.request.get(path)),
    },
  });
  expect(order.status(), await order.text()).toBe(200);
  const [row] = await query<{ stock: number }>("SELECT stock FROM products WHERE id = $1", [product.id]);
  expect(row!.stock).toBe(0);
  await expectPageSoon(page, `/products/${slug}`, pt.catalog.soldOut);
  // The catalogue in the browser, as a shopper sees it.
  await expect
    .poll(
      async () => {
        await page.goto("/");
        const card = page.getByTestId("product-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
        return card.textContent();
      },
      { timeout: WITHIN_MS, intervals: [250] },
    )
    .toContain(pt.catalog.soldOut);

  // The shopper cancels: the CAN webhook's release-stock job puts both units back, and the drain
  // that ran it marks the pages stale.
  const { externalTransactionId } = (await order.json()) as { externalTransactionId: string };
  expect(fromCache(await page.request.get(`/products/${slug}`)), "sold out, from the cache").toBe(true);
  await sandbox.cancel(externalTransactionId);
  await expectPageSoon(page, `/products/${slug}`, pt.catalog.lowStock(2));

  // The owner changes the price in the back office.
  const edited = await page.request.post(`/api/admin/products/${product.id}`, {
    data: { name, slug, description: "Um produto só deste teste.", priceAoa: 2750 },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  await expectPageSoon(page, `/products/${slug}`, kwanza.format(2750));
  await expectPageSoon(page, "/", kwanza.format(2750));
});

test("category pages come from the cache, with the cached pages' policy; /search is rendered per request", async ({
  page,
}) => {
  await page.request.get("/categories/mercearia");
  const category = await page.request.get("/categories/mercearia");
  expect(category.status()).toBe(200);
  expect(fromCache(category), "GET /categories/mercearia is served from the cache").toBe(true);
  expect(category.headers()["content-security-policy"]).not.toContain("nonce-");
  // A page past the last is a 404, never a cached empty listing.
  expect((await page.request.get("/categories/mercearia/page/2")).status()).toBe(404);
  expect((await page.request.get("/page/1")).status()).toBe(404);

  const search = await page.request.get("/search?q=cafe");
  expect(search.status()).toBe(200);
  expect(search.headers()["x-nextjs-cache"]).toBeUndefined();
  expect(search.headers()["cache-control"]).toMatch(/no-store|private/);
  expect(await search.text()).toContain("Café de Angola torrado, 1 kg");
});
