import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The owner's people on a phone's screen (390 px): the owner adds a person on /admin/people
 * without choosing a password, sees the one the shop made up once (gone on reload), finds the
 * person listed, and the page passes axe before and after; the new person then signs in with it
 * and starts two-step sign-in on their account's page, which passes axe too.
 */

test.use({ viewport: { width: 390, height: 844 } });

const text = pt.admin.people;
const EMAIL = `pessoa.${randomUUID().slice(0, 8)}@shop.example`;

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/admin");
  await page.getByLabel(pt.admin.email).fill(email);
  await page.getByLabel(pt.admin.password).fill(password);
  await page.getByRole("button", { name: pt.admin.signIn }).click();
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
}

test("the owner adds a person at 390 px and is shown the password once; the page passes axe; the person signs in", async ({
  page,
  browser,
}) => {
  // Two axe runs and two sign-ins, on an emulated phone.
  test.setTimeout(120_000);
  await signIn(page, "owner@shop.example", readE2eServerEnvironment().adminPassword);
  await page.goto("/admin/people");
  await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
  await expectNoAxeViolations(page, "admin people");

  const form = page.getByRole("region", { name: text.newPerson });
  await form.getByLabel(text.name).fill("Joana Teste");
  await form.getByLabel(text.email).fill(EMAIL);
  await form.getByLabel(text.role).selectOption("staff");
  await form.getByRole("button", { name: text.add }).click();

  // The redirect named the secret (?reveal=…); the page took that name out of the address.
  await expect(page).toHaveURL(/\/admin\/people\?done=added#new-person$/);
  await expect(page.getByRole("status").filter({ hasText: text.done.added })).toBeVisible();
  const revealed = page.getByRole("region", { name: text.revealTitle });
  await expect(revealed).toContainText(text.revealHint("Joana Teste"));
  const password = (await revealed.locator("code").textContent())!;
  expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);

  const person = page.locator(`[data-testid="person"][data-email="${EMAIL}"]`);
  await expect(person.getByRole("heading", { level: 3 })).toHaveText("Joana Teste");
  await expect(person).toHaveAttribute("data-role", "staff");
  await expect(person).toContainText(text.roles.staff);
  await expect(person).toContainText(text.active);
  await expectNoAxeViolations(page, "admin people, a person added");

  // Shown once: a reload shows it no more.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
  await expect(page.getByRole("region", { name: text.revealTitle })).toHaveCount(0);
  expect(await page.content()).not.toContain(password);

  // The person, on their own phone: signed in, on their account's page, setting up two-step sign-in.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const theirs = await other.newPage();
    await signIn(theirs, EMAIL, password);
    await theirs.goto("/admin/account");
    const account = pt.admin.account;
    await expect(theirs.getByRole("heading", { level: 1, name: account.title })).toBeVisible();
    await expect(theirs.getByTestId("account-email")).toHaveText(EMAIL);
    await expectNoAxeViolations(theirs, "admin account");
    const twoFactor = theirs.getByRole("region", { name: account.twoFactorTitle });
    await twoFactor.getByLabel(account.password).fill(password);
    await twoFactor.getByRole("button", { name: account.enable }).click();
    await expect(theirs.getByRole("status").filter({ hasText: account.done.two_factor_started })).toBeVisible();
    await expect(theirs.getByRole("region", { name: account.setupTitle })).toBeVisible();
    await expect(theirs.getByTestId("two-factor-secret")).toHaveText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    await expectNoAxeViolations(theirs, "admin account, two-step sign-in being set up");
  } finally {
    await other.close();
  }
});
