import { randomUUID } from "node:crypto";
import { signInAs, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pt } from "../lib/i18n/dictionaries";

/**
 * A staff member's day, end to end in the browser: the owner adds Ana as staff with a password;
 * Ana, on her own computer, signs in, sees no takings on the home page, marks a paid order shipped
 * (its timeline names her), and is refused the orders' CSV; the owner disables her, and Ana's open
 * session is refused on its very next page. Axe on Ana's pages. The order is written straight into
 * the e2e database, as the fulfilment spec does, and removed afterwards.
 */

const people = pt.admin.people;
const ANA = `Ana ${randomUUID().slice(0, 6)}`;
const EMAIL = `ana.${randomUUID().slice(0, 8)}@shop.example`;
const PASSWORD = `ana-password-${randomUUID().slice(0, 8)}`;

async function paidOrder(): Promise<{ id: string; externalTransactionId: string }> {
  const externalTransactionId = `order_${randomUUID()}`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, customer_name, customer_phone,
                         finalized_at, subtotal_aoa, discount_aoa, delivery_fee_aoa, delivery_method,
                         delivery_zone_name, delivery_estimated_days, delivery_address)
     VALUES ($1, 'CON', 11500, $2, 'Marta Cassoma', '923 000 222', now(), 10000, 0, 1500, 'delivery',
             'Luanda centro', 2, $3::jsonb) RETURNING id`,
    [
      externalTransactionId,
      `shopper_${randomUUID()}`,
      JSON.stringify({
        province: "Luanda",
        municipality: "Maianga",
        neighbourhood: "Alvalade",
        street: "Rua Comandante Gika, 14",
        reference: "",
      }),
    ],
  );
  await query(
    `INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity)
     SELECT $1::uuid, p.id, v.id, p.name, 5000, 2 FROM products p JOIN product_variants v ON v.product_id = p.id
     ORDER BY p.slug, v.position LIMIT 1`,
    [order!.id],
  );
  return { id: order!.id, externalTransactionId };
}

test("the owner adds Ana as staff; she ships an order in her name, is refused the export, sees no takings; disabled, her session ends", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const order = await paidOrder();
  const anaContext = await browser.newContext();
  try {
    // The owner adds Ana with a password of their choosing.
    await signInToBackOffice(page);
    await page.goto("/admin/people");
    const form = page.getByRole("region", { name: people.newPerson });
    await form.getByLabel(people.name).fill(ANA);
    await form.getByLabel(people.email).fill(EMAIL);
    await form.getByLabel(people.role).selectOption("staff");
    await form.getByLabel(people.password).fill(PASSWORD);
    await form.getByRole("button", { name: people.add }).click();
    await expect(page.getByRole("status").filter({ hasText: people.done.added })).toBeVisible();
    const anaRow = page.locator(`[data-testid="person"][data-email="${EMAIL}"]`);
    await expect(anaRow).toHaveAttribute("data-role", "staff");

    // Ana, on her own computer: the home without takings, and a menu without the owner's pages.
    const ana = await anaContext.newPage();
    await signInAs(ana, { email: EMAIL, password: PASSWORD });
    await expect(ana.getByTestId("paid-today")).toHaveCount(0);
    await expect(ana.getByTestId("paid-this-month")).toHaveCount(0);
    await expect(ana.getByRole("link", { name: pt.admin.promoCodes.title })).toHaveCount(0);
    await expect(ana.getByRole("link", { name: pt.admin.nav.orders }).first()).toBeVisible();
    await expectNoAxeViolations(ana, "admin home, as staff");

    // She marks the order shipped; its timeline says she did.
    await ana.goto(`/admin/orders/${order.externalTransactionId}`);
    const fulfilment = ana.getByTestId("order-fulfilment");
    await fulfilment.getByRole("button", { name: pt.admin.order.fulfilment.mark.shipped }).click();
    await expect(ana).toHaveURL(/\?done=fulfilment$/);
    const shipped = ana.locator('[data-testid="timeline-event"][data-kind="fulfilment"]');
    await expect(shipped).toContainText(pt.admin.order.event.fulfilment(pt.fulfilment.states.shipped, ANA));
    await expectNoAxeViolations(ana, "admin order, shipped by staff");
    const [recorded] = await query<{ staff_name: string }>(
      `SELECT staff_name FROM staff_events WHERE kind = 'order.fulfilment' AND subject = $1`,
      [`order:${order.externalTransactionId}`],
    );
    expect(recorded?.staff_name).toBe(ANA);

    // The orders' CSV is the owner's: her browser gets a 403, and an owner-only page says so.
    const today = new Date().toISOString().slice(0, 10);
    const exported = await ana.request.get(`/api/admin/orders/export?from=${today}&to=${today}`);
    expect(exported.status()).toBe(403);
    expect((await exported.json()).error.code).toBe("forbidden");
    // So is the refunds': refused, and its form not on her orders list.
    const refunds = await ana.request.get(`/api/admin/refunds/export?from=${today}&to=${today}`);
    expect(refunds.status()).toBe(403);
    await ana.goto("/admin/orders");
    await expect(ana.getByRole("heading", { level: 1, name: pt.admin.orders.title })).toBeVisible();
    await expect(ana.getByTestId("refunds-export")).toHaveCount(0);
    const refused = await ana.goto("/admin/promo-codes");
    expect(refused?.status()).toBe(403);

    // The owner disables her: the session she has open is refused on its next page.
    await page.reload();
    // A person's forms are behind their "Gerir: <name>" disclosure.
    await anaRow.getByText(people.manage(ANA), { exact: true }).click();
    await anaRow.getByRole("button", { name: people.disable }).click();
    await expect(page.getByRole("status").filter({ hasText: people.done.saved })).toBeVisible();
    await expect(anaRow).toContainText(people.disabled);
    await ana.goto("/admin/orders");
    await expect(ana.getByRole("heading", { level: 1, name: pt.admin.signInTitle })).toBeVisible();
    const [sessions] = await query<{ open: string }>(
      `SELECT count(*)::text AS open FROM staff_sessions s JOIN staff p ON p.id = s.staff_id WHERE p.email = $1`,
      [EMAIL],
    );
    expect(sessions?.open).toBe("0");
  } finally {
    await anaContext.close();
    await query(`DELETE FROM orders WHERE id = $1::uuid`, [order.id]);
  }
});
