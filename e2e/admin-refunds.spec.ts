import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createStaffPerson, ownerCredentials, PRODUCT_PNG, signInAs, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { BACK_OFFICE_TEXTS } from "../lib/i18n/back-office";
import { pt } from "../lib/i18n/dictionaries";
import { formatAoa } from "../lib/money";

/**
 * A partial return recorded by the owner on a paid order's back-office page, with the plain form
 * (no script needed): of three units bought, one back on the shelf and one damaged. The refund is
 * listed with its units, what remains to refund goes down, the product's stock label on the
 * shop's cached page goes up by the one restocked unit, and the timeline names the owner. Axe on
 * the page before and after, at a desktop size (`pay`) and on a phone (`phone`). Staff open the
 * same kind of page without the section, and the route refuses them.
 *
 * The product is made through the back office (so its page is the shop's cached one) and archived
 * afterwards. The order is written straight into the database, paid in January 2024 and refunded
 * a day later, so the home's figures for today and this month are untouched; a refund is never
 * deleted (the database refuses), so the order stays in the run's scratch database.
 */

const words = BACK_OFFICE_TEXTS.pt.refunds;
const WITHIN_MS = 5_000;

let productId: string | undefined;

test.afterAll(async ({ browser }) => {
  if (!productId) return;
  const page = await browser.newPage();
  try {
    await signInToBackOffice(page);
    expect((await page.request.post(`/api/admin/products/${productId}/archive`)).ok()).toBe(true);
  } finally {
    await page.close();
  }
});

/** The shop's product page, as a shopper's browser gets it, once it says `text` (within WITHIN_MS). */
async function expectProductPageSoon(page: Page, slug: string, text: string) {
  await expect
    .poll(async () => (await (await page.request.get(`/products/${slug}`)).text()).includes(text), {
      timeout: WITHIN_MS,
      intervals: [250],
    })
    .toBe(true);
}

test("the owner records a partial return, one unit restocked and one damaged; the shop's stock label follows", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signInToBackOffice(page);
  const slug = `refund-test-${randomUUID().slice(0, 8)}`;
  const name = `Produto devolvido ${slug.slice(-8)}`;
  const created = await page.request.post("/api/admin/products", {
    multipart: {
      name,
      slug,
      description: "Um produto só deste teste.",
      priceAoa: "2000",
      stock: "3",
      image: { name: "p.png", mimeType: "image/png", buffer: PRODUCT_PNG },
    },
    headers: { accept: "application/json" },
  });
  expect(created.status(), await created.text()).toBe(201);
  productId = ((await created.json()) as { product: { id: string } }).product.id;
  await expectProductPageSoon(page, slug, pt.catalog.lowStock(3));

  const externalTransactionId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, customer_name, customer_phone,
                         created_at, finalized_at, subtotal_aoa)
     VALUES ($1, 'CON', 6000, $2, 'Ana Tchissola', '923 000 111', '2024-01-15T09:00:00Z', '2024-01-15T09:05:00Z', 6000)
     RETURNING id`,
    [externalTransactionId, `shopper_${randomUUID()}`],
  );
  await query(
    `INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity)
     SELECT $1::uuid, p.id, v.id, p.name, 2000, 3 FROM products p JOIN product_variants v ON v.product_id = p.id
     WHERE p.id = $2::uuid`,
    [order!.id, productId],
  );

  await page.goto(`/admin/orders/${externalTransactionId}`);
  const section = page.getByTestId("order-refunds");
  await expect(section.getByRole("heading", { name: words.title })).toBeVisible();
  await expect(section.getByTestId("refund-paid")).toHaveText(formatAoa(6000));
  await expect(section.getByTestId("refund-remaining")).toHaveText(formatAoa(6000));
  await expect(section).toContainText(words.none);
  const line = section.getByTestId("refund-line");
  await expect(line).toContainText(words.form.returnable(3, 3));
  await expectNoAxeViolations(page, `admin order, refunds (${testInfo.project.name})`);

  await line.getByLabel(words.form.restock, { exact: true }).fill("1");
  await line.getByLabel(words.form.damaged, { exact: true }).fill("1");
  await section.getByLabel(words.form.method, { exact: true }).selectOption("bank_transfer");
  await section.getByLabel(words.form.reference, { exact: true }).fill("TRF-E2E-0001");
  await section.getByLabel(words.form.refundedAt, { exact: true }).fill("2024-01-16T10:30");
  await section.getByRole("button", { name: words.form.submit }).click();

  await expect(page).toHaveURL(/\?refund=refunded#refund$/);
  await expect(page.getByTestId("refund-flash")).toHaveText(words.done.refunded);
  // Two units, no discount: 4 000 back, 2 000 left to refund, one unit left to come back.
  const entry = section.getByTestId("refund-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("refund-amount")).toHaveText(formatAoa(4000));
  await expect(entry).toContainText("TRF-E2E-0001");
  await expect(entry).toContainText("2024-01-16 10:30");
  await expect(entry.getByTestId("returned-line")).toHaveText(
    `2 × ${name}: ${words.entry.restocked(1)}, ${words.entry.damaged(1)}`,
  );
  await expect(section.getByTestId("refund-refunded")).toHaveText(formatAoa(4000));
  await expect(section.getByTestId("refund-remaining")).toHaveText(formatAoa(2000));
  await expect(line).toContainText(words.form.returnable(1, 3));
  const [owner] = await query<{ name: string }>("SELECT name FROM staff WHERE email = $1", [ownerCredentials().email]);
  const refundEvent = page.locator('[data-testid="timeline-event"][data-kind="refund"]');
  await expect(refundEvent).toContainText(`(por ${owner!.name})`);
  await expect(refundEvent).toContainText(formatAoa(4000));
  await expectNoAxeViolations(page, `admin order, refunded (${testInfo.project.name})`);

  // The restocked unit, and only it, is on the shelf again: the cached product page says so.
  const [variant] = await query<{ stock: number }>("SELECT stock FROM product_variants WHERE product_id = $1", [
    productId,
  ]);
  expect(variant!.stock).toBe(4);
  await expectProductPageSoon(page, slug, pt.catalog.lowStock(4));
});

test("staff open a paid order's page without its refunds, and may not record one", async ({ page }) => {
  const externalTransactionId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, customer_name, finalized_at)
     VALUES ($1, 'CON', 5000, $2, 'Ana Tchissola', now()) RETURNING id`,
    [externalTransactionId, `shopper_${randomUUID()}`],
  );
  try {
    await signInAs(page, await createStaffPerson("Beto"));
    await page.goto(`/admin/orders/${externalTransactionId}`);
    await expect(page.getByTestId("order-header")).toBeVisible();
    await expect(page.getByTestId("order-fulfilment")).toBeVisible();
    await expect(page.getByTestId("order-refunds")).toHaveCount(0);
    const refused = await page.request.post(`/api/admin/orders/${externalTransactionId}/refunds`, {
      data: { amountAoa: 100, method: "cash" },
    });
    expect(refused.status()).toBe(403);
  } finally {
    await query("DELETE FROM orders WHERE id = $1::uuid", [order!.id]);
  }
});
