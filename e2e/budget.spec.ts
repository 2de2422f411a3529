import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { expect, test } from "./support/fixtures";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { addFromCatalog, CUSTOMER, payButton } from "./support/shop";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The performance budget, measured against the production build and printed (timings are
 * figures, not assertions: they depend on the machine). Asserted: the SDK script is requested
 * once per session, however the shopper moves around.
 */

interface ScriptBytes {
  files: number;
  /** As sent over the wire (gzip from next start). */
  transferred: number;
}

/**
 * JavaScript a first visit to `path` loads from the shop itself, compressed as transferred: in
 * a fresh context (empty cache) with the same cookies, so nothing comes from an earlier page.
 */
async function firstLoadJavaScript(page: Page, path: string): Promise<ScriptBytes> {
  const context = await page
    .context()
    .browser()!
    .newContext({ storageState: await page.context().storageState() });
  try {
    const visit = await context.newPage();
    const scripts: Promise<number>[] = [];
    visit.on("response", (response) => {
      const request = response.request();
      if (request.resourceType() === "script" && new URL(request.url()).pathname.startsWith("/_next/"))
        scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
    });
    await visit.goto(new URL(path, page.url()).href, { waitUntil: "networkidle" });
    const sizes = await Promise.all(scripts);
    return { files: sizes.length, transferred: sizes.reduce((sum, size) => sum + size, 0) };
  } finally {
    await context.close();
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

test("performance budget: first-load JavaScript, time to a clickable PayButton, one SDK request per session", async ({
  page,
}, testInfo) => {
  const { sdkUrl } = readE2eServerEnvironment();
  let sdkRequests = 0;
  page.on("request", (request) => {
    if (request.url() === sdkUrl) sdkRequests += 1;
  });

  await addFromCatalog(page, DEMO_PRODUCTS[3]!.name);
  const catalog = await firstLoadJavaScript(page, "/");
  const checkout = await firstLoadJavaScript(page, "/checkout");

  // Time to a clickable button: from the navigation's start (the page's own clock) to the
  // SDK's button being in the DOM, enabled, with the customer typed in as fast as a browser can.
  await page.goto("/checkout");
  await page.getByLabel(pt.checkout.name).fill(CUSTOMER.name);
  await page.getByLabel(pt.checkout.phone).fill(CUSTOMER.phone);
  await payButton(page);
  const clickableMs = await page.evaluate(() => {
    const ready = performance.getEntriesByName("pay-button-ready", "mark")[0];
    return ready ? ready.startTime : performance.now();
  });

  // Moving around the shop client-side and back re-renders the button, never reloads the SDK.
  await page.getByRole("link", { name: pt.checkout.editCart }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByRole("link", { name: pt.cart.checkout }).click();
  await page.getByLabel(pt.checkout.name).fill(CUSTOMER.name);
  await page.getByLabel(pt.checkout.phone).fill(CUSTOMER.phone);
  await payButton(page);
  expect(await page.locator(`script[src="${sdkUrl}"]`).count()).toBe(1);

  const figures = {
    catalogFirstLoadJs: { ...catalog, transferredKiB: kib(catalog.transferred) },
    checkoutFirstLoadJs: { ...checkout, transferredKiB: kib(checkout.transferred) },
    timeToClickablePayButtonMs: Math.round(clickableMs),
    sdkScriptRequestsPerSession: sdkRequests,
  };
  console.log(`[budget] ${JSON.stringify(figures)}`);
  const file = testInfo.outputPath("budget.json");
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  await testInfo.attach("budget", { path: file, contentType: "application/json" });

  expect(sdkRequests, "SDK script requests in one session").toBe(1);
});
