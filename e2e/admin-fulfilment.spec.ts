import { randomUUID } from "node:crypto";
import { ownerCredentials, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pt } from "../lib/i18n/dictionaries";

/**
 * A paid order's fulfilment in the browser, with the plain forms: a paid delivery order
 * written straight into the e2e database (checkout fills these columns in another branch), marked
 * shipped with a tracking note and then delivered from its back-office page; the shopper's order
 * page shows each step with its date, the address and the amount in parts; a mail to the shopper
 * per step lands in the outbox. Axe on both pages, at a desktop size (`pay`) and on a phone
 * (`phone`). Removed afterwards.
 */

test("a paid delivery order marked shipped with a note, then delivered; the shopper sees each step", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const text = pt.admin.order;
  const steps = pt.fulfilment;
  const externalTransactionId = `order_${randomUUID()}`;
  const email = `cliente-${randomUUID().slice(0, 8)}@example.com`;
  const [order] = await query<{ id: string }>(
    `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, customer_name, customer_phone,
                         finalized_at, subtotal_aoa, discount_aoa, delivery_fee_aoa, promo_code, delivery_method,
                         delivery_zone_name, delivery_estimated_days, delivery_address, customer_email)
     VALUES ($1, 'CON', 9500, $2, 'Ana Tchissola', '923 000 111', now(), 10000, 2000, 1500, 'BEMVINDO', 'delivery',
             'Luanda centro', 2, $3::jsonb, $4) RETURNING id`,
    [
      externalTransactionId,
      `shopper_${randomUUID()}`,
      JSON.stringify({
        province: "Luanda",
        municipality: "Maianga",
        neighbourhood: "Alvalade",
        street: "Rua Comandante Gika, 12",
        reference: "Ao lado da farmácia",
      }),
      email,
    ],
  );
  await query(
    `INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity)
     SELECT $1::uuid, p.id, v.id, p.name, 5000, 2 FROM products p JOIN product_variants v ON v.product_id = p.id
     ORDER BY p.slug, v.position LIMIT 1`,
    [order!.id],
  );
  try {
    await signInToBackOffice(page);
    await page.goto(`/admin/orders?fulfilment=to_prepare&method=delivery&q=${externalTransactionId}`);
    await expect(page.getByLabel(pt.admin.orders.fulfilment)).toHaveValue("to_prepare");
    await page.getByRole("link", { name: externalTransactionId }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${externalTransactionId}$`));

    const delivery = page.getByTestId("order-delivery");
    await expect(delivery).toContainText("Rua Comandante Gika, 12, Alvalade, Maianga, Luanda (Ao lado da farmácia)");
    await expect(delivery).toContainText("Luanda centro");
    await expect(delivery).toContainText(email);
    await expect(page.getByTestId("order-breakdown")).toContainText(steps.discount("BEMVINDO"));
    const fulfilment = page.getByTestId("order-fulfilment");
    await expect(fulfilment.getByTestId("fulfilment-state")).toHaveText(steps.states.to_prepare);
    // Only the next allowed step is offered.
    await expect(fulfilment.getByRole("button")).toHaveText([text.fulfilment.mark.shipped]);
    await expectNoAxeViolations(page, `admin order, to prepare (${testInfo.project.name})`);

    await fulfilment.getByLabel(text.fulfilment.note).fill("Seguimento AO-123-456");
    await fulfilment.getByRole("button", { name: text.fulfilment.mark.shipped }).click();
    await expect(page).toHaveURL(/\?done=fulfilment$/);
    await expect(page.getByTestId("order-flash")).toHaveText(text.done.fulfilment);
    await expect(fulfilment.getByTestId("fulfilment-state")).toHaveText(steps.states.shipped);
    await expect(fulfilment.getByRole("button")).toHaveText([text.fulfilment.mark.delivered]);
    const shippedEvent = page.locator('[data-testid="timeline-event"][data-kind="fulfilment"]');
    // The step names the person who made it: the owner signed in above, by their name.
    const [owner] = await query<{ name: string }>("SELECT name FROM staff WHERE email = $1", [
      ownerCredentials().email,
    ]);
    await expect(shippedEvent).toContainText(text.event.fulfilment(steps.states.shipped, owner!.name));
    await expect(shippedEvent).toContainText("Seguimento AO-123-456");
    await expectNoAxeViolations(page, `admin order, shipped (${testInfo.project.name})`);

    // The shopper's page: to prepare (the payment's date), shipped (today, with the note), delivered to come.
    const shopperPage = await page.context().newPage();
    await shopperPage.goto(`/orders/${externalTransactionId}`);
    const progress = shopperPage.getByTestId("fulfilment-step");
    await expect(progress).toHaveCount(3);
    await expect(progress.nth(0)).toHaveAttribute("data-done", "true");
    await expect(progress.nth(1)).toHaveAttribute("data-state", "shipped");
    await expect(progress.nth(1)).toHaveAttribute("data-done", "true");
    await expect(progress.nth(1)).toHaveAttribute("aria-current", "step");
    await expect(progress.nth(1)).toContainText("Seguimento AO-123-456");
    await expect(progress.nth(2)).toHaveAttribute("data-done", "false");
    await expect(progress.nth(2)).toContainText(steps.stepToCome);
    await expect(shopperPage.getByTestId("delivery-address")).toHaveText(
      "Rua Comandante Gika, 12, Alvalade, Maianga, Luanda (Ao lado da farmácia)",
    );
    await expect(shopperPage.getByTestId("order-breakdown")).toContainText(steps.deliveryFee);
    await expectNoAxeViolations(shopperPage, `order page, shipped (${testInfo.project.name})`);

    await fulfilment.getByRole("button", { name: text.fulfilment.mark.delivered }).click();
    await expect(page).toHaveURL(/\?done=fulfilment$/);
    await expect(fulfilment.getByTestId("fulfilment-state")).toHaveText(steps.states.delivered);
    await expect(fulfilment.getByRole("button")).toHaveCount(0);
    await expect(fulfilment).toContainText(text.fulfilment.finished);
    await expect(page.locator('[data-testid="timeline-event"][data-kind="fulfilment"]')).toHaveCount(2);

    await shopperPage.reload();
    await expect(progress.nth(2)).toHaveAttribute("data-state", "delivered");
    await expect(progress.nth(2)).toHaveAttribute("data-done", "true");
    await expect(progress.nth(2)).toHaveAttribute("aria-current", "step");
    await expectNoAxeViolations(shopperPage, `order page, delivered (${testInfo.project.name})`);

    // One mail to the shopper per step, run by the server after each answer.
    await expect
      .poll(async () =>
        (
          await query<{ to: string; job_key: string }>(
            `SELECT "to", job_key FROM emails WHERE job_key LIKE $1 ORDER BY job_key`,
            [`fulfilment-mail:%:${externalTransactionId}`],
          )
        ).map((mail) => `${mail.to} ${mail.job_key}`),
      )
      .toEqual([
        `${email} fulfilment-mail:delivered:${externalTransactionId}`,
        `${email} fulfilment-mail:shipped:${externalTransactionId}`,
      ]);
  } finally {
    await query("DELETE FROM emails WHERE job_key LIKE $1", [`%:${externalTransactionId}`]);
    await query("DELETE FROM jobs WHERE dedupe_key LIKE $1", [`%:${externalTransactionId}`]);
    await query("DELETE FROM orders WHERE id = $1::uuid", [order!.id]);
  }
});
