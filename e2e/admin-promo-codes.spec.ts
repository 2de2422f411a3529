import { randomUUID } from "node:crypto";
import { adminMenu, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pt } from "../lib/i18n/dictionaries";
import { formatAoa } from "../lib/money";

/**
 * The back office's promo codes in the browser, with plain forms: a code limited to a category
 * and to dates created on /admin/promo-codes (typed in lower case, listed in upper case), refused
 * when created again (the field marked and described by the message), then edited from its row's
 * form and turned off. What this spec creates is removed afterwards, whatever happens.
 */

const CODE = `TESTE${randomUUID().slice(0, 8).toUpperCase()}`;
const CATEGORY = "Café e petiscos";

test.afterAll(async () => {
  await query("DELETE FROM promo_codes WHERE code = $1", [CODE]);
});

test("a promo code created with a category and dates, listed, refused when made again, edited and turned off", async ({
  page,
}) => {
  // Two axe runs, each some seconds on a busy machine or an emulated phone.
  test.setTimeout(120_000);
  const text = pt.admin.promoCodes;

  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: text.title }).click();
  await expect(page).toHaveURL(/\/admin\/promo-codes$/);
  await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();

  const form = page.getByRole("region", { name: text.newCode });
  await form.getByLabel(text.code, { exact: true }).fill(CODE.toLowerCase());
  await form.getByLabel(text.kinds.fixed).check();
  await form.getByLabel(text.value, { exact: true }).fill("2500");
  await form.getByLabel(text.minSubtotalAoa).fill("10000");
  await form.getByLabel(text.startsAt).fill("2030-01-01T09:00");
  await form.getByLabel(text.endsAt).fill("2030-01-31T18:30");
  await form.getByLabel(text.maxUses).fill("50");
  await form.getByLabel(text.maxUsesPerPhone).fill("1");
  await form.getByRole("group", { name: text.categories }).getByLabel(CATEGORY).check();
  await form.getByRole("button", { name: text.create }).click();
  await expect(page).toHaveURL(/\/admin\/promo-codes\?done=created#promo-codes$/);
  await expect(page.getByRole("status").filter({ hasText: text.done.created })).toBeVisible();

  const row = page.locator(`[data-testid="promo-code"][data-code="${CODE}"]`);
  await expect(row).toHaveAttribute("data-state", "scheduled");
  await expect(row.getByRole("rowheader")).toHaveText(CODE);
  for (const cell of [
    formatAoa(2500),
    formatAoa(10000),
    `${text.from("2030-01-01 09:00")}, ${text.until("2030-01-31 18:30")}`,
    text.usesOf(0, 50),
    CATEGORY,
    text.states.scheduled,
  ])
    await expect(row.getByRole("cell", { name: cell, exact: true })).toBeVisible();
  // Luanda's 09:00 is 08:00 UTC.
  const [stored] = await query<{ starts_at: Date; kind: string }>(
    "SELECT starts_at, kind FROM promo_codes WHERE code = $1",
    [CODE],
  );
  expect(stored).toMatchObject({ kind: "fixed", starts_at: new Date("2030-01-01T08:00:00Z") });
  await expectNoAxeViolations(page, "admin promo codes");

  // The same code again: refused, the code's field marked and described by the message.
  await form.getByLabel(text.code, { exact: true }).fill(CODE);
  await form.getByLabel(text.value, { exact: true }).fill("5");
  await form.getByRole("button", { name: text.create }).click();
  await expect(page).toHaveURL(/\?error=code_taken&field=code#promo-codes$/);
  const alert = page.getByRole("alert").filter({ hasText: text.errors.code_taken });
  await expect(alert).toBeVisible();
  const codeField = page.getByRole("region", { name: text.newCode }).getByLabel(text.code, { exact: true });
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(codeField).toHaveAccessibleDescription(new RegExp(text.errors.code_taken));
  await expectNoAxeViolations(page, "admin promo codes, refused");

  await row.getByText(text.edit(CODE)).click();
  await row.getByLabel(text.value, { exact: true }).fill("3000");
  await row.getByLabel(text.endsAt).fill("2030-02-28T23:00");
  await row.getByLabel(text.active).uncheck();
  await row.getByRole("button", { name: text.save }).click();
  await expect(page).toHaveURL(/\/admin\/promo-codes\?done=saved#promo-codes$/);
  await expect(page.getByRole("status").filter({ hasText: text.done.saved })).toBeVisible();
  const edited = page.locator(`[data-testid="promo-code"][data-code="${CODE}"]`);
  await expect(edited).toHaveAttribute("data-state", "inactive");
  await expect(edited.getByRole("cell", { name: formatAoa(3000), exact: true })).toBeVisible();
  await expect(
    edited.getByRole("cell", { name: `${text.from("2030-01-01 09:00")}, ${text.until("2030-02-28 23:00")}` }),
  ).toBeVisible();
  // The category and the limits were sent again by the row's form, unchanged.
  await expect(edited.getByRole("cell", { name: CATEGORY, exact: true })).toBeVisible();
  await expect(edited.getByRole("cell", { name: text.usesOf(0, 50), exact: true })).toBeVisible();
});
