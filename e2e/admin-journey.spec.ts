import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { adminMenu, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, openCheckout, openPopup } from "./support/shop";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The owner's day, end to end: a shopper pays in the service's popup (the local sandbox's),
 * the signed webhook confirms the order, and the owner finds it in the back office — in the list,
 * on its page with the delivery and the jobs it caused, a failed job retried until DONE, and in
 * today's CSV for the accountant.
 */

const orderIdIn = (url: string) => /order_[0-9a-f-]{36}/.exec(url)![0];

test("an order paid in the popup reaches the back office: list, page, webhook, jobs, retry, CSV", async ({
  page,
  sandbox,
}) => {
  const product = DEMO_PRODUCTS[5]!;
  await addFromCatalog(page, product.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());
  await sandbox.waitForDeliveries({ externalTransactionId: id, timeoutMs: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  const [stored] = await query<{ amount_aoa: number }>(
    "SELECT amount_aoa FROM orders WHERE external_transaction_id = $1",
    [id],
  );

  // The list: the newest order first.
  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: pt.admin.nav.orders }).click();
  const first = page.getByTestId("admin-order").first();
  await expect(first).toContainText(id);
  await expect(first).toContainText(pt.order.status.CON);

  // Its page: the delivery the service signed, and the jobs the confirmation enqueued, all DONE.
  await first.getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${id}$`));
  const webhook = page.locator('[data-testid="timeline-event"][data-kind="webhook"]');
  await expect(webhook).toHaveCount(1);
  await expect(webhook).toContainText("CON");
  await expect(webhook).toContainText("transitioned");
  await webhook.getByText(pt.admin.order.rawBody).click();
  await expect(webhook.locator("pre")).toContainText(id);
  const jobs = page.getByTestId("order-job");
  await expect
    .poll(async () => {
      await page.reload();
      return jobs.allTextContents();
    })
    .toEqual([
      expect.stringMatching(/^clear-cart · DONE/),
      expect.stringMatching(/^confirmation-mail · DONE/),
      expect.stringMatching(/^record-invoice · DONE/),
    ]);

  // A job that failed every attempt (as the runner leaves one: PARKED, with its last error) is
  // on the home's attention list, and is retried from the order's page until DONE.
  await query(
    `UPDATE jobs SET status = 'PARKED', attempts = max_attempts, last_error = 'SMTP: connection refused'
     WHERE dedupe_key = $1`,
    [`confirmation-mail:${id}`],
  );
  await page.goto("/admin");
  const parked = page.getByTestId("attention-parked-jobs");
  await expect(parked).toContainText("SMTP: connection refused");
  await parked.getByRole("link", { name: `confirmation-mail · ${id}` }).click();
  const mailJob = jobs.filter({ hasText: "confirmation-mail" });
  await expect(mailJob.getByTestId("job-status")).toHaveText("PARKED");
  await mailJob.getByRole("button", { name: pt.admin.order.retry }).click();
  await expect(page).toHaveURL(/\?done=retried$/);
  await expect(mailJob.getByTestId("job-status")).toHaveText("DONE");
  const [job] = await query<{ status: string; attempts: number }>(
    "SELECT status, attempts FROM jobs WHERE dedupe_key = $1",
    [`confirmation-mail:${id}`],
  );
  expect(job).toEqual({ status: "DONE", attempts: 1 });
  await page.goto("/admin");
  await expect(page.getByRole("link", { name: `confirmation-mail · ${id}` })).toHaveCount(0);

  // Today's CSV (the form's default dates) holds the order, paid, at its amount.
  await page.goto("/admin/orders");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: pt.admin.orders.download }).click();
  const records: string[][] = parse(await readFile((await (await downloading).path())!, "utf8"));
  const line = records.find((record) => record[0] === id);
  expect(line?.slice(3, 5)).toEqual(["CON", String(stored!.amount_aoa)]);
});
