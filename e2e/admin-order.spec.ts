import { randomInt, randomUUID } from "node:crypto";
import { signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pt } from "../lib/i18n/dictionaries";
import { customerMessage } from "../lib/orders/customer-message";
import { shortOrderId } from "../lib/orders/order-number";
import { whatsappLink } from "../lib/whatsapp";
import { E2E_SHOP_WHATSAPP } from "../harness/server-environment";

/**
 * The back office's order page (/admin/orders/<externalTransactionId>, lib/orders/timeline-admin.ts
 * and lib/http/order-actions.ts), in the browser: a paid order written straight into the e2e
 * database with a PARKED job (as a runner leaves one after its last failed attempt), opened from
 * the list, its job retried from its page. Removed afterwards.
 */

test("without a session an order page goes to the sign-in; an unknown order is not found", async ({
  page,
  request,
}) => {
  const response = await request.get(`/admin/orders/order_${randomUUID()}`, { maxRedirects: 0 });
  expect([303, 307, 308]).toContain(response.status());
  expect(response.headers().location).toMatch(/\/admin$/);

  await signInToBackOffice(page);
  for (const id of [`order_${randomUUID()}`, "not-an-order"]) {
    const unknown = await page.goto(`/admin/orders/${id}`);
    expect(unknown?.status()).toBe(404);
  }
});

test("open an order from the list, see its history, retry its parked job and see it DONE", async ({
  page,
}, testInfo) => {
  const externalTransactionId = `order_${randomUUID()}`;
  const referenceNumber = String(randomInt(100_000_000, 999_999_999));
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id,
                         customer_name, customer_phone, finalized_at)
     VALUES ($1, $2, 'CON', 5000, $3, 'Ana Tchissola', '923 000 111', now()) RETURNING id`,
    [externalTransactionId, referenceNumber, `shopper_${randomUUID()}`],
  );
  await query(
    `INSERT INTO order_lines (order_id, product_id, product_name, unit_price_aoa, quantity)
     SELECT $1::uuid, id, name, 2500, 2 FROM products ORDER BY slug LIMIT 1`,
    [order!.id],
  );
  await query(
    `INSERT INTO jobs (type, dedupe_key, payload, status, attempts, max_attempts, last_error)
     VALUES ('record-invoice', $1, $2, 'PARKED', 8, 8, 'the database was down')`,
    [`record-invoice:${externalTransactionId}`, JSON.stringify({ orderId: order!.id, externalTransactionId })],
  );
  try {
    await signInToBackOffice(page);
    await page.goto(`/admin/orders?q=${externalTransactionId}`);
    await page.getByRole("link", { name: externalTransactionId }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${externalTransactionId}$`));
    await expect(page.getByTestId("order-header")).toContainText("Ana Tchissola");
    await expect(page.getByTestId("order-header")).toContainText(referenceNumber);
    await expect(page.getByTestId("timeline-event").first()).toHaveAttribute("data-kind", "created");
    await expect(page.locator('[data-testid="timeline-event"][data-kind="finalized"]')).toBeVisible();

    const job = page.getByTestId("order-job");
    await expect(job.getByTestId("job-status")).toHaveText("PARKED");
    await expect(job).toContainText("the database was down");
    await screenshotAtEachWidth(page, testInfo, "admin-order", { accessible: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await job.getByRole("button", { name: pt.admin.order.retry }).click();
    await expect(page).toHaveURL(/\?done=retried$/);
    await expect(page.getByTestId("order-flash")).toHaveText(pt.admin.order.done.retried);
    await expect(job.getByTestId("job-status")).toHaveText("DONE");
    await expect(job.getByRole("button")).toHaveCount(0);
    await expect(page.locator('[data-testid="timeline-event"][data-kind="invoice"]')).toBeVisible();
  } finally {
    await query("DELETE FROM jobs WHERE dedupe_key LIKE $1", [`%:${externalTransactionId}`]);
    await query("DELETE FROM invoices WHERE order_id = $1::uuid", [order!.id]);
    await query("DELETE FROM orders WHERE id = $1::uuid", [order!.id]);
  }
});

test("WhatsApp: the back office messages the customer about the order's state; the shopper's page talks to the shop", async ({
  page,
}) => {
  const externalTransactionId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id,
                         customer_name, customer_phone, finalized_at, fulfilment_state)
     VALUES ($1, $2, 'CON', 5000, $3, 'Ana Tchissola', '0923-000-111', now(), 'shipped') RETURNING id`,
    [externalTransactionId, String(randomInt(100_000_000, 999_999_999)), `shopper_${randomUUID()}`],
  );
  try {
    await signInToBackOffice(page);
    await page.goto(`/admin/orders/${externalTransactionId}`);
    const message = page.getByRole("link", { name: pt.admin.order.message.link, exact: true });
    // Always Portuguese, the customers' language, naming the order as the customer's page does.
    await expect(message).toHaveAttribute(
      "href",
      whatsappLink(
        "244923000111",
        customerMessage({ externalTransactionId, status: "CON", fulfilmentState: "shipped" }),
      ),
    );
    await expect(message).toHaveAttribute("href", /%20foi%20enviada%20/);
    await expect(message).toHaveAttribute("rel", "noopener");

    await page.goto(`/orders/${externalTransactionId}`);
    const talk = page.getByRole("link", { name: pt.order.talkToUs, exact: true });
    const href = whatsappLink(
      E2E_SHOP_WHATSAPP.replace(/\D/g, ""),
      pt.order.whatsappText(shortOrderId(externalTransactionId)),
    );
    await expect(talk).toHaveAttribute("href", href);
    // The order's number only: never the shopper's name or phone.
    expect(new URL(href).searchParams.get("text")).not.toMatch(/Tchissola|000-?111/);
    await expect(talk).toHaveAttribute("target", "_blank");
  } finally {
    await query("DELETE FROM orders WHERE id = $1::uuid", [order!.id]);
  }
});
