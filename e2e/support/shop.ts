import type { Page } from "@playwright/test";
import { openHostedCheckout, type HostedCheckout } from "pay-sandbox/playwright";
import { expect } from "./fixtures";
import { pt } from "../../lib/i18n/dictionaries";

/** What the browser tests do in the shop, the way a shopper does it. */

export const kwanza = new Intl.NumberFormat("pt-AO", { style: "currency", currency: "AOA", maximumFractionDigits: 0 });

export const CUSTOMER = { name: "Ana Teste", phone: "+244 923 456 789" };

/** Adds `productName` from the catalogue (one unit) and waits for the header's count to show it. */
export async function addFromCatalog(page: Page, productName: string): Promise<void> {
  await page.goto("/");
  // The count is fetched once the page has loaded (components/cart/header-cart-count.tsx).
  await expect(page.getByTestId("cart-count")).toHaveText(/^\d+$/);
  const before = Number(await page.getByTestId("cart-count").textContent());
  await page.getByRole("button", { name: pt.catalog.addNamedToCart(productName) }).click();
  await expect(page.getByTestId("cart-count")).toHaveText(String(before + 1));
}

/** Opens the checkout page and fills in the customer, so the PayButton appears. */
export async function openCheckout(page: Page, customer = CUSTOMER): Promise<void> {
  await page.goto("/checkout");
  await page.getByLabel(pt.checkout.name).fill(customer.name);
  await page.getByLabel(pt.checkout.phone).fill(customer.phone);
}

/** What the SDK rendered inside the PayButton, once it is clickable (any SDK: the local sandbox's or the service's). */
export async function payButton(page: Page) {
  const wrapper = page.getByTestId("pay-button");
  await expect(wrapper).toHaveAttribute("data-state", "ready", { timeout: 15_000 });
  const button = wrapper.getByTestId("pay-button-container").getByRole("button");
  await expect(button).toBeEnabled();
  return button;
}

/** Clicks the PayButton and returns the sandbox's hosted checkout (pay-sandbox/playwright), once it shows the order. */
export async function openPopup(page: Page): Promise<HostedCheckout> {
  return openHostedCheckout(page, await payButton(page));
}

/**
 * A pickup at the shop's first pickup point, for checkouts made over HTTP: a shop that offers
 * delivery methods (the demo data does) needs one named. `get` fetches a path of the shop.
 */
export async function pickupDelivery(get: (path: string) => Promise<{ json(): Promise<unknown> }>) {
  const options = (await (await get("/api/delivery-options")).json()) as { pickupPoints: { id: string }[] };
  return { method: "pickup" as const, pickupPointId: options.pickupPoints[0]!.id };
}
