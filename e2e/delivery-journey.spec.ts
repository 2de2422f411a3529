import { randomUUID } from "node:crypto";
import { DEMO_DELIVERY_ZONES } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, kwanza, openPopup, payButton } from "./support/shop";

/**
 * From the cart to the shopper's door: the shopper chooses delivery to an Angolan
 * address, its zone and fee following the municipality chosen from the ones the shop serves, applies a promo code and sees its effect, pays in the sandbox's popup the
 * amount the server computed (subtotal − discount + fee), receives the shop's confirmation mail
 * (in the outbox), and later finds the order from another device by its number and phone; the
 * merchant marks it shipped, then delivered, and the shopper's page shows each step. On the
 * desktop ("pay") and on a phone ("phone"), with axe on the checkout and the order page.
 */

const ZONE = DEMO_DELIVERY_ZONES.find((zone) => zone.name === "Kilamba")!;
const ADDRESS = {
  municipality: ZONE.municipalities[0]!,
  neighbourhood: "Centralidade do Kilamba",
  street: "Bloco Q, prédio 12, 3.º B",
  reference: "Em frente à escola primária",
};

test("deliver to a zone with an address and a promo code, pay, and find the order again", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const code = `E2E${randomUUID().slice(0, 8).toUpperCase()}`;
  await query(`INSERT INTO promo_codes (code, kind, value) VALUES ($1, 'percent', 10)`, [code]);
  const products = (await (await page.request.get("/api/products")).json()) as {
    id: string;
    name: string;
    priceAoa: number;
    stock: number;
    hasOptions: boolean;
  }[];
  const product = products.find((candidate) => !candidate.hasOptions && candidate.stock > 5)!;
  await addFromCatalog(page, product.name);

  // On the cart: a code that does not exist is refused with its reason; a real one shows its effect.
  await page.goto("/cart");
  await page.getByLabel(pt.checkout.promo).fill("NAOEXISTE");
  await page.getByRole("button", { name: pt.checkout.promoApply }).click();
  await expect(page.getByText(pt.checkout.promoErrors.promo_unknown)).toBeVisible();
  await page.getByLabel(pt.checkout.promo).fill(code.toLowerCase());
  await page.getByRole("button", { name: pt.checkout.promoApply }).click();
  const discount = Math.floor((product.priceAoa * 10) / 100);
  await expect(page.getByTestId("cart-discount")).toHaveText(`−${kwanza.format(discount)}`);
  await expect(page.getByTestId("cart-total-after-discount")).toHaveText(kwanza.format(product.priceAoa - discount));
  await page.getByRole("link", { name: pt.cart.checkout }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout\\?promo=${code}$`));

  // At checkout the code is applied again; a pickup point is chosen to begin with: free.
  await expect(page.getByText(pt.checkout.promoApplied(code, kwanza.format(discount)))).toBeVisible();
  await page.getByLabel(pt.checkout.name).fill("Ana Teste");
  await page.getByLabel(pt.checkout.phone).fill("+244 923 456 789");
  await page.getByLabel(pt.checkout.email).fill("ana.teste@exemplo.ao");
  await expect(page.getByTestId("checkout-delivery-fee")).toHaveText(pt.checkout.free);

  // The zone is not the shopper's to pick: the municipality decides it, and its fee shows once chosen.
  await page.getByRole("radio", { name: new RegExp(pt.checkout.homeDelivery) }).check();
  await expect(page.getByTestId("checkout-delivery-fee")).toHaveText("—");
  // No button until the address is complete.
  await expect(page.getByText(pt.checkout.fillToPay)).toBeVisible();
  await expect(page.getByLabel(pt.checkout.province)).toHaveValue("Luanda");
  await page.getByLabel(pt.checkout.municipality, { exact: true }).selectOption(ADDRESS.municipality);
  await expect(page.getByTestId("checkout-delivery-fee")).toHaveText(kwanza.format(ZONE.feeAoa));
  await page.getByLabel(pt.checkout.neighbourhood).fill(ADDRESS.neighbourhood);
  await page.getByLabel(pt.checkout.street).fill(ADDRESS.street);
  await page.getByLabel(pt.checkout.reference).fill(ADDRESS.reference);

  await expect(page.getByTestId("checkout-discount")).toHaveText(`−${kwanza.format(discount)}`);
  const total = product.priceAoa - discount + ZONE.feeAoa;
  await expect(page.getByTestId("checkout-total")).toHaveText(kwanza.format(total));
  await payButton(page);
  await expectNoAxeViolations(page, `checkout with delivery and a promo code (${testInfo.project.name})`);

  const popup = await openPopup(page);
  await expect(popup.amount).toHaveText(kwanza.format(total));
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  const externalTransactionId = /(order_[0-9a-f-]{36})/.exec(page.url())![1]!;

  const [order] = await query<Record<string, unknown>>(
    `SELECT amount_aoa, subtotal_aoa, discount_aoa, delivery_fee_aoa, delivery_method, delivery_zone_name,
            delivery_address, customer_email, promo_code
     FROM orders WHERE external_transaction_id = $1`,
    [externalTransactionId],
  );
  expect(order).toEqual({
    amount_aoa: total,
    subtotal_aoa: product.priceAoa,
    discount_aoa: discount,
    delivery_fee_aoa: ZONE.feeAoa,
    delivery_method: "delivery",
    delivery_zone_name: ZONE.name,
    delivery_address: { province: "Luanda", ...ADDRESS },
    customer_email: "ana.teste@exemplo.ao",
    promo_code: code,
  });
  const [promo] = await query<{ uses: number }>(`SELECT uses FROM promo_codes WHERE code = $1`, [code]);
  expect(promo!.uses).toBe(1);

  // The shopper's own confirmation, sent by the job the webhook's CON enqueued (never by the callback).
  await expect
    .poll(async () =>
      (
        await query<{ to: string }>(`SELECT "to" FROM emails WHERE job_key = $1`, [
          `shopper-paid-mail:${externalTransactionId}`,
        ])
      ).map((mail) => mail.to),
    )
    .toEqual(["ana.teste@exemplo.ao"]);

  // Another device opens the order's page by its address (the one the shopper's mails link to).
  const other = await browser.newContext();
  try {
    const device = await other.newPage();
    await device.goto(`/orders/${externalTransactionId}`);
    await expect(device.getByTestId("order-status")).toHaveAttribute("data-status", "CON");
    await expect(device.getByTestId("delivery-address")).toContainText(ADDRESS.reference);
    const steps = device.getByTestId("fulfilment-step");
    await expect(steps.nth(1)).toHaveAttribute("data-done", "false");

    // The merchant ships it, then delivers it; the shopper's page follows each step.
    await signInToBackOffice(page);
    await page.goto(`/admin/orders/${externalTransactionId}`);
    const fulfilment = page.getByTestId("order-fulfilment");
    await fulfilment.getByLabel(pt.admin.order.fulfilment.note).fill("Estafeta João, 923 111 222");
    await fulfilment.getByRole("button", { name: pt.admin.order.fulfilment.mark.shipped }).click();
    await expect(fulfilment.getByTestId("fulfilment-state")).toHaveText(pt.fulfilment.states.shipped);
    await device.reload();
    await expect(steps.nth(1)).toHaveAttribute("data-state", "shipped");
    await expect(steps.nth(1)).toHaveAttribute("data-done", "true");
    await expect(steps.nth(1)).toContainText("Estafeta João");

    await fulfilment.getByRole("button", { name: pt.admin.order.fulfilment.mark.delivered }).click();
    await expect(fulfilment.getByTestId("fulfilment-state")).toHaveText(pt.fulfilment.states.delivered);
    await device.reload();
    await expect(steps.nth(2)).toHaveAttribute("data-state", "delivered");
    await expect(steps.nth(2)).toHaveAttribute("aria-current", "step");
    await expectNoAxeViolations(device, `order page, delivered (${testInfo.project.name})`);
  } finally {
    await other.close();
  }
});
