import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { pt } from "../lib/i18n/dictionaries";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, openCheckout, openPopup } from "./support/shop";

/**
 * The header's cart count after a payment: the PayButton reaches the result
 * page by client navigation, which keeps the layout (and its count) of the checkout page, and
 * the cart is emptied by a job after the webhook. The count must reach the server's 0 on the
 * result page by itself, without the shopper reloading. The error states (app/error.tsx,
 * app/global-error.tsx) have unit tests: provoking one here would need a route that fails on
 * something a client can send. A page of one order answers an order it does not know with the
 * status 404, not a 200 around a "not found".
 */

/** Marks this document; a reload (or any full navigation) loses the mark. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __statesSpecMark: true }));
const documentKept = (page: Page) =>
  page.evaluate(() => (window as unknown as { __statesSpecMark?: boolean }).__statesSpecMark === true);

/** The order id in /checkout/success/<id> or /checkout/pending/<id>. */
const orderIdIn = (url: string) => /order_[0-9a-f-]{36}/.exec(url)?.[0];

test("approved in the popup: the success page's header shows the emptied cart without a reload", async ({
  page,
  sandbox,
}) => {
  void sandbox; // the hosted checkout is the local sandbox's
  await addFromCatalog(page, DEMO_PRODUCTS[8]!.name);
  await addFromCatalog(page, DEMO_PRODUCTS[11]!.name);
  await openCheckout(page);
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await markDocument(page);

  const popup = await openPopup(page);
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  await expect(page.getByTestId("cart-count")).toHaveText("0", { timeout: 15_000 });
  expect(await documentKept(page), "the page was not reloaded").toBe(true);
});

test("paid by reference, confirmed while the pending page is open: the count drops to 0 without a reload", async ({
  page,
  sandbox,
}) => {
  await addFromCatalog(page, DEMO_PRODUCTS[10]!.name);
  await openCheckout(page);
  await markDocument(page);

  const popup = await openPopup(page);
  await popup.pay("FPSOLPGEXT");
  await expect(page).toHaveURL(/\/checkout\/pending\/order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());
  expect(id, `an order id in ${page.url()}`).toBeDefined();
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");
  // Not paid yet: the cart is only locked, and still counts its item.
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await sandbox.call("POST", `/orders/${id}/confirm`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  await expect(page.getByTestId("cart-count")).toHaveText("0", { timeout: 15_000 });
  expect(await documentKept(page), "the page was not reloaded").toBe(true);
});

test("a page of one order answers 404 for an unknown or malformed order id", async ({ page }) => {
  const unknown = `order_${randomUUID()}`;
  for (const path of [
    `/orders/${unknown}`,
    "/orders/not-an-order",
    `/orders/${unknown}/receipt`,
    `/checkout/success/${unknown}`,
    `/checkout/pending/${unknown}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: pt.notFound.title })).toBeVisible();
  }
  // The pages that keep their loading state are still there, at their addresses.
  for (const path of ["/orders", "/orders/lookup", "/checkout"]) {
    expect((await page.goto(path))?.status(), path).toBe(200);
  }
  // This browser's cart is empty: the checkout, already streaming, sends it on to the cart by itself.
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("heading", { name: pt.cart.title })).toBeVisible();
});
