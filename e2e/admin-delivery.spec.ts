import { randomUUID } from "node:crypto";
import { adminMenu, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The back office's delivery methods in the browser, with plain forms: a delivery zone created on
 * /admin/delivery, offered by GET /api/delivery-options, then turned off from its row's form and
 * no longer offered. What this spec creates is removed afterwards, whatever happens.
 */

const ZONE = `Zona de teste ${randomUUID().slice(0, 8)}`;

test.afterAll(async () => {
  await query("DELETE FROM delivery_zones WHERE name = $1", [ZONE]);
});

type Options = { zones: { id: string; name: string; feeAoa: number; freeFromAoa: number | null }[] };

test("a delivery zone created, offered, turned off and no longer offered", async ({ page }) => {
  test.setTimeout(60_000);
  const text = pt.admin.deliveryMethods;

  await signInToBackOffice(page);
  await (await adminMenu(page)).getByRole("link", { name: text.title }).click();
  await expect(page).toHaveURL(/\/admin\/delivery$/);
  await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();

  const form = page.getByRole("region", { name: text.newZone });
  await form.getByLabel(text.name, { exact: true }).fill(ZONE);
  await form.getByLabel(text.feeAoa, { exact: true }).fill("2500");
  await form.getByLabel(text.freeFromAoa, { exact: true }).fill("50000");
  await form.getByLabel(text.estimatedDays, { exact: true }).fill("2");
  await form.getByRole("button", { name: text.create }).click();
  await expect(page).toHaveURL(/\/admin\/delivery\?done=created#zones$/);
  await expect(page.getByRole("status").filter({ hasText: text.done.created })).toBeVisible();
  const row = page.locator(`[data-testid="delivery-zone"][data-name="${ZONE}"]`);
  await expect(row).toHaveAttribute("data-active", "true");
  await expectNoAxeViolations(page, "admin delivery");

  const offered = (await (await page.request.get("/api/delivery-options")).json()) as Options;
  expect(offered.zones.find((zone) => zone.name === ZONE)).toMatchObject({ feeAoa: 2500, freeFromAoa: 50000 });

  await row.getByText(text.edit(ZONE)).click();
  await row.getByLabel(text.active).uncheck();
  await row.getByRole("button", { name: text.save }).click();
  await expect(page).toHaveURL(/\/admin\/delivery\?done=saved#zones$/);
  await expect(page.locator(`[data-testid="delivery-zone"][data-name="${ZONE}"]`)).toHaveAttribute(
    "data-active",
    "false",
  );

  const after = (await (await page.request.get("/api/delivery-options")).json()) as Options;
  expect(after.zones.map((zone) => zone.name)).not.toContain(ZONE);
});
