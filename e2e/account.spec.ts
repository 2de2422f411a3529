import type { Page, TestInfo } from "@playwright/test";
import { pt } from "../lib/i18n/dictionaries";
import { orderPageOf } from "../lib/offline/offline-rules";
import { shortOrderId } from "../lib/orders/order-number";
import { expectNoAxeViolations } from "./support/accessibility";
import { query } from "./support/database";
import { keeps, keptUrls } from "./support/kept-pages";
import { newPhoneKey, signInCodesFor } from "./support/phone-sign-in";
import { expect, test } from "./support/fixtures";
import { screenshotAtEachWidth } from "./support/screenshots";
import { pickupDelivery } from "./support/shop";

/**
 * The shopper's account in Chromium on a phone's width (390 px): a guest order placed with the
 * phone written one way is in the account signed in with it written another, the code read from
 * the outbox (the `messages` table); saved addresses added, changed, made the default and
 * deleted; "Comprar de novo" puts the order's lines in the cart; signing out deletes the order
 * pages this browser kept; a code typed wrong five times is dead, even to the right code. axe at
 * 0 on every page of the account. Each test has a phone of its own.
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const SIGN_IN = pt.account.signIn;
const PHONE_SIZE = { width: 390, height: 844 };

/** The page at a phone's and a desktop's width (screenshots, nothing wider than the screen, axe at 0), then on the phone again. */
async function atEachWidth(page: Page, testInfo: TestInfo, name: string) {
  await screenshotAtEachWidth(page, testInfo, name, { accessible: true });
  await page.setViewportSize(PHONE_SIZE);
}

/** A phone of this test's own, as its key (923111222) and as a shopper writes it (0923 111 222). */
function newPhone() {
  const key = newPhoneKey();
  return { key, local: `0${key.slice(0, 3)} ${key.slice(3, 6)} ${key.slice(6)}`, international: `+244 ${key}` };
}

/** The code of the `number`th message sent to `key` (1 for the first), once it is in the outbox. */
async function codeFor(key: string, number: number): Promise<string> {
  await expect
    .poll(async () => (await signInCodesFor(key)).length, { message: "the code is in the outbox" })
    .toBe(number);
  const code = (await signInCodesFor(key))[number - 1]!;
  expect(code).toMatch(/^[0-9]{6}$/);
  return code;
}

/** A guest order placed over HTTP by this browser's context, with the phone written as `phone`. */
async function placeOrder(page: Page, phone: string): Promise<string> {
  const products = (await (await page.request.get("/api/products")).json()) as {
    id: string;
    hasOptions: boolean;
    stock: number;
  }[];
  const product = products.find((candidate) => !candidate.hasOptions && candidate.stock > 5)!;
  const created = await page.request.post("/api/pay/create-order", {
    data: {
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name: "Ana Conta", phone },
      delivery: await pickupDelivery((path) => page.request.get(path)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { externalTransactionId: string }).externalTransactionId;
}

/** Asks for a code for `phone` on the sign-in page; the code's step is shown. */
async function askForCode(page: Page, phone: string): Promise<void> {
  await page.getByLabel(SIGN_IN.phone).fill(phone);
  await page.getByRole("button", { name: SIGN_IN.sendCode }).click();
  await expect(page.getByTestId("sign-in-status")).toHaveText(SIGN_IN.codeSent(phone));
  await expect(page.getByLabel(SIGN_IN.code)).toBeFocused();
}

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel(SIGN_IN.code).fill(code);
  await page.getByRole("button", { name: SIGN_IN.verify, exact: true }).click();
}

test("a guest order is in the account of its phone; addresses, buy again and signing out", async ({
  page,
}, testInfo) => {
  // A dozen pages, most scanned by axe (seconds each on a loaded machine).
  test.setTimeout(180_000);
  const at = (name: string) => `${name} (${testInfo.project.name}, 390 px)`;
  const phone = newPhone();
  const externalTransactionId = await placeOrder(page, phone.local);
  const orderNumber = shortOrderId(externalTransactionId);

  // Signed out, the header offers the sign-in, and the account sends there and back.
  await page.goto("/");
  await expect(page.getByTestId("cart-count")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("header-account")).toHaveText(pt.shop.signIn);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/sign-in\?next=%2Faccount$/);
  await expect(page.getByRole("heading", { level: 1, name: SIGN_IN.title })).toBeVisible();
  await expect(page.getByLabel(SIGN_IN.phone)).toHaveAttribute("autocomplete", "tel");
  await atEachWidth(page, testInfo, "sign-in");

  await askForCode(page, phone.international);
  const code = page.getByLabel(SIGN_IN.code);
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(code).toHaveAttribute("maxlength", "6");
  await expectNoAxeViolations(page, at("sign-in, the code"));
  await typeCode(page, await codeFor(phone.key, 1));

  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: pt.account.page.title })).toBeVisible();
  await expect(page.getByTestId("account-phone")).toContainText(
    phone.international.replace(/(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3"),
  );
  const order = page.getByTestId("account-order").filter({ hasText: orderNumber });
  await expect(order).toHaveCount(1);
  await expect(order).toContainText(pt.order.status.PEN);
  await expect(page.getByTestId("header-account")).toHaveText(pt.shop.myAccount);
  await expect(page.getByTestId("no-addresses")).toBeVisible();
  await atEachWidth(page, testInfo, "account");

  // An address added, changed, another made the default, the first deleted.
  const texts = pt.account.addresses;
  await page.getByRole("link", { name: texts.add }).click();
  await expect(page.getByRole("heading", { level: 1, name: texts.newTitle })).toBeVisible();
  await atEachWidth(page, testInfo, "new-address");
  await fillAddress(page, "Rua Amílcar Cabral, 12");
  await page.getByRole("button", { name: texts.save }).click();
  await expect(page.getByTestId("address-done")).toHaveText(texts.done.saved);
  await expect(page.getByTestId("saved-address")).toHaveCount(1);
  await expect(page.getByTestId("saved-address")).toHaveAttribute("data-default", "true");

  await page.getByRole("link", { name: texts.editNamed("Rua Amílcar Cabral, 12") }).click();
  await expect(page.getByRole("heading", { level: 1, name: texts.editTitle })).toBeVisible();
  await expectNoAxeViolations(page, at("edit address"));
  // What the checkout would refuse is not sent: the field says so.
  await page.getByLabel(pt.checkout.street).fill("");
  await page.getByRole("button", { name: texts.save }).click();
  await expect(page.getByLabel(pt.checkout.street)).toBeFocused();
  await expect(page.getByText(pt.checkout.addressInvalid(160))).toBeVisible();
  await page.getByLabel(pt.checkout.street).fill("Rua Amílcar Cabral, 14");
  await page.getByRole("button", { name: texts.save }).click();
  await expect(page.getByTestId("address-done")).toHaveText(texts.done.saved);
  await expect(page.getByTestId("saved-address")).toContainText("Rua Amílcar Cabral, 14");

  await page.getByRole("link", { name: texts.add }).click();
  await fillAddress(page, "Rua da Missão, 3");
  await page.getByRole("button", { name: texts.save }).click();
  await expect(page.getByTestId("saved-address")).toHaveCount(2);
  await page.getByRole("button", { name: texts.makeDefaultNamed("Rua da Missão, 3") }).click();
  await expect(page.getByTestId("address-done")).toHaveText(texts.done.made_default);
  await expect(page.locator('[data-testid="saved-address"][data-default="true"]')).toContainText("Rua da Missão, 3");
  await page.getByRole("button", { name: texts.deleteNamed("Rua Amílcar Cabral, 14") }).click();
  await expect(page.getByTestId("address-done")).toHaveText(texts.done.deleted);
  await expect(page.getByTestId("saved-address")).toHaveCount(1);
  await expect(page.getByTestId("saved-address")).toHaveAttribute("data-default", "true");
  const [saved] = await query<{ count: number }>(
    "SELECT count(*)::int AS count FROM shopper_addresses a JOIN shoppers s ON s.id = a.shopper_id WHERE s.phone_number = $1",
    [phone.key],
  );
  expect(saved!.count).toBe(1);
  await atEachWidth(page, testInfo, "account-with-an-address");

  // Buy again: the order's line in the cart, at today's price.
  await page
    .getByTestId("account-order")
    .filter({ hasText: orderNumber })
    .getByRole("button", { name: pt.account.orders.buyAgainNamed(orderNumber) })
    .click();
  await expect(page).toHaveURL(/\/cart\?notice=bought_again/);
  await expect(page.getByTestId("bought-again-notice")).toContainText(pt.account.boughtAgain.added(1));
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await expectNoAxeViolations(page, at("cart after buy again"));

  // The order's page, kept by the service worker for offline; signing out deletes it.
  await page.goto(`/orders/${externalTransactionId}`);
  await expect(page.getByTestId("order-status")).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const orderPath = `/orders/${externalTransactionId}`;
  await expect.poll(() => keeps(page, orderPath), { message: "the order page is kept" }).toBe(true);
  await page.goto("/account");
  await page.getByRole("button", { name: pt.account.session.signOut, exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("header-account")).toHaveText(pt.shop.signIn);
  expect((await keptUrls(page)).filter((url) => orderPageOf(new URL(url).pathname))).toEqual([]);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/sign-in\?next=%2Faccount$/);
});

/** Fills in the address form: the checkout's fields, the municipality chosen or typed as the shop offers it. */
async function fillAddress(page: Page, street: string) {
  await expect(page.getByLabel(pt.checkout.province)).toHaveValue("Luanda");
  const municipality = page.getByLabel(pt.checkout.municipality);
  if ((await municipality.evaluate((element) => element.tagName)) === "SELECT")
    await municipality.selectOption({ index: 1 });
  else await municipality.fill("Belas");
  await page.getByLabel(pt.checkout.neighbourhood).fill("Talatona");
  await page.getByLabel(pt.checkout.street).fill(street);
  await page.getByLabel(pt.checkout.reference).fill("Portão azul, ao lado da farmácia");
}

test("a code typed wrong five times is dead, even to the right code; a new one signs in", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const phone = newPhone();
  await page.goto("/account/sign-in");
  await askForCode(page, phone.local);
  const right = await codeFor(phone.key, 1);
  const wrong = right === "000000" ? "111111" : "000000";
  const error = page.getByTestId("sign-in-error").filter({ hasText: /\S/ });
  for (let attempt = 1; attempt <= 5; attempt++) {
    await typeCode(page, wrong);
    await expect(error).toHaveText(SIGN_IN.errors.invalid_otp);
    await expect(page.getByLabel(SIGN_IN.code)).toBeEnabled();
  }
  await typeCode(page, right);
  await expect(error).toHaveText(SIGN_IN.errors.too_many_attempts);
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await expectNoAxeViolations(page, `sign-in, a dead code (${testInfo.project.name}, 390 px)`);

  await page.getByRole("button", { name: SIGN_IN.sendAnother }).click();
  await expect(page.getByTestId("sign-in-status")).toHaveText(SIGN_IN.anotherSent(phone.local));
  const fresh = await codeFor(phone.key, 2);
  await typeCode(page, fresh);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("no-account-orders")).toBeVisible();
});
