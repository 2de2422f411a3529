import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { readE2eServerEnvironment } from "../../harness/server-environment";
import { pt } from "../../lib/i18n/dictionaries";

/** A 4×3 green PNG: a product image for the back office's forms and API. */
export const PRODUCT_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQzXeCIwacHAC6twmpGx4hjgAAAABJRU5ErkJggg==",
  "base64",
);

/** Signs in to the back office with the e2e shop's ADMIN_PASSWORD (test-results/e2e-server.json), as the owner does. */
export async function signInToBackOffice(page: Page): Promise<void> {
  await page.goto("/admin");
  await page.getByLabel(pt.admin.password).fill(readE2eServerEnvironment().adminPassword);
  await page.getByRole("button", { name: pt.admin.signIn }).click();
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
