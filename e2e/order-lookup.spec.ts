import { pt } from "../lib/i18n/dictionaries";
import { expectNoAxeViolations } from "./support/accessibility";
import { expect, test } from "./support/fixtures";
import { newPhoneKey, signInByPhone } from "./support/phone-sign-in";
import { pickupDelivery } from "./support/shop";

/**
 * Finding an order again: the browser that placed an order lists it under "As minhas
 * encomendas", which offers the sign-in by phone for every order of the phone; another device,
 * which has none, is sent by /orders/lookup to that sign-in, since an order's number and phone no
 * longer open it (POST /api/orders/lookup answers 410, an old form is sent back to the page).
 */

test("a shopper finds an order from this browser's list, and another device is offered the sign-in by phone", async ({
  page,
  browser,
}, testInfo) => {
  // Four axe runs, each several seconds on a loaded machine.
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
  await expect(page.getByRole("link", { name: pt.orders.signInForAll })).toHaveAttribute(
    "href",
    "/account/sign-in?next=/account",
  );
  await expectNoAxeViolations(page, `my orders (${testInfo.project.name})`);
  await row.getByRole("link", { name: orderNumber }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${externalTransactionId}$`));

  // Another device: no cookie, so no list; the lookup offers the sign-in by phone, nothing else.
  const other = await browser.newContext();
  try {
    const device = await other.newPage();
    await device.goto("/orders");
    await expect(device.getByTestId("no-orders")).toBeVisible();
    await device.goto("/orders/lookup");
    await expect(device.getByRole("heading", { level: 1, name: pt.orders.lookupTitle })).toBeVisible();
    await expect(device.getByText(pt.orders.lookupIntro)).toBeVisible();
    await expect(device.getByRole("link", { name: pt.orders.signIn })).toHaveAttribute(
      "href",
      "/account/sign-in?next=/account",
    );
    await expect(device.getByRole("textbox")).toHaveCount(0);
    await expectNoAxeViolations(device, `order lookup (${testInfo.project.name})`);

    // The number and the phone open nothing: 410 for a client, an old form back to the page.
    const asked = await device.request.post("/api/orders/lookup", { data: { orderNumber, phone: "923 456 789" } });
    expect(asked.status()).toBe(410);
    expect(await asked.text()).not.toContain(externalTransactionId);
    const posted = await device.request.post("/api/orders/lookup", {
      form: { orderNumber, phone: "923 456 789" },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(303);
    expect(posted.headers().location).toBe("/orders/lookup");

    // Signed in, the pages point at the account instead.
    await signInByPhone(device, newPhoneKey());
    await device.reload();
    await expect(device.getByText(pt.orders.signedIn)).toBeVisible();
    await expect(device.getByRole("link", { name: pt.orders.accountLink })).toHaveAttribute("href", "/account");
    await expectNoAxeViolations(device, `order lookup, signed in (${testInfo.project.name})`);
    await device.goto("/orders");
    await expect(device.getByRole("link", { name: pt.orders.accountLink })).toHaveAttribute("href", "/account");
    await expect(device.getByRole("link", { name: pt.orders.signInForAll })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
