import type { Page } from "@playwright/test";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { expect, test } from "./support/fixtures";
import { addFromCatalog, CUSTOMER, openPopup, payButton } from "./support/shop";
import { pt } from "../lib/i18n/dictionaries";

/**
 * `npm run dev` opened at http://127.0.0.1 works as it does at http://localhost.
 * `next dev` serves its development resources (the HMR socket, /_next/* requests that carry an
 * Origin) only to pages from localhost and the hosts in next.config's allowedDevOrigins; a page
 * from any other host is refused them and never hydrates, so the PayButton never appears.
 * Runs in the "dev" project only, against harness/e2e-dev-server.ts (`next dev` started as
 * `npm run dev` starts it, for an isolated shop whose APP_URL is on localhost).
 */

/** React has taken over the page's server-rendered markup: it keeps its props on the elements it hydrated. */
const hydrated = (page: Page) =>
  page
    .getByLabel(pt.checkout.name)
    .evaluate((input) => Object.keys(input).some((key) => key.startsWith("__reactProps$")))
    .catch(() => false);

test("at 127.0.0.1 the dev server's checkout page hydrates, shows the PayButton and takes a payment", async ({
  page,
  baseURL,
}) => {
  expect(new URL(baseURL!).hostname, "the dev project opens the shop at 127.0.0.1, not localhost").toBe("127.0.0.1");
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 403 && new URL(response.url()).pathname.startsWith("/_next/"))
      refused.push(response.url());
  });

  // Works without JavaScript (a form posting a server action), so it passes before hydration.
  await addFromCatalog(page, DEMO_PRODUCTS[0]!.name);
  await page.goto("/checkout");
  // Before typing: a form filled before React hydrates it would not know what was typed.
  await expect.poll(() => hydrated(page), { message: "the checkout page hydrated" }).toBe(true);
  await page.getByLabel(pt.checkout.name).fill(CUSTOMER.name);
  await page.getByLabel(pt.checkout.phone).fill(CUSTOMER.phone);
  await payButton(page);
  expect(refused, "development resources the dev server refused").toEqual([]);

  // The whole of `npm run dev`'s promise: the order paid in the sandbox's popup is confirmed by
  // its webhook, on this shop's database (CI's second pass runs this on the embedded PGlite).
  const popup = await openPopup(page);
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 60_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 60_000 });
});
