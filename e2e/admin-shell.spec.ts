import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { adminMenu, createStaffPerson, signInAs, signInToBackOffice } from "./support/admin";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { BACK_OFFICE_PAGES, mayOpenPage } from "../lib/admin/roles";
import { BACK_OFFICE_TEXTS } from "../lib/i18n/back-office";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The back office's own frame (components/admin/admin-shell.tsx), in the browser: none of the
 * shop's header, search or cart; the person's name and role and the sign-outs; the menu with the
 * sections the role may open (a side bar at 1280 px, a disclosure at 390 px); staff without the
 * money, and the 403 page on the owner's pages. axe finds nothing at either width.
 */

const words = BACK_OFFICE_TEXTS.pt;

/** None of the shop's frame: no header navigation, product search, cart or shopper's account link. */
async function expectNoShopFrame(page: Page) {
  await expect(page.getByRole("navigation", { name: pt.shop.mainNavigation })).toHaveCount(0);
  // The shop's search; a back-office page may have a search of its own (the orders' filter).
  await expect(page.locator('form[action="/search"]')).toHaveCount(0);
  await expect(page.getByRole("searchbox", { name: pt.browse.searchLabel })).toHaveCount(0);
  await expect(page.locator('a[href="/cart"]')).toHaveCount(0);
  await expect(page.locator('a[href^="/account"]')).toHaveCount(0);
}

/** The menu's links as the person sees them (the disclosure opened on a phone). */
async function menuLinks(page: Page): Promise<string[]> {
  const nav = await adminMenu(page);
  return nav.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
}

/** axe on the page at 390 px (with the menu closed, then open) and at 1280 px. */
async function expectAccessibleFrame(page: Page, testInfo: TestInfo, name: string) {
  await screenshotAtEachWidth(page, testInfo, name, { accessible: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await (await adminMenu(page)).getByRole("link").first().waitFor();
  await expectNoAxeViolations(page, `${name} at phone, menu open`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Every section of the menu, in its order, that `role` may open. */
const sectionsOf = (role: "owner" | "staff") =>
  ["/admin", "/admin/orders", "/admin/products", "/admin/categories", "/admin/catalogue", "/admin/delivery"]
    .concat(["/admin/promo-codes", "/admin/people", "/admin/activity", "/admin/account"])
    .filter((href) => mayOpenPage(role, href));

test("signed out, /admin is the sign-in form in a frame of its own, with no menu", async ({ page }, testInfo) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.signInTitle })).toBeVisible();
  await expectNoShopFrame(page);
  await expect(page.getByRole("navigation", { name: pt.admin.nav.label })).toHaveCount(0);
  await expect(page.getByTestId("admin-person")).toHaveCount(0);
  await expect(page.getByRole("banner")).toContainText(pt.shop.name);
  await screenshotAtEachWidth(page, testInfo, "admin-frame-signed-out", { accessible: true });
});

test("the owner's frame: name and role, sign-outs, every section, the page marked; axe at 0", async ({
  page,
}, testInfo) => {
  test.slow();
  await signInToBackOffice(page);
  await expectNoShopFrame(page);
  await expect(page.getByTestId("admin-person")).toContainText(words.shell.roles.owner);
  await expect(page.getByRole("button", { name: pt.admin.signOut, exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: pt.admin.signOutEverywhere })).toBeVisible();
  expect(await menuLinks(page)).toEqual(sectionsOf("owner"));
  const nav = await adminMenu(page);
  await expect(nav.locator('[aria-current="page"]')).toHaveAttribute("href", "/admin");
  await expect(page.getByTestId("paid-today")).toBeVisible();
  await expectAccessibleFrame(page, testInfo, "admin-frame-owner-home");

  await nav.getByRole("link", { name: pt.admin.nav.orders }).click();
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.nav.orders })).toBeVisible();
  await expect((await adminMenu(page)).locator('[aria-current="page"]')).toHaveAttribute("href", "/admin/orders");
  await expectNoShopFrame(page);
  await expectAccessibleFrame(page, testInfo, "admin-frame-owner-orders");

  // On a phone the menu is a disclosure: closed until opened, then the same sections.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const phoneMenu = page.getByRole("navigation", { name: pt.admin.nav.label });
  await expect(phoneMenu.getByRole("link", { name: pt.admin.nav.orders })).toBeHidden();
  await phoneMenu.getByText(words.shell.menu, { exact: true }).click();
  await expect(phoneMenu.getByRole("link", { name: pt.admin.nav.orders })).toBeVisible();
  expect(await menuLinks(page)).toEqual(sectionsOf("owner"));
});

test("staff: their sections only, no money on the home, and the 403 page on the owner's pages", async ({
  page,
}, testInfo) => {
  test.slow();
  // Left in the run's database afterwards: the record of who did what keeps its people.
  const ana = await createStaffPerson("Ana");
  await signInAs(page, ana);
  await expectNoShopFrame(page);
  await expect(page.getByTestId("admin-person")).toContainText(ana.name);
  await expect(page.getByTestId("admin-person")).toContainText(words.shell.roles.staff);
  const staffSections = sectionsOf("staff");
  expect(staffSections).toEqual(["/admin", "/admin/orders", "/admin/products", "/admin/categories", "/admin/account"]);
  expect(await menuLinks(page)).toEqual(staffSections);

  // What needs attention and the orders waiting, none of the money: not even in the page's HTML.
  await expect(page.getByTestId("attention")).toBeVisible();
  const [pending] = await query<{ count: string }>("SELECT count(*) FROM orders WHERE status = 'PEN'");
  await expect(page.getByTestId("pending-orders")).toHaveText(String(Number(pending!.count)));
  const html = await page.content();
  for (const money of ["paid-today", "paid-this-month", pt.admin.paidToday, pt.admin.paidThisMonth])
    expect(html, `staff's home shows no ${money}`).not.toContain(money);
  expect(html).not.toContain("/api/admin/dashboard/export");
  await expect(page.getByRole("heading", { name: words.dashboard.title })).toHaveCount(0);
  await expectAccessibleFrame(page, testInfo, "admin-frame-staff-home");

  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.nav.orders })).toBeVisible();
  await expect((await adminMenu(page)).locator('[aria-current="page"]')).toHaveAttribute("href", "/admin/orders");
  await expectAccessibleFrame(page, testInfo, "admin-frame-staff-orders");

  // Every owner's page (as the table has them, those on disk): a 403, saying so, inside the frame.
  const ownersPages = BACK_OFFICE_PAGES.filter((entry) => !entry.roles.includes("staff"))
    .filter((entry) => existsSync(`app/[lang]${entry.path}/page.tsx`))
    .map((entry) => entry.path.replace(/\[[^\]]+\]/g, randomUUID()));
  expect(ownersPages).toEqual(expect.arrayContaining(["/admin/catalogue", "/admin/delivery", "/admin/promo-codes"]));
  for (const path of ownersPages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: words.forbidden.title })).toBeVisible();
    await expect(page.getByTestId("forbidden")).toContainText(words.shell.roles.staff);
    await expect(page.getByRole("link", { name: words.shell.home })).toHaveAttribute("href", "/admin");
    await expect(page.getByTestId("admin-person")).toContainText(ana.name);
  }
  await expectAccessibleFrame(page, testInfo, "admin-frame-staff-forbidden");

  // The pages staff may open, open.
  for (const path of ["/admin/orders", "/admin/products", "/admin/products/new", "/admin/categories"])
    expect((await page.goto(path))?.status(), path).toBe(200);
});
