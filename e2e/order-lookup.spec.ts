import { pt } from "../lib/i18n/dictionaries";
import { expectNoAxeViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { pickupDelivery } from "./support/shop";

/**
 * Finding an order again: the browser that placed an order lists it under "As minhas
 * encomendas"; another device, which has none, finds it at /orders/lookup by the number the shop
 * shows and the phone given at checkout, written another way; a wrong phone is told only that
 * no such order was found, and the phone never goes into the address.
 */

test("a shopper finds an order from this browser's list and from another device by number and phone", async ({
  page,
  browser,
}, testInfo) => {
  // Three axe runs, each several seconds on a loaded machine.
  test.setTimeout(90_000);
  const products = (await (await page.request.get("/api/products")).json()) as { id: string; hasOptions: boolean }[];
  const product = products.find((candidate) => !candidate.hasOptions)!;
  // Placed over HTTP by this browser's context: its shopper cookie is the page's.
  const created = await page.request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name: "Ana Teste", phone: "+244 923 456 789" },
      delivery: await pickupDelivery((path) => page.request.get(path)),
    },
  });
  expect(created.status()).toBe(200);
  const { externalTransactionId } = (await created.json()) as { externalTransactionId: string };
  const orderNumber = externalTransactionId.slice(6, 14).toUpperCase();

  await page.goto("/");
  await page.getByRole("link", { name: pt.shop.myOrders, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: pt.orders.title })).toBeVisible();
  const row = page.getByTestId("my-order").filter({ hasText: orderNumber });
  await expect(row).toHaveCount(1);
  await expectNoAxeViolations(page, `my orders (${testInfo.project.name})`);
  await row.getByRole("link", { name: orderNumber }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${externalTransactionId}$`));

  // Another device: no cookie, so no list; the number and the phone find it.
  const other = await browser.newContext();
  try {
    const device = await other.newPage();
    await device.goto("/orders");
    await expect(device.getByTestId("no-orders")).toBeVisible();
    await device.getByRole("link", { name: pt.orders.lookupLink }).click();
    await expect(device.getByRole("heading", { level: 1, name: pt.orders.lookupTitle })).toBeVisible();
    await expectNoAxeViolations(device, `order lookup (${testInfo.project.name})`);

    await device.getByLabel(pt.orders.orderNumber).fill(orderNumber.toLowerCase());
    await device.getByLabel(pt.orders.phone).fill("923000000");
    await device.getByRole("button", { name: pt.orders.submit }).click();
    await expect(device.getByTestId("lookup-error")).toHaveText(pt.orders.errors.not_found);
    expect(device.url()).not.toContain("923");
    await expect(device.getByLabel(pt.orders.orderNumber)).toHaveValue(orderNumber.toLowerCase());
    await expectNoAxeViolations(device, `order lookup, not found (${testInfo.project.name})`);

    await device.getByLabel(pt.orders.phone).fill("923 456 789");
    await device.getByRole("button", { name: pt.orders.submit }).click();
    await expect(device).toHaveURL(new RegExp(`/orders/${externalTransactionId}$`));
    await expect(device.getByTestId("order-status")).toHaveAttribute("data-status", "PEN");
  } finally {
    await other.close();
  }
});
