import type { Page } from "@playwright/test";
import { DEMO_PRODUCTS, DEMO_VARIANTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { kwanza, openCheckout, openPopup } from "./support/shop";

/**
 * A product with options, from the shelf to the paid order: the demo's camisola in
 * Tamanho × Cor. The shopper picks a size and a colour, sees the price, availability and image
 * follow, cannot add a sold-out combination nor one the shop does not sell, shares the choice by
 * its URL, pays in the sandbox's popup, and the back office shows the variant on the paid order.
 * On the desktop ("pay") and on a phone ("phone"), with axe on the product page.
 */

const SLUG = "camisola-palancas-negras";
const product = DEMO_PRODUCTS.find((candidate) => candidate.slug === SLUG)!;
const demo = DEMO_VARIANTS[SLUG]!;
const variant = (size: string, colour: string) =>
  demo.variants.find((candidate) => candidate.options.Tamanho === size && candidate.options.Cor === colour)!;

/** Chooses `value` in the option picker's radio group `option`, as a shopper taps it. */
async function choose(page: Page, option: string, value: string) {
  const group = page.getByRole("group", { name: new RegExp(`^${option}`) });
  await group
    .locator("label")
    .filter({ hasText: new RegExp(`^${value}(\\(|$)`) })
    .click();
  await expect(group.getByRole("radio", { checked: true })).toHaveAttribute("value", value);
}

const price = (page: Page) => page.getByTestId("product-purchase").getByTestId("price");
const addButton = (page: Page) => page.getByTestId("product-purchase").getByRole("button");

test("pick a size and a colour, see the price and image follow, pay, and find the variant in the back office", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.goto(`/products/${SLUG}`);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  // The first combination in stock is chosen to begin with.
  await expect(price(page)).toHaveText(kwanza.format(variant("P", "Vermelha").priceAoa));
  await expectNoAxeViolations(page, `product page with options (${testInfo.project.name})`);

  // XG costs more.
  await choose(page, "Tamanho", "XG");
  await expect(price(page)).toHaveText(kwanza.format(variant("XG", "Vermelha").priceAoa));
  await expect(addButton(page)).toBeEnabled();

  // XG in black is sold out: shown, not addable.
  await choose(page, "Cor", "Preta");
  await expect(page.getByTestId("product-purchase").getByTestId("stock")).toHaveText(pt.catalog.soldOut);
  await expect(addButton(page)).toBeDisabled();
  await expect(addButton(page)).toHaveText(pt.catalog.soldOut);

  // Black is not made in P: shown as such, not addable.
  await choose(page, "Tamanho", "P");
  await expect(addButton(page)).toBeDisabled();
  await expect(addButton(page)).toHaveText(pt.product.combinationMissing);

  // M in black: its own SKU, and the gallery shows the black camisola.
  await choose(page, "Tamanho", "M");
  const chosen = variant("M", "Preta");
  await expect(price(page)).toHaveText(kwanza.format(chosen.priceAoa));
  await expect(page.getByTestId("sku")).toHaveText(chosen.sku);
  await expect(page.locator(`input[data-path="${chosen.imagePath}"]`)).toBeChecked();
  await expect(addButton(page)).toBeEnabled();

  // The choice is in the URL: a reload (or a shared link) shows it again.
  await expect(page).toHaveURL(/\?variant=[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.getByRole("group", { name: /^Tamanho/ }).getByRole("radio", { checked: true })).toHaveAttribute(
    "value",
    "M",
  );
  await expect(page.getByRole("group", { name: /^Cor/ }).getByRole("radio", { checked: true })).toHaveAttribute(
    "value",
    "Preta",
  );
  await expect(page.getByTestId("sku")).toHaveText(chosen.sku);

  await addButton(page).click();
  await expect(page.getByRole("status").filter({ hasText: pt.cartNotices.added })).toBeVisible();
  const lineName = `${product.name}, M, Preta`;
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line").filter({ hasText: lineName })).toBeVisible();

  await openCheckout(page);
  await expect(page.getByTestId("cart-line").filter({ hasText: lineName })).toBeVisible();
  const popup = await openPopup(page);
  await expect(popup.amount).toHaveText(kwanza.format(chosen.priceAoa));
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  const externalTransactionId = /(order_[0-9a-f-]{36})/.exec(page.url())![1]!;

  const [line] = await query<{ variant_title: string; sku: string }>(
    `SELECT l.variant_title, l.sku FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.external_transaction_id = $1`,
    [externalTransactionId],
  );
  expect(line).toEqual({ variant_title: "M, Preta", sku: chosen.sku });

  await signInToBackOffice(page);
  await page.goto(`/admin/orders/${externalTransactionId}`);
  await expect(page.getByText(`1 × ${lineName}`).first()).toBeVisible();
  await expect(page.getByText(chosen.sku, { exact: true }).first()).toBeVisible();
});
