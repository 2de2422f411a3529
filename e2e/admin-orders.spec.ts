import { randomInt, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { adminMenu, expectNoIndex, signInToBackOffice } from "./support/admin";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { kwanza } from "./support/shop";
import { BACK_OFFICE_TEXTS } from "../lib/i18n/back-office";
import { en, pt } from "../lib/i18n/dictionaries";

/**
 * The back office's orders list and CSV exports (/admin/orders, lib/orders/orders-admin.ts,
 * lib/orders/export-admin.ts and the refunds' lib/orders/refund-export-admin.ts), in the browser,
 * with an order written straight into the e2e database (as e2e/admin.spec.ts does for the home's
 * totals) and removed afterwards.
 */

test("without a session /admin/orders goes to the sign-in, with no order data", async ({ page, request }) => {
  const response = await request.get("/admin/orders", { maxRedirects: 0 });
  expect([303, 307, 308]).toContain(response.status());
  expect(response.headers().location).toMatch(/\/admin$/);
  expect(await response.text()).not.toContain("order_");

  await page.goto("/admin/orders?status=CON");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByLabel(pt.admin.password)).toBeVisible();
  await expect(page.getByTestId("admin-order")).toHaveCount(0);

  const csv = await request.get("/api/admin/orders/export");
  expect(csv.status()).toBe(401);
  expect(await csv.json()).toMatchObject({ error: { code: "unauthorized" } });
});

test("an order paid just now is in the list, found by status and search, and in today's CSV", async ({
  page,
}, testInfo) => {
  const externalTransactionId = `order_${randomUUID()}`;
  const referenceNumber = String(randomInt(100_000_000, 999_999_999));
  const phone = `+244 9${randomInt(10, 99)} ${randomInt(100, 999)} ${randomInt(100, 999)}`;
  await query(
    `INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id,
                         customer_name, customer_phone, finalized_at, attention_reason, attention_at)
     VALUES ($1, $2, 'CON', 23456, $3, 'Ana Tchissola', $4, now(), 'paid_after_cancel', now())`,
    [externalTransactionId, referenceNumber, `shopper_${randomUUID()}`, phone],
  );
  try {
    await signInToBackOffice(page);
    await (await adminMenu(page)).getByRole("link", { name: pt.admin.nav.orders }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { level: 1, name: pt.admin.orders.title })).toBeVisible();
    await expectNoIndex(page);

    // Newest first: the order just written is the first row.
    const first = page.getByTestId("admin-order").first();
    await expect(first).toContainText(externalTransactionId);
    await expect(first).toContainText("Ana Tchissola");
    await expect(first).toContainText(kwanza.format(23456));
    await expect(first).toContainText(pt.order.status.CON);
    await expect(first.getByTestId("attention")).toContainText("paid_after_cancel");
    // The order id links to the order's own page (e2e/admin-order.spec.ts).
    await expect(first.getByRole("link", { name: externalTransactionId })).toHaveAttribute(
      "href",
      `/admin/orders/${externalTransactionId}`,
    );
    await screenshotAtEachWidth(page, testInfo, "admin-orders", { accessible: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    const row = page.getByTestId("admin-order").filter({ hasText: externalTransactionId });
    // Filtered by status: among the paid, not among the pending.
    await page.getByLabel(pt.admin.orders.status).selectOption("CON");
    await page.getByRole("button", { name: pt.admin.orders.filter }).click();
    await expect(page).toHaveURL(/status=CON/);
    await expect(row).toHaveCount(1);
    await page.getByLabel(pt.admin.orders.status).selectOption("PEN");
    await page.getByRole("button", { name: pt.admin.orders.filter }).click();
    await expect(page).toHaveURL(/status=PEN/);
    await expect(row).toHaveCount(0);

    // Searched by reference number, by phone (as the merchant types it) and by id.
    await page.getByLabel(pt.admin.orders.status).selectOption("");
    for (const search of [referenceNumber, phone.replace("+244 ", "").replaceAll(" ", ""), externalTransactionId]) {
      await page.getByLabel(pt.admin.orders.search).fill(search);
      await page.getByRole("button", { name: pt.admin.orders.filter }).click();
      await expect(page.getByTestId("orders-count")).toHaveText(pt.admin.orders.count(1));
      await expect(row).toHaveCount(1);
    }

    // Today's CSV, from the form's default dates.
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: pt.admin.orders.download }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const records: string[][] = parse(await readFile((await download.path())!, "utf8"), { bom: true });
    expect(records[0]?.slice(0, 5)).toEqual(["order_id", "created_at", "finalized_at", "status", "amount_aoa"]);
    const line = records.find((record) => record[0] === externalTransactionId);
    expect(line).toBeDefined();
    expect(line!.slice(3, 6)).toEqual(["CON", "23456", referenceNumber]);
    expect(line![1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/);
    // Nothing refunded: the last column says 0.
    expect(records[0]?.at(-1)).toBe("refunded_aoa");
    expect(line!.at(-1)).toBe("0");

    // The owner's refunds CSV, from the form beside it: today's, header first.
    const refundsForm = page.getByTestId("refunds-export");
    const downloadingRefunds = page.waitForEvent("download");
    await refundsForm.getByRole("button", { name: BACK_OFFICE_TEXTS.pt.refundFigures.download }).click();
    const refunds = await downloadingRefunds;
    expect(refunds.suggestedFilename()).toMatch(/^refunds-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const refundRecords: string[][] = parse(await readFile((await refunds.path())!, "utf8"), { bom: true });
    expect(refundRecords[0]?.slice(0, 4)).toEqual(["refund_number", "refunded_at", "order_id", "amount_aoa"]);
  } finally {
    await query("DELETE FROM orders WHERE external_transaction_id = $1", [externalTransactionId]);
  }
});

test("in English through the language cookie", async ({ page, baseURL }) => {
  await signInToBackOffice(page);
  await page.context().addCookies([{ name: "lang", value: "en", url: baseURL! }]);
  await page.goto("/admin/orders?status=NOPE&page=-1");
  await expect(page.getByRole("heading", { level: 1, name: en.admin.nav.orders })).toBeVisible();
  await expect(page.getByLabel(en.admin.orders.status)).toHaveValue("");
  await expect(page.getByRole("button", { name: en.admin.orders.download })).toBeVisible();
});
