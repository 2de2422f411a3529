import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { readablePhone } from "../lib/phone";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { newPhoneKey, signInByPhone } from "./support/phone-sign-in";
import { addFromCatalog, openPopup, payButton } from "./support/shop";

/**
 * The checkout of a shopper signed in by phone, on a phone's width: the verified phone shown and
 * not an input, the name, e-mail and NIF from the account; an address typed with "Guardar este
 * endereço" is kept on the account once the order exists, and the next checkout delivers to it
 * without a thing to type. The order carries the account's phone.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("signed in: the checkout is filled from the account, keeps a typed address, and the next checkout has it", async ({
  page,
}, testInfo) => {
  // Two checkouts, a payment in the popup and two axe runs.
  test.setTimeout(120_000);
  const at = (name: string) => `${name} (${testInfo.project.name}, 390 px)`;
  const product = DEMO_PRODUCTS[6]!;
  const phone = newPhoneKey();
  const street = `Rua ${phone.slice(-4)}, casa 12`;

  await signInByPhone(page, `0${phone}`);
  // What the shopper keeps on the account (/account): the checkout starts from it.
  await query(`UPDATE shoppers SET name = $2, contact_email = $3 WHERE phone_number = $1`, [
    phone,
    "Ana Teste",
    "ana.teste@exemplo.ao",
  ]);

  await addFromCatalog(page, product.name);
  await page.goto("/checkout");
  await expect(page.getByTestId("checkout-phone")).toHaveText(readablePhone(phone));
  await expect(page.locator('input[name="phone"]')).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: pt.checkout.phone })).toHaveCount(0);
  await expect(page.getByRole("link", { name: pt.checkout.signIn })).toHaveCount(0);
  await expect(page.getByLabel(pt.checkout.name, { exact: true })).toHaveValue("Ana Teste");
  await expect(page.getByLabel(pt.checkout.email, { exact: true })).toHaveValue("ana.teste@exemplo.ao");

  // No address saved yet: one typed, and kept.
  await page.getByRole("radio", { name: pt.checkout.homeDelivery }).check();
  await page.getByLabel(pt.checkout.municipality, { exact: true }).selectOption("Talatona");
  await page.getByLabel(pt.checkout.neighbourhood, { exact: true }).fill("Camama");
  await page.getByLabel(pt.checkout.street, { exact: true }).fill(street);
  await page.getByLabel(pt.checkout.reference, { exact: true }).fill("Ao lado da escola");
  await page.getByRole("checkbox", { name: pt.checkout.saveAddress }).check();
  await payButton(page);
  await expectNoAxeViolations(page, at("checkout, signed in, an address typed"));

  const created = page.waitForResponse((response) => response.url().endsWith("/api/pay/create-order"));
  const popup = await openPopup(page);
  const answer = (await (await created).json()) as { externalTransactionId: string; addressSaved?: string };
  expect(answer.addressSaved).toBe("saved");
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  await expect(page.getByTestId("cart-count")).toHaveText("0", { timeout: 15_000 });
  expect(
    await query(
      `SELECT customer_phone, delivery_address->>'street' AS street FROM orders WHERE external_transaction_id = $1`,
      [answer.externalTransactionId],
    ),
  ).toEqual([{ customer_phone: phone, street }]);
  expect(
    await query(
      `SELECT a.street, a.is_default FROM shopper_addresses a JOIN shoppers s ON s.id = a.shopper_id WHERE s.phone_number = $1`,
      [phone],
    ),
  ).toEqual([{ street, is_default: true }]);

  // The next checkout: delivered to the saved address, nothing to type but to pay.
  await addFromCatalog(page, product.name);
  await page.goto("/checkout");
  await expect(page.getByRole("radio", { name: pt.checkout.homeDelivery })).toBeChecked();
  const saved = page.getByTestId("saved-addresses");
  await expect(saved.getByRole("radio", { name: new RegExp(street) })).toBeChecked();
  await expect(saved).toContainText(pt.checkout.defaultAddress);
  await expect(page.getByLabel(pt.checkout.street, { exact: true })).toHaveCount(0);
  await expect(page.getByTestId("checkout-phone")).toHaveText(readablePhone(phone));
  await payButton(page);
  await expectNoAxeViolations(page, at("checkout, signed in, a saved address chosen"));

  // Another address may still be typed instead.
  await saved.getByRole("radio", { name: pt.checkout.otherAddress }).check();
  await expect(page.getByLabel(pt.checkout.street, { exact: true })).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: pt.checkout.saveAddress })).not.toBeChecked();
});
