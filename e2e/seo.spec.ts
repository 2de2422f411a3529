import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { expect, test } from "./support/fixtures";

/**
 * What search engines read (lib/seo.ts): /sitemap.xml from the catalogue, /robots.txt, and a
 * product page's canonical link, Open Graph image and Product JSON-LD in kwanza. The page's
 * CSP must raise no violation for the JSON-LD block (the fixtures fail the test on any).
 */

const appUrl = () => readE2eServerEnvironment().appUrl.replace(/\/+$/, "");
// The last demo product: the back-office spec edits the first one's price for a while.
const PRODUCT = DEMO_PRODUCTS[DEMO_PRODUCTS.length - 1]!;

type ListedProduct = { slug: string; priceAoa: number; stock: number; image: string };

test("/sitemap.xml lists the catalogue page and every product on sale", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("xml");
  // Not a page: proxy.ts leaves it without a nonce and policy.
  expect(response.headers()["content-security-policy"]).toBeUndefined();
  const xml = await response.text();
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);

  expect(urls).toContain(`${appUrl()}/`);
  const onSale = (await (await request.get("/api/products")).json()) as ListedProduct[];
  const slugs = new Set([...DEMO_PRODUCTS.map((product) => product.slug), ...onSale.map((product) => product.slug)]);
  for (const slug of slugs) expect(urls, slug).toContain(`${appUrl()}/products/${slug}`);
});

test("/robots.txt keeps crawlers out of the shop's private paths and points to the sitemap", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-security-policy"]).toBeUndefined();
  const lines = (await response.text()).split("\n").map((line) => line.trim());
  for (const path of ["/admin", "/api", "/checkout", "/cart", "/orders"]) expect(lines).toContain(`Disallow: ${path}`);
  expect(lines).toContain(`Sitemap: ${appUrl()}/sitemap.xml`);
});

test("a product page carries its canonical URL, Open Graph image and Product JSON-LD in AOA", async ({
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
  expect(await page.locator('meta[property="og:image"]').getAttribute("content")).toBe(`${appUrl()}${listed.image}`);
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

test("in English the page says so in <html lang>, and what search engines read stays the same", async ({ page }) => {
  await page.goto(`/products/${PRODUCT.slug}`);
  const seo = () =>
    Promise.all([
      page.locator('link[rel="canonical"]').getAttribute("href"),
      page.locator('meta[property="og:image"]').getAttribute("content"),
      page.locator('script[type="application/ld+json"]').textContent(),
    ]);
  const inPortuguese = await seo();
  await page.context().addCookies([{ name: "lang", value: "en", url: appUrl() }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(await seo()).toEqual(inPortuguese);
});
