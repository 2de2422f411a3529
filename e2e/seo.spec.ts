import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO_CATEGORIES, DEMO_PRODUCTS, DEMO_VARIANTS } from "../scripts/db/seed.mjs";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { expect, test } from "./support/fixtures";

/**
 * What search engines read (lib/seo/seo.ts): /robots.txt, the sitemap index (/sitemap.xml) and the sitemaps they name (/sitemap/<n>.xml), a product page's canonical link, Open Graph image and Product JSON-LD in
 * kwanza, and the Open Graph images (PNG, from opengraph-image.tsx) of product and category
 * pages. The page's CSP must raise no violation for the JSON-LD block (the fixtures fail the test on any).
 */

const appUrl = () => readE2eServerEnvironment().appUrl.replace(/\/+$/, "");
// The last demo product without options (whose JSON-LD is a Product, not a ProductGroup): the
// back-office spec edits the first one's price for a while.
const PRODUCT = DEMO_PRODUCTS.findLast((product) => !DEMO_VARIANTS[product.slug])!;

type ListedProduct = { slug: string; priceAoa: number; stock: number; image: string };

/** The <loc>s of a sitemap, after checking it is XML that proxy.ts left alone. */
async function locs(request: APIRequestContext, path: string): Promise<string[]> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  expect(response.headers()["content-type"], path).toContain("xml");
  // Not a page: proxy.ts leaves it without a nonce and policy.
  expect(response.headers()["content-security-policy"], path).toBeUndefined();
  return [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
}

/** The sitemaps robots.txt names. */
async function sitemapsOf(request: APIRequestContext): Promise<string[]> {
  const robots = await (await request.get("/robots.txt")).text();
  return [...robots.matchAll(/^Sitemap: (\S+)$/gm)].map((match) => match[1]!);
}

test("the sitemaps robots.txt names list the catalogue page, the categories and every product on sale", async ({
  request,
}) => {
  const sitemaps = await sitemapsOf(request);
  expect(sitemaps[0]).toBe(`${appUrl()}/sitemap/0.xml`);
  const urls: string[] = [];
  for (const sitemap of sitemaps) urls.push(...(await locs(request, new URL(sitemap).pathname)));

  expect(urls).toContain(`${appUrl()}/`);
  for (const category of DEMO_CATEGORIES)
    expect(urls, category.slug).toContain(`${appUrl()}/categories/${category.slug}`);
  const onSale = (await (await request.get("/api/products")).json()) as ListedProduct[];
  const slugs = new Set([...DEMO_PRODUCTS.map((product) => product.slug), ...onSale.map((product) => product.slug)]);
  for (const slug of slugs) expect(urls, slug).toContain(`${appUrl()}/products/${slug}`);
  expect(new Set(urls).size, "each address once").toBe(urls.length);
  expect((await request.get(`/sitemap/${sitemaps.length}.xml`)).status()).toBe(404);
  // The index at /sitemap.xml, where crawlers and SEO tools look first, names the same sitemaps.
  expect(await locs(request, "/sitemap.xml")).toEqual(sitemaps);
});

test("/robots.txt keeps crawlers out of the shop's private paths and points to the sitemaps", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-security-policy"]).toBeUndefined();
  const lines = (await response.text()).split("\n").map((line) => line.trim());
  for (const path of ["/admin", "/api", "/checkout", "/cart", "/orders"]) expect(lines).toContain(`Disallow: ${path}`);
  expect(lines).toContain(`Sitemap: ${appUrl()}/sitemap/0.xml`);
});

test("a product page carries its canonical URL and Product JSON-LD in AOA, with the product's own image", async ({
  page,
  request,
}) => {
  const url = `${appUrl()}/products/${PRODUCT.slug}`;
  await page.goto(`/products/${PRODUCT.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: PRODUCT.name })).toBeVisible();

  const listed = ((await (await request.get("/api/products")).json()) as ListedProduct[]).find(
    (product) => product.slug === PRODUCT.slug,
  )!;
  expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(url);
  expect(await page.locator('meta[property="og:url"]').getAttribute("content")).toBe(url);

  const blocks = page.locator('script[type="application/ld+json"]');
  await expect(blocks).toHaveCount(1);
  const jsonLd = JSON.parse((await blocks.textContent())!) as Record<string, unknown> & {
    offers: Record<string, unknown>;
  };
  expect(jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Product",
    name: PRODUCT.name,
    image: [`${appUrl()}${listed.image}`],
    url,
  });
  expect(jsonLd.offers).toMatchObject({ "@type": "Offer", priceCurrency: "AOA", price: listed.priceAoa });
  expect(jsonLd.offers.availability).toBe(
    listed.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
  );
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-AO");
});

test("in English the page says so in <html lang>, and what search engines read stays the same", async ({
  page,
  request,
}) => {
  await page.goto(`/products/${PRODUCT.slug}`);
  const seo = () =>
    Promise.all([
      page.locator('link[rel="canonical"]').getAttribute("href"),
      page.locator('script[type="application/ld+json"]').textContent(),
    ]);
  const inPortuguese = await seo();
  await page.context().addCookies([{ name: "lang", value: "en", url: appUrl() }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(await seo()).toEqual(inPortuguese);
  // The Open Graph image's address carries the page's language (Next writes it from the route), and answers.
  const image = await ogImage(page);
  expect(new URL(image).pathname).toMatch(imageAddress(`/en/products/${PRODUCT.slug}`));
  await expectPng(request, image);
});

/**
 * The address Next gives the Open Graph image of the page at `path` (with its language): its
 * folder is in the (shop) route group, for which Next adds a suffix of its own to the name.
 */
const imageAddress = (path: string) => new RegExp(`^${path}/opengraph-image(?:-[a-z0-9]+)?$`);

/** The same image's address for another product or category, one that does not exist. */
const missingImage = (image: string, kind: "products" | "categories") =>
  new URL(image).pathname.replace(new RegExp(`/${kind}/[^/]+/`), `/${kind}/nao-existe/`);

/** The page's og:image, after checking Next wrote its type, size and text alternative. */
async function ogImage(page: Page): Promise<string> {
  const meta = (property: string) => page.locator(`meta[property="og:image${property}"]`).getAttribute("content");
  expect(await meta(":type")).toBe("image/png");
  expect(await meta(":width")).toBe("1200");
  expect(await meta(":height")).toBe("630");
  expect(await meta(":alt")).toBeTruthy();
  await expect(page.locator('meta[property="og:image"]')).toHaveCount(1);
  return (await meta(""))!;
}

/** `url` answers a 1200×630 PNG, cached like the pages and left alone by proxy.ts. */
async function expectPng(request: APIRequestContext, url: string) {
  // A crawler's request: no cookie.
  const response = await request.get(url, { headers: { cookie: "" } });
  expect(response.status(), url).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  expect(response.headers()["content-security-policy"]).toBeUndefined();
  expect(response.headers()["cache-control"]).toMatch(/s-maxage=30\b/);
  const png = await response.body();
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
}

test("a product page's Open Graph image is a PNG of its own, under the shop's address", async ({ page, request }) => {
  await page.goto(`/products/${PRODUCT.slug}`);
  const image = await ogImage(page);
  expect(image.startsWith(appUrl()), image).toBe(true);
  expect(new URL(image).pathname).toMatch(imageAddress(`/pt/products/${PRODUCT.slug}`));
  await expectPng(request, image);
  // Served from the cache once rendered.
  expect((await request.get(image)).headers()["x-nextjs-cache"]).toMatch(/HIT|STALE/);
  const missing = await request.get(missingImage(image, "products"));
  expect(missing.status()).toBe(404);
  // Not for good: a product restored later gets its image within the pages' 30 s.
  expect(missing.headers()["cache-control"]).not.toMatch(/s-maxage=31536000/);
});

test("a category page's Open Graph image is a PNG of its own too", async ({ page, request }) => {
  let image = "";
  for (const category of [DEMO_CATEGORIES[0]!, DEMO_CATEGORIES.find((c) => c.parent)!]) {
    await page.goto(`/categories/${category.slug}`);
    image = await ogImage(page);
    expect(image.startsWith(appUrl()), image).toBe(true);
    expect(new URL(image).pathname).toMatch(imageAddress(`/pt/categories/${category.slug}`));
    await expectPng(request, image);
  }
  expect((await request.get(missingImage(image, "categories"))).status()).toBe(404);
});

test("every page links the web app manifest, which is served as JSON with its icons, and says the theme colour", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#9a3412");
  const response = await request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await response.json()) as { start_url: string; icons: { src: string }[] };
  expect(manifest.start_url).toBe("/");
  for (const icon of manifest.icons) {
    const image = await request.get(icon.src);
    expect(`${image.status()} ${image.headers()["content-type"]}`, icon.src).toBe("200 image/png");
  }
});
