import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { readE2eServerEnvironment } from "../../harness/server-environment";
import { pt } from "../../lib/i18n/dictionaries";

/** A 4×3 green PNG: a product image for the back office's forms and API. */
export const PRODUCT_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQzXeCIwacHAC6twmpGx4hjgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Fills the sign-in form /admin shows with an e-mail and password: the e2e shop's owner's
 * (ADMIN_EMAIL and ADMIN_PASSWORD, test-results/e2e-server.json) unless given, and sends it.
 */
export async function fillAdminSignIn(page: Page, person: { email?: string; password?: string } = {}): Promise<void> {
  const { adminEmail, adminPassword } = readE2eServerEnvironment();
  await page.getByLabel(pt.admin.email, { exact: true }).fill(person.email ?? adminEmail);
  await page.getByLabel(pt.admin.password, { exact: true }).fill(person.password ?? adminPassword);
  await page.getByRole("button", { name: pt.admin.signIn }).click();
}

/** Signs in to the back office as the e2e shop's owner (ADMIN_EMAIL and ADMIN_PASSWORD), as the owner does. */
export async function signInToBackOffice(page: Page): Promise<void> {
  await page.goto("/admin");
  await fillAdminSignIn(page);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
}

/**
 * The page asks search engines not to index it: every robots tag says noindex. After a
 * client-side navigation the previous page's tag may stand beside this one's for a moment.
 */
export async function expectNoIndex(page: Page): Promise<void> {
  const robots = await page
    .locator('meta[name="robots"]')
    .evaluateAll((tags) => tags.map((tag) => tag.getAttribute("content")));
  expect(robots.length, "the page has a robots tag").toBeGreaterThan(0);
  for (const content of robots) expect(content).toMatch(/noindex/);
}
