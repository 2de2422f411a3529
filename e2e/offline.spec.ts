import type { APIRequestContext, Page, Request } from "@playwright/test";
import { DEMO_DELIVERY_ZONES, DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { CART_COOKIE, SHOPPER_COOKIE } from "../lib/cart/shopper-cookies";
import { pt } from "../lib/i18n/dictionaries";
import { orderPageOf, SERVICE_WORKER_URL } from "../lib/offline/offline-rules";
import { expectNoAxeViolations } from "./support/accessibility";
import { signInToBackOffice } from "./support/admin";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, openCheckout, openPopup } from "./support/shop";
import { keeps, keptUrls } from "./support/kept-pages";

/**
 * The service worker (app/sw.ts) in Chromium: a pending bank reference opened in this browser
 * stays readable offline, any other page offline is the offline page (axe at 0 there, on a
 * desktop and, in the "phone" project, on a phone), and the back office is never answered from
 * a cache. Playwright's offline mode covers the worker's own requests too. A shopper's text on a
 * page the owner opens makes the worker fetch and keep nothing but the shop's built files.
 */

/**
 * Resolves once the shop's worker is active (it registers after a page's load). The page that
 * registered it may stay uncontrolled (one that loaded while the worker installed is not always
 * claimed): every navigation after this goes through the worker.
 */
const workerActive = (page: Page) => page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

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

/**
 * Addresses a shopper typed into an order's delivery address: once read as built files from a
 * kept page's text, they made the owner's browser fetch the orders' CSV and the back office's
 * orders list with the owner's session, and keep both.
 */
const POISONED_ADDRESS = {
  street: "/_next/static/../../api/admin/orders/export?by=created&x=",
  reference: "/_next/static/%2e%2e/%2e%2e/admin/orders",
  neighbourhood: "Centralidade do Kilamba",
};

/** An order delivered to POISONED_ADDRESS, placed over HTTP by a shopper (not the browser under test). */
async function placePoisonedOrder(shopper: APIRequestContext): Promise<string> {
  const products = (await (await shopper.get("/api/products")).json()) as {
    id: string;
    hasOptions: boolean;
    stock: number;
  }[];
  const product = products.find((candidate) => !candidate.hasOptions && candidate.stock > 2)!;
  const zone = DEMO_DELIVERY_ZONES[0]!;
  const created = await shopper.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name: "Teste E2E", phone: "923000000" },
      delivery: {
        method: "delivery",
        address: { province: "Luanda", municipality: zone.municipalities[0], ...POISONED_ADDRESS },
      },
    },
  });
  expect(created.status()).toBe(200);
  return ((await created.json()) as { externalTransactionId: string }).externalTransactionId;
}

/**
 * What the worker may keep: the shop's built files (no query), the shopper's order pages and the
 * offline page (precached under Serwist's revision parameter).
 */
function mayBeKept(url: string, origin: string): boolean {
  const { origin: from, pathname, search } = new URL(url);
  if (from !== origin) return false;
  if (pathname.startsWith("/_next/static/")) return search === "";
  if (pathname === "/offline") return search === "" || /^\?__WB_REVISION__=[\w-]+$/.test(search);
  return orderPageOf(pathname) !== null && search === "";
}

test("a shopper's text on an order page never makes the owner's worker fetch or keep anything but the shop's files", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const origin = new URL(baseURL!).origin;
  // Every request the worker makes, and those still under way.
  const workerRequests: string[] = [];
  const underWay = new Set<Request>();
  context.on("request", (sent) => {
    if (!sent.serviceWorker()) return;
    workerRequests.push(sent.url());
    underWay.add(sent);
  });
  context.on("requestfinished", (done) => underWay.delete(done));
  context.on("requestfailed", (failed) => underWay.delete(failed));

  const externalTransactionId = await placePoisonedOrder(request);
  const orderPath = `/orders/${externalTransactionId}`;

  // The owner, signed in, opens the shopper's order page (a link on WhatsApp, say): it installs the worker.
  await signInToBackOffice(page);
  await page.goto(orderPath);
  await expect(page.getByTestId("delivery-address")).toContainText(POISONED_ADDRESS.street);
  await expect(page.getByTestId("delivery-address")).toContainText(POISONED_ADDRESS.reference);
  await workerActive(page);
  await expect.poll(() => keeps(page, orderPath), { message: "the order page is kept" }).toBe(true);

  // The worker keeps the page's own files with it; once it has them and asks for nothing more, it is done.
  const ownFiles = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.href),
  );
  expect(ownFiles.length).toBeGreaterThan(0);
  await expect
    .poll(
      async () => {
        const kept = new Set(await keptUrls(page));
        return ownFiles.filter((file) => !kept.has(file));
      },
      { message: "the page's styles are kept" },
    )
    .toEqual([]);
  await expect
    .poll(() => [...underWay].map((sent) => sent.url()), { message: "the worker's requests are over" })
    .toEqual([]);

  const kept = await keptUrls(page);
  expect(kept).toContain(`${origin}${orderPath}`);
  expect(
    kept.filter((url) => !mayBeKept(url, origin)),
    "kept outside the shop's files and order pages",
  ).toEqual([]);
  const asked = workerRequests.map((url) => new URL(url).pathname);
  expect(
    asked.filter((path) => path.startsWith("/api/") || path.startsWith("/admin")),
    "the worker asked for the back office or the API",
  ).toEqual([]);
  // Its own script aside, which the browser fetches for it to look for an update.
  expect(
    workerRequests.filter((url) => !mayBeKept(url, origin) && new URL(url).pathname !== SERVICE_WORKER_URL),
    "the worker asked for",
  ).toEqual([]);
});

/** Presses "Esquecer este telefone" on the page, then confirms. */
async function forgetThisPhone(page: Page): Promise<void> {
  const section = page.getByTestId("forget-this-phone");
  await section.getByRole("button", { name: pt.offline.forget.button }).click();
  await section.getByRole("button", { name: pt.offline.forget.yes }).click();
}

test("'Esquecer este telefone' deletes the pages this browser kept, from the offline page and from the order page, and its list of orders", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  // The checkout, the popup, then the offline page, the order page and the list, twice.
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const status = page.getByTestId("forget-this-phone-status");
  const pendingPath = await openPendingReference(page);
  await workerActive(page);
  await expect.poll(() => keeps(page, pendingPath), { message: "the pending page is kept" }).toBe(true);
  const orderPath = pendingPath.replace("/checkout/pending/", "/orders/");
  await page.goto(orderPath);
  await expect.poll(() => keeps(page, orderPath), { message: "the order page is kept" }).toBe(true);
  await page.goto("/orders");
  await expect(page.getByTestId("my-order")).toHaveCount(1);

  // Offline, the offline page lists both and forgets them; the list of orders waits for the connection, as it says.
  await context.setOffline(true);
  try {
    await page.goto("/cart");
    await expect(page.getByRole("heading", { level: 1, name: pt.offline.title })).toBeVisible();
    await expect(page.getByTestId("kept-order-page")).toHaveCount(2);
    await forgetThisPhone(page);
    await expect(status).toHaveText(pt.offline.forget.doneOffline);
    await expect(page.getByTestId("kept-order-page")).toHaveCount(0);
    await expect(page.getByTestId("no-kept-order-pages")).toBeVisible();
    expect((await keptUrls(page)).filter((url) => orderPageOf(new URL(url).pathname))).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
  await page.goto("/orders");
  await expect(page.getByTestId("my-order")).toHaveCount(1);

  // Opened again, the order page is kept again; forgotten from there, online, the list goes too.
  await page.goto(orderPath);
  await expect.poll(() => keeps(page, orderPath), { message: "the order page is kept again" }).toBe(true);
  const section = page.getByTestId("forget-this-phone");
  await section.getByRole("button", { name: pt.offline.forget.button }).click();
  await expect(section.getByText(pt.offline.forget.question)).toBeVisible();
  await expectNoAxeViolations(page, `order page asking to forget this phone (${testInfo.project.name})`);
  // Cancelled first: nothing is deleted.
  await section.getByRole("button", { name: pt.offline.forget.no }).click();
  expect(await keeps(page, orderPath)).toBe(true);
  await forgetThisPhone(page);
  await expect(status).toHaveText(pt.offline.forget.done);
  // What is left is the same for every visitor: the shop's built files and the offline page.
  const kept = await keptUrls(page);
  expect(kept.filter((url) => !mayBeKept(url, origin) || orderPageOf(new URL(url).pathname))).toEqual([]);
  await page.goto("/orders");
  await expect(page.getByTestId("no-orders")).toBeVisible();

  // Offline, the offline page still opens whole, and lists nothing.
  await context.setOffline(true);
  try {
    await page.goto("/cart");
    await expect(page.getByRole("heading", { level: 1, name: pt.offline.title })).toBeVisible();
    await expect(page.getByTestId("no-kept-order-pages")).toBeVisible();
    await page.goto(orderPath);
    await expect(page.getByRole("heading", { level: 1, name: pt.offline.title })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});

test("a cross-site request cannot forget a shopper's cookies", async ({ request }) => {
  const refused = await request.post("/api/shopper/forget", {
    headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
    data: {},
  });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["set-cookie"]).toBeUndefined();
  const forgotten = await request.post("/api/shopper/forget", { data: {} });
  expect(forgotten.status()).toBe(200);
  expect(
    forgotten
      .headersArray()
      .filter((header) => header.name.toLowerCase() === "set-cookie")
      .map((h) => h.value.split("=")[0]),
  ).toEqual([SHOPPER_COOKIE, CART_COOKIE]);
});

const orderNumber = (path: string) => /order_([0-9a-f]{8})/.exec(path)![1]!.toUpperCase();
