import type { Page } from "@playwright/test";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { ORDER_PAGES_CACHE } from "../lib/offline/offline-rules";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, openCheckout, openPopup } from "./support/shop";

/**
 * The service worker (app/sw.ts) in Chromium: a pending bank reference opened in this browser
 * stays readable offline, any other page offline is the offline page (axe at 0 there, on a
 * desktop and, in the "phone" project, on a phone), and the back office is never answered from
 * a cache. Playwright's offline mode covers the worker's own requests too.
 */

/**
 * Resolves once the shop's worker is active (it registers after a page's load). The page that
 * registered it may stay uncontrolled (one that loaded while the worker installed is not always
 * claimed): every navigation after this goes through the worker.
 */
const workerActive = (page: Page) => page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

/** Whether the worker has kept the page at `path` in its order pages' cache. */
const keeps = (page: Page, path: string) =>
  page.evaluate(
    async ([cacheName, kept]) => Boolean(await (await caches.open(cacheName!)).match(kept!)),
    [ORDER_PAGES_CACHE, path],
  );

/** A checkout paid by bank reference: the browser is on its pending page, which installs the worker. */
async function openPendingReference(page: Page): Promise<string> {
  await addFromCatalog(page, DEMO_PRODUCTS[3]!.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPGEXT");
  await expect(page).toHaveURL(/\/checkout\/pending\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("payment-reference")).toBeVisible();
  return new URL(page.url()).pathname;
}

test("a pending bank reference opened in this browser reads the same offline: entity, reference, amount and until when", async ({
  page,
  context,
}, testInfo) => {
  // The checkout, the popup, then the page three times (online, offline, from the offline page).
  test.setTimeout(90_000);
  const pendingPath = await openPendingReference(page);
  const shown = {
    entity: (await page.getByTestId("entity-number").textContent())!,
    reference: (await page.getByTestId("payment-reference").textContent())!,
    amount: (await page.getByTestId("reference-amount").textContent())!,
    until: (await page.getByTestId("reference-valid-until").textContent())!,
  };
  expect(shown.reference).toMatch(/^\d+$/);

  // The page came by a client-side navigation: the worker loads it itself and keeps it.
  await workerActive(page);
  await expect.poll(() => keeps(page, pendingPath), { message: "the pending page is kept" }).toBe(true);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${pendingPath}$`));
    await expect(page.getByRole("heading", { level: 1, name: pt.order.pendingTitle })).toBeVisible();
    await expect(page.getByTestId("entity-number")).toHaveText(shown.entity);
    await expect(page.getByTestId("payment-reference")).toHaveText(shown.reference);
    await expect(page.getByTestId("reference-amount")).toHaveText(shown.amount);
    await expect(page.getByTestId("reference-valid-until")).toHaveText(shown.until);
    await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");

    // Any other page offline: the offline page, which links to the kept order.
    await page.goto("/cart");
    await expect(page.getByRole("heading", { level: 1, name: pt.offline.title })).toBeVisible();
    await expect(page).toHaveURL(/\/cart$/);
    const kept = page.getByTestId("kept-order-page");
    await expect(kept).toHaveCount(1);
    await expect(kept.getByRole("link")).toHaveText(
      `${pt.order.title(orderNumber(pendingPath))}: ${pt.offline.pageKinds.pending}`,
    );
    await expectNoAxeViolations(page, `offline page (${testInfo.project.name})`);

    await kept.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`${pendingPath}$`));
    await expect(page.getByTestId("payment-reference")).toHaveText(shown.reference);
  } finally {
    await context.setOffline(false);
  }
});

test("the back office offline is the offline page, never a copy of the orders list", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  // The worker is installed by a shopper's order page (never by the back office), then controls /admin too.
  await openPendingReference(page);
  await workerActive(page);
  await signInToBackOffice(page);
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.orders.title })).toBeVisible();
  await expect(page.getByTestId("orders-count")).toBeVisible();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: pt.offline.title })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: pt.admin.orders.title })).toHaveCount(0);
    await expect(page.getByTestId("orders-count")).toHaveCount(0);
    await expectNoAxeViolations(page, `offline page from the back office (${testInfo.project.name})`);
  } finally {
    await context.setOffline(false);
  }

  // Nothing of the back office, and no answer of the API, was kept by the worker.
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(kept.filter((path) => path.startsWith("/admin") || path.startsWith("/api/"))).toEqual([]);
});

const orderNumber = (path: string) => /order_([0-9a-f]{8})/.exec(path)![1]!.toUpperCase();
