import { randomUUID } from "node:crypto";
import { routeFiles, sampleAddressOf } from "../harness/support/routes";
import { signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";
import { BACK_OFFICE_TEXTS } from "../lib/i18n/back-office";
import { PAID_AFTER_CANCEL_TEXTS } from "../lib/i18n/paid-after-cancel-texts";
import { formatAoa } from "../lib/money";

/**
 * The back office's attention list on its home (lib/orders/attention-admin.ts) and "mark resolved", in
 * the browser: an order paid after it was cancelled and a signed webhook delivery for an order the
 * shop never had, written straight into the e2e database as the state machine and the webhook
 * route write them, each opened from the home, resolved with a note, and removed afterwards.
 */

test("every admin page without a session goes to the sign-in", async ({ request }) => {
  const pages = (await routeFiles())
    .map(({ file }) => file)
    // /admin itself is the sign-in (e2e/admin.spec.ts).
    .filter(
      (file) =>
        file.startsWith("app/[lang]/admin/") && file.endsWith("/page.tsx") && file !== "app/[lang]/admin/page.tsx",
    );
  expect(pages).toContain("app/[lang]/admin/orders/page.tsx");
  for (const file of pages) {
    const { path } = sampleAddressOf(file);
    const response = await request.get(path, { maxRedirects: 0 });
    expect([303, 307, 308], `${path} (${file})`).toContain(response.status());
    expect(response.headers().location, path).toMatch(/\/admin$/);
  }
});

test("the home lists what needs a person; each item is opened, resolved with a note and leaves the list", async ({
  page,
}, testInfo) => {
  const orderId = `order_${randomUUID()}`;
  const strangerId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id, customer_name,
                         finalized_at, cancel_reason, paid_after_cancel_at, attention_reason, attention_at)
     VALUES ($1, '512 345 678', 'CAN', 7000, $2, 'Ana Tchissola', now(), 'hold_expired', now(), 'paid_after_cancel', now())
     RETURNING id`,
    [orderId, `shopper_${randomUUID()}`],
  );
  const rawBody = JSON.stringify({
    event: "payment.status_changed",
    data: { externalTransactionId: strangerId, paymentStatus: "CON" },
  });
  const [delivery] = await query<{ id: string }>(
    `INSERT INTO webhook_events (raw_body, external_transaction_id, payment_status, outcome)
     VALUES (convert_to($1, 'UTF8'), $2, 'CON', 'unmatched') RETURNING id`,
    [rawBody, strangerId],
  );
  try {
    await signInToBackOffice(page);
    const raised = page.getByTestId("attention-raised-orders");
    const unmatched = page.getByTestId("attention-unmatched-deliveries");
    await expect(raised.getByRole("link", { name: orderId })).toBeVisible();
    await expect(raised).toContainText("paid_after_cancel");
    await expect(unmatched.getByRole("link", { name: `CON · ${strangerId}` })).toBeVisible();
    await screenshotAtEachWidth(page, testInfo, "admin-home-attention", { accessible: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The delivery: its own page, with what arrived, resolved there.
    await unmatched.getByRole("link", { name: `CON · ${strangerId}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/webhooks/${delivery!.id}$`));
    await expect(page.getByRole("main")).toContainText(rawBody);
    await expect(page.getByRole("main")).toContainText("unmatched");
    await screenshotAtEachWidth(page, testInfo, "admin-webhook", { accessible: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel(pt.admin.order.resolve.note).fill("Notificação de teste do serviço; nada a fazer.");
    await page.getByRole("button", { name: pt.admin.order.resolve.submit }).click();
    await expect(page).toHaveURL(/\?done=resolved$/);
    await expect(page.getByTestId("delivery-flash")).toHaveText(pt.admin.order.done.resolved);
    await expect(page.getByTestId("delivery-note")).toHaveText("Notificação de teste do serviço; nada a fazer.");
    await expect(page.getByRole("button", { name: pt.admin.order.resolve.submit })).toHaveCount(0);

    // The order: from the home to its page, resolved there.
    await page.goto("/admin");
    await expect(page.getByRole("link", { name: `CON · ${strangerId}` })).toHaveCount(0);
    await raised.getByRole("link", { name: orderId }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
    await expect(page.getByTestId("attention")).toHaveText("paid_after_cancel");
    await page.getByLabel(pt.admin.order.resolve.note).fill("Cliente contactado: encomenda enviada.");
    await page.getByRole("button", { name: pt.admin.order.resolve.submit }).click();
    await expect(page).toHaveURL(/\?done=resolved$/);
    await expect(page.getByTestId("order-flash")).toHaveText(pt.admin.order.done.resolved);
    await expect(page.getByTestId("attention-note")).toHaveText("Cliente contactado: encomenda enviada.");
    await expect(page.locator('[data-testid="timeline-event"][data-kind="resolved"]')).toContainText(
      "Cliente contactado: encomenda enviada.",
    );
    await page.goto("/admin");
    await expect(page.getByRole("link", { name: orderId })).toHaveCount(0);

    const [row] = await query<{ attention_note: string; attention_reason: string }>(
      "SELECT attention_note, attention_reason FROM orders WHERE id = $1::uuid",
      [order!.id],
    );
    expect(row).toEqual({
      attention_note: "Cliente contactado: encomenda enviada.",
      attention_reason: "paid_after_cancel",
    });
  } finally {
    await query("DELETE FROM webhook_events WHERE id = $1::uuid", [delivery!.id]);
    await query("DELETE FROM orders WHERE id = $1::uuid", [order!.id]);
  }
});

/**
 * An order of 2 units of `variantId` at 3 500 Kz, cancelled (its units back on the shelf) and
 * then paid, as the state machine and the release job leave it.
 */
async function insertPaidAfterCancel(productId: string, variantId: string): Promise<string> {
  const externalTransactionId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id, customer_name,
                         finalized_at, cancel_reason, paid_after_cancel_at, attention_reason, attention_at,
                         stock_released_at)
     VALUES ($1, '512 345 679', 'CAN', 7000, $2, 'Ana Tchissola', now(), 'hold_expired', now(), 'paid_after_cancel',
             now(), now())
     RETURNING id`,
    [externalTransactionId, `shopper_${randomUUID()}`],
  );
  await query(
    `INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity)
     VALUES ($1::uuid, $2::uuid, $3::uuid, 'Café do Amboim (teste)', 3500, 2)`,
    [order!.id, productId, variantId],
  );
  return externalTransactionId;
}

test("the owner refunds one order paid after its cancellation from its item and fulfils another; each leaves the list", async ({
  page,
}, testInfo) => {
  // Two decisions, each opening the order's page, and five axe checks.
  test.setTimeout(150_000);
  const text = PAID_AFTER_CANCEL_TEXTS.pt;
  // Archived: the shop's pages never list it, and its stock can still be taken.
  const [inserted] = await query<{ id: string }>(
    `INSERT INTO products (slug, name, description, image_path, price_aoa, stock, archived_at)
     VALUES ($1, 'Café do Amboim (teste)', 'Criado por um teste.', '/products/cafe-amboim.svg', 3500, 5, now())
     RETURNING id`,
    [`test-${randomUUID()}`],
  );
  // Its one variant, made by a trigger after the insert.
  const [product] = await query<{ id: string; variantId: string }>(
    `SELECT product_id AS id, id AS "variantId" FROM product_variants WHERE product_id = $1::uuid`,
    [inserted!.id],
  );
  const refundedId = await insertPaidAfterCancel(product!.id, product!.variantId);
  const fulfilledId = await insertPaidAfterCancel(product!.id, product!.variantId);
  // Refunds are never deleted, nor their order: both orders stay, closed, as a shop's would.

  await signInToBackOffice(page);
  const raised = page.getByTestId("attention-raised-orders");
  const refundItem = raised.getByTestId(`attention-item-${refundedId}`);
  await refundItem.getByText(text.paidAfterCancel.refund, { exact: true }).click();
  // The whole payment, unless the owner changes it.
  await expect(refundItem.getByLabel(text.paidAfterCancel.amount)).toHaveValue("7000");
  await expectNoAxeViolations(page, "the home with a refund form open");
  await refundItem.getByLabel(text.paidAfterCancel.method).selectOption({ label: text.paidAfterCancel.methods.cash });
  await refundItem.getByLabel(text.paidAfterCancel.reference).fill("Recibo 31");
  await refundItem.getByRole("button", { name: text.paidAfterCancel.submitRefund }).click();

  // The order's page, with the outcome: the item is closed with the refund's note.
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${refundedId}\\?refund=refunded#refund$`));
  await expect(page.getByTestId("refund-flash")).toHaveText(BACK_OFFICE_TEXTS.pt.refunds.done.refunded);
  await expect(page.getByTestId("attention-note")).toHaveText(
    new RegExp(`^Reembolsado: nota \\d+, ${formatAoa(7000)}\\.$`),
  );
  await expect(page.getByTestId("paid-after-cancel-actions")).toHaveCount(0);
  await expectNoAxeViolations(page, "the order's page after its refund");

  await page.goto("/admin");
  await expect(raised.getByRole("link", { name: refundedId })).toHaveCount(0);
  // The other from its own page, where the item offers the same two.
  await raised.getByRole("link", { name: fulfilledId }).click();
  await expect(page.getByTestId("paid-after-cancel-actions")).toContainText(text.paidAfterCancel.hint);
  await screenshotAtEachWidth(page, testInfo, "admin-order-paid-after-cancel", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: text.paidAfterCancel.fulfil }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${fulfilledId}\\?done=fulfilled_after_cancel$`));
  await expect(page.getByTestId("order-flash")).toHaveText(pt.admin.order.done.fulfilled_after_cancel);
  await expect(page.getByTestId("order-header")).toContainText(pt.order.status.CON);
  // An ordinary paid order from here: its fulfilment steps are offered.
  await expect(page.getByTestId("order-fulfilment")).toBeVisible();
  await expect(page.locator('[data-testid="timeline-event"][data-kind="staff"]')).toContainText(
    /Cumprida depois de cancelada \(por .+\)/,
  );
  await expectNoAxeViolations(page, "the order's page after Cumprir");
  const [stock] = await query<{ stock: number }>("SELECT stock FROM product_variants WHERE id = $1::uuid", [
    product!.variantId,
  ]);
  expect(stock!.stock).toBe(3);

  await page.goto("/admin");
  await expect(page.getByRole("link", { name: fulfilledId })).toHaveCount(0);
});
