import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { query } from "./support/database";
import { addFromCatalog, kwanza, payButton } from "./support/shop";
import { en, pt } from "../lib/i18n/dictionaries";

/** Browsing and the server-side cart, without paying (so without calling the service). */

const [coffee, cloth] = DEMO_PRODUCTS;

const cartTotal = (page: import("@playwright/test").Page) => page.getByTestId("cart-total").textContent();

test("the cart: add from the catalogue, change a quantity, remove a line; totals come from the server", async ({
  page,
}) => {
  await addFromCatalog(page, coffee!.name);
  await addFromCatalog(page, cloth!.name);

  await page.getByRole("link", { name: new RegExp(`^${pt.shop.cart}`) }).click();
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  expect(await cartTotal(page)).toBe(kwanza.format(coffee!.priceAoa + cloth!.priceAoa));

  await page.getByLabel(`Quantidade de ${coffee!.name}`).fill("3");
  await page
    .getByTestId("cart-line")
    .filter({ hasText: coffee!.name })
    .getByRole("button", { name: pt.cart.update })
    .click();
  await expect(page.getByTestId("cart-count")).toHaveText("4");
  expect(await cartTotal(page)).toBe(kwanza.format(3 * coffee!.priceAoa + cloth!.priceAoa));

  await page.getByRole("button", { name: `Remover ${cloth!.name}` }).click();
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  expect(await cartTotal(page)).toBe(kwanza.format(3 * coffee!.priceAoa));
});

test("a quantity above the stock is lowered to it, and the shopper is told", async ({ page }) => {
  const scarce = DEMO_PRODUCTS.reduce((least, product) =>
    product.initialStock < least.initialStock ? product : least,
  );
  await page.goto(`/products/${scarce.slug}`);
  // A shopper editing the form (or a crafted POST) asks for far more than there is.
  await page.getByLabel(pt.product.quantity).evaluate((input: HTMLInputElement) => input.removeAttribute("max"));
  await page.getByLabel(pt.product.quantity).fill("99");
  await page.getByRole("button", { name: pt.catalog.addToCart }).click();
  // The header fetches its count (components/cart/header-cart-count.tsx): wait for a number above 0.
  await expect(page.getByTestId("cart-count")).toHaveText(/^[1-9]\d*$/);
  const count = Number(await page.getByTestId("cart-count").textContent());
  expect(count).toBeLessThanOrEqual(scarce.initialStock);
  // The shopper is told the quantity became all there is: what is now in the cart.
  await expect(page.getByRole("status").filter({ hasText: pt.cartNotices.capped(count) })).toBeVisible();
});

test("a cart over the shop's caps on units, lowered after it was filled, says so and cannot be checked out", async ({
  page,
}) => {
  const plentiful = coffee!; // 30 in stock, more than the line will ask for
  await addFromCatalog(page, plentiful.name);
  // As if the cart had been filled before MAX_UNITS_PER_LINE was lowered to its default, 10.
  const cartId = (await page.context().cookies()).find((cookie) => cookie.name === "cart_id")!.value;
  await query("UPDATE cart_lines SET quantity = 12 WHERE cart_id = $1", [cartId]);

  await page.goto("/cart");
  await expect(page.getByTestId("cart-line").getByText(pt.cart.overLineLimit(10))).toBeVisible();
  await expect(page.getByText(pt.cart.fixLimitsFirst(50))).toBeVisible();
  await expect(page.getByRole("link", { name: pt.cart.checkout })).toHaveCount(0);
  // The checkout page sends the shopper back to the cart rather than to a refusal at payment.
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/cart$/);

  // Lowered to the cap, the cart can be checked out again.
  await page.getByLabel(`Quantidade de ${plentiful.name}`).fill("10");
  await page.getByTestId("cart-line").getByRole("button", { name: pt.cart.update }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("10");
  await expect(page.getByText(pt.cart.fixLimitsFirst(50))).toHaveCount(0);
});

test("an unknown product is a 404 page", async ({ page }) => {
  const response = await page.goto("/products/nao-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: pt.notFound.title })).toBeVisible();
});

test("English is one click away and stays chosen", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: pt.shop.switchTo(pt.shop.languageNames.en) }).click();
  await expect(page.getByRole("heading", { level: 1, name: en.catalog.title })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.goto(`/products/${coffee!.slug}`);
  await expect(page.getByRole("button", { name: en.catalog.addToCart })).toBeVisible();
  // Prices stay kwanza formatted for Angola whatever the language.
  expect(await page.getByTestId("price").textContent()).toBe(kwanza.format(coffee!.priceAoa));
});

test("product and cart pages at phone and desktop widths", async ({ page }, testInfo) => {
  await addFromCatalog(page, coffee!.name);
  await page.goto(`/products/${coffee!.slug}`);
  await screenshotAtEachWidth(page, testInfo, "product");
  await page.goto("/cart");
  await screenshotAtEachWidth(page, testInfo, "cart");
});

test("the cached pages refuse every other origin's scripts; the checkout's policy has a nonce the SDK's tag gets", async ({
  page,
}) => {
  for (const path of ["/", `/products/${coffee!.slug}`]) {
    const cached = await page.goto(path);
    const policy = cached?.headers()["content-security-policy"] ?? "";
    expect(policy, path).toContain("script-src 'self' 'unsafe-inline';");
    expect(policy, path).not.toMatch(/nonce|https?:/);
    expect(policy, path).toContain("frame-ancestors 'none'");
  }
  const cart = await page.goto("/cart");
  expect(cart?.headers()["content-security-policy"]).toMatch(
    /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/,
  );

  await addFromCatalog(page, coffee!.name);
  const checkout = await page.goto("/checkout");
  const nonce = /'nonce-([^']+)'/.exec(checkout?.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, "a nonce for this response").toBeDefined();
  await page.getByLabel(pt.checkout.name).fill("Ana Teste");
  await page.getByLabel(pt.checkout.phone).fill("+244 923 456 789");
  await payButton(page);
  // The nonce attribute is hidden from the DOM once applied; the property keeps it.
  const sdkTag = page.locator(`script[src="${readE2eServerEnvironment().sdkUrl}"]`);
  expect(await sdkTag.evaluate((script: HTMLScriptElement) => script.nonce)).toBe(nonce);
});
