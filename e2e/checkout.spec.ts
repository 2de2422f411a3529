import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { addFromCatalog, kwanza, openCheckout, openPopup, payButton, pickupDelivery } from "./support/shop";
import { pt } from "../lib/i18n/dictionaries";

/**
 * The shopper's whole journey in the browser: the cart, the checkout page with the PayButton,
 * the sandbox's SDK and hosted popup, its signed webhook, and the result pages. The result
 * pages must show what the server knows: "confirmed" only once the webhook has made the order
 * CON. Waits are on the sandbox's delivery log and on the page, never fixed sleeps.
 */

// These tests change the sandbox's webhook URL and count its requests: one at a time.
test.describe.configure({ mode: "serial" });

const storedOrder = async (externalTransactionId: string) =>
  (
    await query<{ status: string; amount_aoa: number; payment_reference: string | null; entity_number: string | null }>(
      "SELECT status::text, amount_aoa, payment_reference, entity_number FROM orders WHERE external_transaction_id = $1",
      [externalTransactionId],
    )
  )[0];

const stockOf = async (slug: string) =>
  (await query<{ stock: number }>("SELECT stock FROM products WHERE slug = $1", [slug]))[0]!.stock;

/** The order id of the page the PayButton navigated to: /checkout/success/<id>, /cart?cancelled=<id>… */
function orderIdIn(url: string): string {
  const id = /order_[0-9a-f-]{36}/.exec(url)?.[0];
  expect(id, `an order id in ${url}`).toBeDefined();
  return id!;
}

test("approved in the popup: the success page says confirmed only after the webhook", async ({
  page,
  sandbox,
}, testInfo) => {
  const { appUrl } = readE2eServerEnvironment();
  const product = DEMO_PRODUCTS[0]!;
  await addFromCatalog(page, product.name);
  await openCheckout(page);
  await screenshotAtEachWidth(page, testInfo, "checkout");

  // Hold the service's notifications back: the popup approves, but the shop has not heard yet.
  await sandbox.call("POST", "/settings", { webhookUrl: null });
  try {
    const popup = await openPopup(page);
    await expect(popup.amount).toHaveText(kwanza.format(product.priceAoa));
    await popup.pay("FPMCXEXPRSS");
    await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
    const id = orderIdIn(page.url());

    const [held] = await sandbox.waitForDeliveries({ externalTransactionId: id, timeoutMs: 15_000 });
    expect(held).toMatchObject({ state: "dropped", paymentStatus: "CON" });
    expect(await sandbox.order(id)).toMatchObject({ status: "CON" });
    // The browser callback said "approved"; the page still waits for the webhook.
    await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");
    expect(await storedOrder(id)).toMatchObject({ status: "PEN" });

    await sandbox.call("POST", "/settings", { webhookUrl: `${appUrl}/api/pay/webhook` });
    await sandbox.call("POST", `/deliveries/${held!.id}/redeliver`);
    await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
    expect(await storedOrder(id)).toMatchObject({ status: "CON", amount_aoa: product.priceAoa });
    // The CON webhook's job empties the cart.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("cart-count")).toHaveText("0", { timeout: 2_000 });
    }).toPass();
    await screenshotAtEachWidth(page, testInfo, "success");

    // The order's own page, as the success page links to it.
    await page.getByRole("link", { name: pt.cart.viewOrder }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/${id}$`));
    await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON");
    await expect(page.getByRole("main")).toContainText(product.name);
    await screenshotAtEachWidth(page, testInfo, "order");
  } finally {
    await sandbox.call("POST", "/settings", { webhookUrl: `${appUrl}/api/pay/webhook` });
  }
});

test("paid by reference: the pending page shows the reference and entity, then the confirmation", async ({
  page,
  sandbox,
}, testInfo) => {
  await addFromCatalog(page, DEMO_PRODUCTS[1]!.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPGEXT");
  await expect(page).toHaveURL(/\/checkout\/pending\/order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());

  const atService = await sandbox.order(id);
  await expect(page.getByTestId("payment-reference")).toContainText(atService.paymentReference!);
  await expect(page.getByTestId("entity-number")).toContainText(atService.entityNumber!);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");
  await expect(page.getByText("24 horas")).toBeVisible();
  await screenshotAtEachWidth(page, testInfo, "pending");

  await sandbox.call("POST", `/orders/${id}/confirm`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  expect(await storedOrder(id)).toMatchObject({
    status: "CON",
    payment_reference: atService.paymentReference,
    entity_number: atService.entityNumber,
  });
});

test("paid with the service's direct method, which is always offered: confirmed by its webhook", async ({
  page,
  sandbox,
}) => {
  await addFromCatalog(page, DEMO_PRODUCTS[7]!.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPG");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  expect(await sandbox.order(id)).toMatchObject({ status: "CON", paymentMethod: "FPSOLPG" });
});

test("cancelled in the popup: back to the reopened cart, stock released", async ({ page, sandbox }) => {
  const product = DEMO_PRODUCTS[2]!;
  const stockBefore = await stockOf(product.slug);
  await addFromCatalog(page, product.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await expect(popup.cancelButton).toBeVisible();
  expect(await stockOf(product.slug), "reserved while the popup is open").toBe(stockBefore - 1);
  await popup.cancel();

  await expect(page).toHaveURL(/\/cart\?cancelled=order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());
  await expect(page.getByTestId("payment-cancelled")).toBeVisible();
  // The CAN webhook's jobs reopen the cart: its lines become editable again.
  await expect(page.getByRole("button", { name: `Remover ${product.name}` })).toBeVisible({ timeout: 15_000 });
  expect(await sandbox.order(id)).toMatchObject({ status: "CAN" });
  expect(await storedOrder(id)).toMatchObject({ status: "CAN" });
  await expect.poll(() => stockOf(product.slug)).toBe(stockBefore);
});

test("a reference that expires while the pending page is open: the page goes to the reopened cart", async ({
  page,
  sandbox,
}) => {
  const product = DEMO_PRODUCTS[3]!;
  const stockBefore = await stockOf(product.slug);
  await addFromCatalog(page, product.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPGEXT");
  await expect(page).toHaveURL(/\/checkout\/pending\/order_/, { timeout: 15_000 });
  const id = orderIdIn(page.url());
  await expect(page.getByTestId("payment-reference")).toBeVisible();

  await sandbox.call("POST", `/orders/${id}/expire`);
  await expect(page).toHaveURL(new RegExp(`/cart\\?cancelled=${id}$`), { timeout: 15_000 });
  await expect(page.getByTestId("payment-cancelled")).toContainText(pt.cart.cancelledTitle);
  await expect(page.getByRole("button", { name: `Remover ${product.name}` })).toBeVisible({ timeout: 15_000 });
  expect(await storedOrder(id)).toMatchObject({ status: "CAN" });
  await expect.poll(() => stockOf(product.slug)).toBe(stockBefore);
});

test("the cart names an order still being paid elsewhere as in progress, and as cancelled only once it is", async ({
  page,
  request,
  sandbox,
}) => {
  // An order this browser's cart does not hold: created over HTTP, with its own items.
  const product = ((await (await request.get("/api/products")).json()) as { id: string; hasOptions: boolean }[]).find(
    (candidate) => !candidate.hasOptions,
  );
  const created = await request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product!.id, quantity: 1 }],
      customer: { name: "Teste E2E", phone: "923000000" },
      delivery: await pickupDelivery((path) => request.get(path)),
    },
  });
  expect(created.status()).toBe(200);
  const { externalTransactionId: id } = (await created.json()) as { externalTransactionId: string };

  await page.goto(`/cart?cancelled=${id}`);
  await expect(page.getByTestId("payment-in-progress")).toContainText(pt.cart.lockedTitle);
  await expect(page.getByTestId("payment-in-progress").getByRole("link")).toHaveAttribute("href", `/orders/${id}`);
  await expect(page.getByTestId("payment-cancelled")).toHaveCount(0);

  await sandbox.call("POST", `/orders/${id}/cancel`);
  await sandbox.waitForDeliveries({ externalTransactionId: id, timeoutMs: 15_000 });
  // The page follows the cancellation it was sent for.
  await expect(page.getByTestId("payment-cancelled")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("payment-in-progress")).toHaveCount(0);
});

test("popup closed without paying: the order stays payable and paying again reuses it", async ({ page, sandbox }) => {
  await addFromCatalog(page, DEMO_PRODUCTS[4]!.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await expect(popup.cancelButton).toBeVisible();
  const reference = popup.referenceNumber();
  await popup.page.close();

  await expect(page).toHaveURL(/\/cart/, { timeout: 15_000 });
  const [order] = (await sandbox.orders()).filter((candidate) => candidate.referenceNumber === reference);
  expect(order).toMatchObject({ status: "PEN" });
  expect(await storedOrder(order!.externalTransactionId)).toMatchObject({ status: "PEN" });
  await expect(page.getByRole("link", { name: pt.cart.continueCheckout })).toBeVisible();

  const createdBefore = (await sandbox.requests("/paypartner/createPaymentOrder")).length;
  await page.getByRole("link", { name: pt.cart.continueCheckout }).click();
  await openCheckout(page);
  const again = await openPopup(page);
  await expect(again.cancelButton).toBeVisible();
  expect(again.referenceNumber(), "the same order's reference").toBe(reference);
  expect((await sandbox.requests("/paypartner/createPaymentOrder")).length, "no second order").toBe(createdBefore);
  await again.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(new RegExp(`/checkout/success/${order!.externalTransactionId}`), { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
});

test("the server's total wins over whatever the browser sends", async ({ page, sandbox }) => {
  const product = DEMO_PRODUCTS[5]!;
  await addFromCatalog(page, product.name);
  await openCheckout(page);
  // A tampered client: every money field it could think of, in the request to endpoint A.
  await page.route("**/api/pay/create-order", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, unknown>;
    await route.continue({
      postData: JSON.stringify({ ...body, total: 1, amount: 1, amountAoa: 1, priceAoa: 1 }),
    });
  });
  const popup = await openPopup(page);
  await expect(popup.amount).toHaveText(kwanza.format(product.priceAoa));

  const [created] = (await sandbox.requests("/paypartner/createPaymentOrder")).slice(-1);
  expect(JSON.parse(created!.body)).toMatchObject({ amount: product.priceAoa });
  await popup.cancel();
  await expect(page).toHaveURL(/\/cart\?cancelled=/, { timeout: 15_000 });
});

test("an unreachable SDK script: a clear error, and trying again loads it once", async ({ page }) => {
  const { sdkUrl } = readE2eServerEnvironment();
  await page.route(sdkUrl, (route) => route.abort("connectionrefused"));
  await addFromCatalog(page, DEMO_PRODUCTS[6]!.name);
  await openCheckout(page);
  const wrapper = page.getByTestId("pay-button");
  await expect(wrapper).toHaveAttribute("data-state", "error", { timeout: 20_000 });
  await expect(page.getByTestId("pay-button-error")).toHaveText(pt.payButton.loadFailed);

  await page.unroute(sdkUrl);
  await page.getByRole("button", { name: pt.payButton.retry }).click();
  await payButton(page);
  expect(await page.locator(`script[src="${sdkUrl}"]`).count()).toBe(1);
});
