import type { Page, TestInfo } from "@playwright/test";
import { DEMO_PRODUCTS, DEMO_VARIANTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { E2E_SHOP_SELLER } from "../harness/server-environment";
import { expectNoAxeViolations } from "./support/accessibility";
import { expectNoIndex, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { addFromCatalog, CUSTOMER, kwanza, openPopup, pickupDelivery } from "./support/shop";

/**
 * What the shopper has of a refund: a shopper who gave an e-mail pays two units in the sandbox's
 * popup; the owner records a refund of one returned unit through the back office's JSON route; the
 * shopper is mailed, the order page shows the refund with the net paid and links its note, which
 * prints on A4 and on an 80 mm roll (print media, a screenshot and the paper's size) with its
 * number and the sentence that it is not a certified credit note. Another order's id, or a number
 * that is no refund of this order, opens nothing. axe on the order page and the note, at desktop
 * and phone widths; on the desktop ("pay") and on a phone ("phone").
 */

const plain = DEMO_PRODUCTS.find((candidate) => !DEMO_VARIANTS[candidate.slug] && candidate.initialStock > 5)!;
const EMAIL = "ana.teste@example.com";

/** A4 at 96 dpi, and an 80 mm roll's 72 mm printed width, in CSS pixels. */
const A4_VIEWPORT = { width: 794, height: 1123 };
const ROLL_VIEWPORT = { width: 302, height: 900 };

/** The width, in points, of a PDF's first page. */
function pdfPageWidth(pdf: Buffer): number {
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  if (!box) throw new Error("the PDF has no MediaBox");
  return Number(box[1]);
}

/** The note as it prints: print media, the page's buttons gone; a screenshot attached, and the PDF's width. */
async function printed(page: Page, testInfo: TestInfo, name: string, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: pt.receipt.print })).toBeHidden();
  await expect(page.getByTestId("refund-note")).toBeVisible();
  await expect(page.getByTestId("refund-note-not-credit-note")).toBeVisible();
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await page.emulateMedia({ media: "screen" });
  return pdfPageWidth(pdf);
}

test("a refund: the shopper's mail, the order page's record and the printed refund note", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  // Two units, paid in the popup, by a shopper who gave an e-mail.
  await addFromCatalog(page, plain.name);
  await addFromCatalog(page, plain.name);
  await page.goto("/checkout");
  await page.getByLabel(pt.checkout.name).fill(CUSTOMER.name);
  await page.getByLabel(pt.checkout.phone).fill(CUSTOMER.phone);
  await page.getByLabel(pt.checkout.email).fill(EMAIL);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPG");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  const externalTransactionId = /(order_[0-9a-f-]{36})/.exec(page.url())![1]!;
  const [order] = await query<{ amount_aoa: number; variant_id: string; unit_price_aoa: number }>(
    `SELECT o.amount_aoa, l.variant_id::text, l.unit_price_aoa
     FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.external_transaction_id = $1`,
    [externalTransactionId],
  );
  // The invoice job runs just after the webhook's answer: the note names the receipt.
  let invoiceNumber = 0;
  await expect(async () => {
    const [invoice] = await query<{ number: number }>(
      `SELECT i.number FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.external_transaction_id = $1`,
      [externalTransactionId],
    );
    expect(invoice).toBeDefined();
    invoiceNumber = invoice!.number;
  }).toPass({ timeout: 15_000 });

  // The owner records the return of one unit, refunded by bank transfer, through the JSON route.
  await signInToBackOffice(page);
  const answer = await page.request.post(`/api/admin/orders/${externalTransactionId}/refunds`, {
    data: {
      method: "bank_transfer",
      reference: "TRF-E2E-1",
      returns: [{ variantId: order!.variant_id, quantity: 1, restock: true }],
    },
  });
  expect(answer.status()).toBe(201);
  const { refund } = (await answer.json()) as { refund: { number: number; amountAoa: number } };
  expect(refund.amountAoa).toBe(order!.unit_price_aoa);
  const number = String(refund.number).padStart(6, "0");
  const net = order!.amount_aoa - refund.amountAoa;

  // The shopper's mail, sent after the route's answer.
  await expect(async () => {
    const mails = await query<{ to: string; subject: string; text: string }>(
      `SELECT "to", subject, text FROM emails WHERE job_key = $1`,
      [`refund-mail:${refund.number}:${externalTransactionId}`],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(EMAIL);
    expect(mails[0]!.text).toContain(`/orders/${externalTransactionId}/refunds/${refund.number}`);
  }).toPass({ timeout: 15_000 });

  // The order page: the refund, its returned unit, the net paid, and the link to its note.
  await page.goto(`/orders/${externalTransactionId}`);
  const entry = page.getByTestId("order-refund");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(pt.orderRefunds.refund(number));
  await expect(entry).toContainText(pt.refundNote.methods.bank_transfer);
  await expect(entry).toContainText("TRF-E2E-1");
  await expect(entry.getByTestId("order-refund-units")).toHaveText(`1 × ${plain.name}`);
  await expect(entry.getByTestId("order-refund-amount")).toHaveText(kwanza.format(refund.amountAoa));
  await expect(page.getByTestId("order-net-paid")).toHaveText(kwanza.format(net));
  await screenshotAtEachWidth(page, testInfo, "order-refunds", { accessible: true });

  // The note, from the order page.
  await entry.getByRole("link", { name: pt.orderRefunds.openNote(number) }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${externalTransactionId}/refunds/${refund.number}$`));
  await expect(page).toHaveTitle(new RegExp(pt.refundNote.title(number)));
  await expectNoIndex(page);
  await expect(page.getByRole("heading", { level: 1, name: pt.refundNote.heading })).toBeVisible();
  await expect(page.getByTestId("refund-note-number")).toHaveText(number);
  await expect(page.getByTestId("receipt-seller")).toContainText(E2E_SHOP_SELLER.SHOP_LEGAL_NAME);
  await expect(page.getByTestId("refund-note")).toContainText(String(invoiceNumber).padStart(6, "0"));
  await expect(page.getByTestId("refund-note-customer")).toHaveText(CUSTOMER.name);
  await expect(page.getByTestId("refund-note-reference")).toHaveText("TRF-E2E-1");
  await expect(page.getByTestId("refund-note-unit")).toHaveText([new RegExp(`${plain.name}.*1`)]);
  await expect(page.getByTestId("refund-note-amount")).toHaveText(kwanza.format(refund.amountAoa));
  await expect(page.getByTestId("refund-note-not-credit-note")).toHaveText(pt.refundNote.notCreditNote);
  await screenshotAtEachWidth(page, testInfo, "refund-note-screen", { accessible: true });

  // On paper: A4 (the docs' picture, docs/screenshots/refund-note.png), then the 80 mm roll.
  expect(await printed(page, testInfo, "refund-note", A4_VIEWPORT)).toBeCloseTo(595.3, 0);
  await page.getByRole("link", { name: pt.receipt.thermal }).click();
  await expect(page).toHaveURL(/\/refunds\/\d+\?format=80mm$/);
  await expect(page.getByTestId("refund-note")).toHaveAttribute("data-format", "80mm");
  await expectNoAxeViolations(page, `refund note on 80 mm (${testInfo.project.name})`);
  expect(await printed(page, testInfo, "refund-note-80mm-print", ROLL_VIEWPORT)).toBeCloseTo(226.8, 0);

  // Personal data: never kept by a cache.
  const response = await page.request.get(`/orders/${externalTransactionId}/refunds/${refund.number}`);
  expect(response.headers()["cache-control"]).toMatch(/no-store/);

  // Another order's id with this note's number, a number that is no refund of this order, and a
  // number that is not one: the not-found page, as for an unknown order.
  const products = (await (await page.request.get("/api/products")).json()) as { id: string; slug: string }[];
  const other = await page.request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: products.find((candidate) => candidate.slug === plain.slug)!.id, quantity: 1 }],
      customer: CUSTOMER,
      delivery: await pickupDelivery((path) => page.request.get(path)),
    },
  });
  expect(other.status()).toBe(200);
  const { externalTransactionId: otherId } = (await other.json()) as { externalTransactionId: string };
  for (const path of [
    `/orders/${otherId}/refunds/${refund.number}`,
    `/orders/${externalTransactionId}/refunds/${refund.number + 100_000}`,
    `/orders/${externalTransactionId}/refunds/1e3`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: pt.notFound.title })).toBeVisible();
    await expect(page.getByTestId("refund-note")).toHaveCount(0);
  }
});
