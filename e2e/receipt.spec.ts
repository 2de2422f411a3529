import { randomUUID } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { DEMO_PRODUCTS, DEMO_VARIANTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { E2E_SHOP_SELLER } from "../harness/server-environment";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { addFromCatalog, CUSTOMER, kwanza, openPopup, payButton, pickupDelivery } from "./support/shop";

/**
 * A paid order's receipt: the shopper gives a NIF at checkout (a malformed one is refused as they
 * type), pays a variant and a plain product with a promo code in the sandbox's popup, follows the
 * success page's link to the receipt and prints it, on A4 and on an 80 mm roll (print media, a
 * screenshot and a PDF of each, whose paper is the page's @page size); the back office shows the
 * NIF and opens the same receipt. An unpaid order has none, and a paid one not yet invoiced says
 * it is being prepared. axe on every state of the receipt page, at desktop and phone widths; on
 * the desktop ("pay") and on a phone ("phone").
 */

const SLUG = "camisola-palancas-negras";
const shirt = DEMO_PRODUCTS.find((candidate) => candidate.slug === SLUG)!;
const plain = DEMO_PRODUCTS.find((candidate) => !DEMO_VARIANTS[candidate.slug] && candidate.initialStock > 5)!;

/** A4 at 96 dpi, and an 80 mm roll's 72 mm printed width, in CSS pixels. */
const A4_VIEWPORT = { width: 794, height: 1123 };
const ROLL_VIEWPORT = { width: 302, height: 900 };

/** The width and height, in points, of a PDF's first page. */
function pdfPageSize(pdf: Buffer): { width: number; height: number } {
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  if (!box) throw new Error("the PDF has no MediaBox");
  return { width: Number(box[1]), height: Number(box[2]) };
}

/** The page as it prints: print media, the screen's header and buttons gone, a screenshot and a PDF attached. */
async function printed(page: Page, testInfo: TestInfo, name: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: pt.shop.mainNavigation })).toBeHidden();
  await expect(page.getByRole("button", { name: pt.receipt.print })).toBeHidden();
  await expect(page.getByTestId("receipt")).toBeVisible();
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await testInfo.attach(`${name}.pdf`, { body: pdf, contentType: "application/pdf" });
  await page.emulateMedia({ media: "screen" });
  return pdfPageSize(pdf);
}

test("a NIF at checkout, the paid order's receipt for the shopper and the back office, printed on A4 and 80 mm", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const code = `RECIBO${randomUUID().slice(0, 6).toUpperCase()}`;
  await query(`INSERT INTO promo_codes (code, kind, value) VALUES ($1, 'fixed', 500)`, [code]);

  // The product page chooses the first combination in stock to begin with: that one, known by its SKU.
  await page.goto(`/products/${SLUG}`);
  const sku = (await page.getByTestId("sku").textContent())!.trim();
  const variant = DEMO_VARIANTS[SLUG]!.variants.find((candidate) => candidate.sku === sku)!;
  await page.getByTestId("product-purchase").getByRole("button").click();
  await expect(page.getByRole("status").filter({ hasText: pt.cartNotices.added })).toBeVisible();
  await addFromCatalog(page, plain.name);

  // The NIF is checked as it is typed, with the checkout's own rule; a good one in any case and spacing is taken.
  await page.goto(`/checkout?promo=${code}`);
  await page.getByLabel(pt.checkout.name).fill(CUSTOMER.name);
  await page.getByLabel(pt.checkout.phone).fill(CUSTOMER.phone);
  const nif = page.getByLabel(pt.checkout.nif);
  await nif.fill("12345");
  await nif.blur();
  await expect(page.getByText(pt.checkout.nifInvalid)).toBeVisible();
  await expect(nif).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(pt.checkout.fillToPay)).toBeVisible();
  await nif.fill("001234567 la 042");
  await expect(page.getByText(pt.checkout.nifInvalid)).toBeHidden();
  await expect(page.getByTestId("checkout-discount")).toHaveText(`−${kwanza.format(500)}`);
  await payButton(page);

  const popup = await openPopup(page);
  await popup.pay("FPSOLPG");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  const externalTransactionId = /(order_[0-9a-f-]{36})/.exec(page.url())![1]!;
  const [stored] = await query<{ customer_nif: string; amount_aoa: number }>(
    `SELECT customer_nif, amount_aoa FROM orders WHERE external_transaction_id = $1`,
    [externalTransactionId],
  );
  expect(stored!.customer_nif).toBe("001234567LA042");

  // The success page links the receipt once paid; the invoice job runs just after the webhook's answer.
  await page.getByTestId("receipt-link").click();
  await expect(page).toHaveURL(new RegExp(`/orders/${externalTransactionId}/receipt$`));
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("receipt")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const [invoice] = await query<{ number: number }>(
    `SELECT i.number FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.external_transaction_id = $1`,
    [externalTransactionId],
  );
  const number = String(invoice!.number).padStart(6, "0");
  await expect(page).toHaveTitle(new RegExp(pt.receipt.title(number)));
  await expect(page.getByTestId("receipt-number")).toHaveText(number);
  const seller = page.getByTestId("receipt-seller");
  await expect(seller).toContainText(E2E_SHOP_SELLER.SHOP_LEGAL_NAME);
  await expect(seller).toContainText(pt.shop.name);
  await expect(seller).toContainText("5000028550");
  await expect(seller).toContainText("Luanda, Angola");
  await expect(page.getByTestId("receipt-customer")).toHaveText(CUSTOMER.name);
  await expect(page.getByTestId("receipt-customer-nif")).toHaveText("001234567LA042");
  const lines = page.getByTestId("receipt-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: shirt.name })).toContainText(
    `${variant.options.Tamanho}, ${variant.options.Cor}`,
  );
  await expect(lines.filter({ hasText: shirt.name })).toContainText(sku);
  await expect(page.getByTestId("receipt-discount")).toHaveText(`−${kwanza.format(500)}`);
  await expect(page.getByTestId("receipt-delivery-fee")).toHaveText(pt.receipt.free);
  await expect(page.getByTestId("receipt-total")).toHaveText(kwanza.format(stored!.amount_aoa));
  await expect(page.getByTestId("receipt-not-invoice")).toHaveText(pt.receipt.notAnInvoice);
  await expect(page.getByText(pt.receipt.notCertified)).toBeVisible();
  await expect(page.getByTestId("receipt-test-mode")).toBeVisible();
  await screenshotAtEachWidth(page, testInfo, "receipt", { accessible: true });

  // On paper: A4, then the 80 mm roll, each the size its @page rule asks for (points: 1 mm = 2.835 pt).
  const a4 = await printed(page, testInfo, "receipt-a4-print", A4_VIEWPORT);
  expect(a4.width).toBeCloseTo(595.3, 0);
  expect(a4.height).toBeCloseTo(841.9, 0);
  await page.getByRole("link", { name: pt.receipt.thermal }).click();
  await expect(page).toHaveURL(/\/receipt\?format=80mm$/);
  await expect(page.getByTestId("receipt")).toHaveAttribute("data-format", "80mm");
  await screenshotAtEachWidth(page, testInfo, "receipt-80mm", { accessible: true });
  const roll = await printed(page, testInfo, "receipt-80mm-print", ROLL_VIEWPORT);
  expect(roll.width).toBeCloseTo(226.8, 0);

  // The back office: the NIF on the order, and the same receipt.
  await signInToBackOffice(page);
  await page.goto(`/admin/orders/${externalTransactionId}`);
  await expect(page.getByTestId("order-nif")).toHaveText("001234567LA042");
  await page.getByTestId("order-receipt").click();
  await expect(page).toHaveURL(new RegExp(`/orders/${externalTransactionId}/receipt$`));
  await expect(page.getByTestId("receipt-number")).toHaveText(number);
});

test("no receipt for an unpaid order; a paid one not yet invoiced says it is being prepared", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const products = (await (await page.request.get("/api/products")).json()) as { id: string; hasOptions: boolean }[];
  const created = await page.request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: products.find((candidate) => !candidate.hasOptions)!.id, quantity: 1 }],
      customer: CUSTOMER,
      delivery: await pickupDelivery((path) => page.request.get(path)),
    },
  });
  expect(created.status()).toBe(200);
  const { externalTransactionId } = (await created.json()) as { externalTransactionId: string };
  const receipt = `/orders/${externalTransactionId}/receipt`;
  // The not-found page, as for an unknown order (its status is already sent while /orders/ streams).
  for (const path of [receipt, "/orders/order_not-an-id/receipt"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: pt.notFound.title })).toBeVisible();
    await expect(page.getByTestId("receipt")).toHaveCount(0);
  }
  // The order page of an unpaid order does not link one.
  await page.goto(`/orders/${externalTransactionId}`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");
  await expect(page.getByTestId("receipt-link")).toHaveCount(0);

  // Paid, as the state machine records it, before the invoice job has run (written here, so it never runs).
  try {
    await query(`UPDATE orders SET status = 'CON', finalized_at = now() WHERE external_transaction_id = $1`, [
      externalTransactionId,
    ]);
    await page.goto(receipt);
    await expect(page.getByTestId("receipt-preparing")).toHaveText(pt.receipt.preparing);
    await screenshotAtEachWidth(page, testInfo, "receipt-preparing", { accessible: true });
    await expectNoAxeViolations(page, `receipt being prepared (${testInfo.project.name})`);
  } finally {
    await query(`DELETE FROM orders WHERE external_transaction_id = $1`, [externalTransactionId]);
  }
});
