import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { hashPassword } from "better-auth/crypto";
import { expect } from "./fixtures";
import { query } from "./database";
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
  const owner = ownerCredentials();
  await page.getByLabel(pt.admin.email, { exact: true }).fill(person.email ?? owner.email);
  await page.getByLabel(pt.admin.password, { exact: true }).fill(person.password ?? owner.password);
  await page.getByRole("button", { name: pt.admin.signIn }).click();
}

/** Signs in to the back office as the e2e shop's owner (ADMIN_EMAIL and ADMIN_PASSWORD), as the owner does. */
export async function signInToBackOffice(page: Page): Promise<void> {
  await signInAs(page, ownerCredentials());
}

/** The e2e shop's owner: its ADMIN_EMAIL and ADMIN_PASSWORD (test-results/e2e-server.json). */
export const ownerCredentials = () => {
  const { adminEmail, adminPassword } = readE2eServerEnvironment();
  return { email: adminEmail, password: adminPassword };
};

export interface StaffPerson {
  id: string;
  name: string;
  email: string;
  password: string;
}

/**
 * A person with the staff role, made straight in the e2e shop's database as the owner's form
 * makes one (a `staff` row and its password as better-auth hashes it), to sign in with.
 */
export async function createStaffPerson(name = "Ana"): Promise<StaffPerson> {
  const id = randomBytes(24).toString("base64url");
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${randomBytes(4).toString("hex")}@shop.example`;
  const password = `staff ${randomBytes(12).toString("hex")}`;
  await query("INSERT INTO staff (id, name, email, email_verified, role) VALUES ($1, $2, $3, true, 'staff')", [
    id,
    name,
    email,
  ]);
  await query(
    `INSERT INTO staff_logins (id, staff_id, account_id, provider_id, password)
     VALUES ($1, $2, $2, 'credential', $3)`,
    [randomBytes(24).toString("base64url"), id, await hashPassword(password)],
  );
  return { id, name, email, password };
}

/** Signs in to the back office on its form, as `person` (the owner by default), and waits for the home. */
export async function signInAs(page: Page, person: { email: string; password: string } = ownerCredentials()) {
  await page.goto("/admin");
  await fillAdminSignIn(page, person);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
}

/**
 * The back office's menu: on a phone it is behind its "Menu" disclosure, which this opens; on a
 * wide screen the side bar is always open.
 */
export async function adminMenu(page: Page) {
  const nav = page.getByRole("navigation", { name: pt.admin.nav.label });
  const summary = nav.locator("summary");
  if (await summary.isVisible()) {
    const details = nav.locator("details");
    if ((await details.getAttribute("open")) === null) await summary.click();
  }
  return nav;
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
