import { randomUUID } from "node:crypto";
import { query } from "./support/database";
import { expect, test } from "./support/fixtures";
import { PRODUCT_PNG, expectNoIndex, fillAdminSignIn } from "./support/admin";
import { screenshotAtEachWidth } from "./support/screenshots";
import { readE2eServerEnvironment } from "../harness/server-environment";
import { kwanza } from "./support/shop";
import { en, pt } from "../lib/i18n/dictionaries";

/**
 * The back office's sign-in and home page (/admin, lib/admin), in the browser: the e2e shop's
 * owner is made from its ADMIN_EMAIL and an ADMIN_PASSWORD of its own (harness/isolated-shop.ts),
 * in test-results/e2e-server.json.
 */

const signInForm = (page: import("@playwright/test").Page) => ({
  email: page.getByLabel(pt.admin.email, { exact: true }),
  password: page.getByLabel(pt.admin.password, { exact: true }),
  submit: page.getByRole("button", { name: pt.admin.signIn }),
});

/** The integer AOA a figure of the home page shows ("12 500 Kz" → 12500). */
async function aoaOf(page: import("@playwright/test").Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? "";
  expect(text, testId).toMatch(/Kz/);
  return Number(text.replace(/\D/g, ""));
}

test("without a session /admin shows only the sign-in form; a wrong password is refused", async ({
  page,
}, testInfo) => {
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(200);
  const html = await response!.text();
  for (const figure of ["paid-today", "paid-this-month", "pending-orders", "Pago hoje", "Encomendas por pagar"]) {
    expect(html, "no order data before signing in").not.toContain(figure);
  }
  await expectNoIndex(page);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.signInTitle })).toBeVisible();
  await screenshotAtEachWidth(page, testInfo, "admin-sign-in", { accessible: true });

  const form = signInForm(page);
  await form.email.fill(readE2eServerEnvironment().adminEmail);
  await form.password.fill("not-the-password");
  await form.submit.click();
  await expect(page).toHaveURL(/\/admin\?error=wrong_password$/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(pt.admin.errors.wrong_password);
  await expect(form.password).toBeVisible();
  await expect(page.getByTestId("paid-today")).toHaveCount(0);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("admin_session");
});

test("the right password opens the home with the day's totals; sign-out returns to the sign-in", async ({
  page,
}, testInfo) => {
  // The home carries the dashboard now: axe and a screenshot of it at two widths take longer.
  test.slow();
  const { adminPassword } = readE2eServerEnvironment();
  await page.goto("/admin");
  await fillAdminSignIn(page);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "admin_session");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
  expect(session!.value).not.toContain(adminPassword);

  // An order paid just now adds to today's and this month's totals.
  const before = { today: await aoaOf(page, "paid-today"), month: await aoaOf(page, "paid-this-month") };
  const pending = Number(await page.getByTestId("pending-orders").textContent());
  const [row] = await query<{ count: string }>("SELECT count(*) FROM orders WHERE status = 'PEN'");
  expect(pending).toBe(Number(row!.count));
  const externalTransactionId = `order_${randomUUID()}`;
  await query(
    `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, finalized_at)
     VALUES ($1, 'CON', 12345, $2, now())`,
    [externalTransactionId, `shopper_${randomUUID()}`],
  );
  try {
    await page.reload();
    expect(await aoaOf(page, "paid-today")).toBe(before.today + 12345);
    expect(await aoaOf(page, "paid-this-month")).toBe(before.month + 12345);
    expect(await page.getByTestId("paid-today").textContent()).toBe(kwanza.format(before.today + 12345));
    await screenshotAtEachWidth(page, testInfo, "admin-home", { accessible: true });
  } finally {
    await query("DELETE FROM orders WHERE external_transaction_id = $1", [externalTransactionId]);
  }

  await page.getByRole("button", { name: pt.admin.signOut, exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(signInForm(page).password).toBeVisible();
  await expect(page.getByTestId("paid-today")).toHaveCount(0);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("admin_session");
});

test("in English through the language cookie", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "lang", value: "en", url: baseURL! }]);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: en.admin.signInTitle })).toBeVisible();
  await page.getByLabel(en.admin.email, { exact: true }).fill(readE2eServerEnvironment().adminEmail);
  await page.getByLabel(en.admin.password, { exact: true }).fill("wrong");
  await page.getByRole("button", { name: en.admin.signIn }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(en.admin.errors.wrong_password);
});

test("a sign-in posted from another site is refused with a 403", async ({ request }) => {
  const response = await request.post("/api/admin/session", {
    headers: { Origin: "https://evil.example.test" },
    form: { password: readE2eServerEnvironment().adminPassword },
  });
  expect(response.status()).toBe(403);
  expect(response.headers()["set-cookie"] ?? "").not.toContain("admin_session");
});

/** Signs in on the sign-in form the page shows, as the e2e shop's owner. */
const signInHere = (page: import("@playwright/test").Page) => fillAdminSignIn(page);

test("sign-out ends the session on the server: the cookie kept from before is refused afterwards", async ({
  page,
  baseURL,
}) => {
  await page.goto("/admin");
  await signInHere(page);
  await expect(page.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
  const kept = (await page.context().cookies()).find((cookie) => cookie.name === "admin_session")!;
  await page.getByRole("button", { name: pt.admin.signOut, exact: true }).click();
  await expect(signInForm(page).password).toBeVisible();

  // The copy put back, as someone who had copied it would.
  await page.context().addCookies([{ name: kept.name, value: kept.value, url: baseURL! }]);
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(signInForm(page).password).toBeVisible();
  const api = await page.request.get("/api/admin/orders/export");
  expect(api.status()).toBe(401);
  expect(await api.json()).toMatchObject({ error: { code: "unauthorized" } });
});

test("sign out everywhere ends the session of another browser too", async ({ page, browser }) => {
  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    for (const each of [page, elsewhere]) {
      await each.goto("/admin");
      await signInHere(each);
      await expect(each.getByRole("heading", { level: 1, name: pt.admin.title })).toBeVisible();
    }
    await page.getByRole("button", { name: pt.admin.signOutEverywhere }).click();
    await expect(page).toHaveURL(/\/admin\?signedOut=everywhere$/);
    await expect(page.getByTestId("sign-in-notice")).toHaveText(pt.admin.signedOutEverywhere);
    await expect(signInForm(page).password).toBeVisible();

    await elsewhere.goto("/admin/orders");
    await expect(elsewhere).toHaveURL(/\/admin$/);
    await expect(signInForm(elsewhere).password).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a product form saved after the session ended: to the sign-in, then back to the form with what was typed", async ({
  page,
}, testInfo) => {
  const [product] = await query<{ id: string; name: string; description: string }>(
    "SELECT id, name, description FROM products WHERE archived_at IS NULL ORDER BY name LIMIT 1",
  );
  await page.goto("/admin");
  await signInHere(page);
  await page.goto(`/admin/products/${product!.id}`);
  const name = page.getByLabel(pt.admin.products.fields.name, { exact: true });
  const description = page.getByLabel(pt.admin.products.fields.description, { exact: true });
  await expect(name).toHaveValue(product!.name);
  const typedName = `${product!.name} (edição ${randomUUID().slice(0, 8)})`;
  const typedDescription = `${product!.description}\nUma linha nova, escrita antes de a sessão acabar.`;
  await name.fill(typedName);
  await description.fill(typedDescription);
  await page
    .getByLabel(pt.admin.products.newImage)
    .setInputFiles({ name: "cafe.png", mimeType: "image/png", buffer: PRODUCT_PNG });

  // The session ends on the server meanwhile (its 8 hours are up, or it was signed out elsewhere).
  await query("DELETE FROM staff_sessions");
  await page.getByRole("button", { name: pt.admin.products.save }).click();

  await expect(page).toHaveURL(/\/admin\?expired=1&next=/);
  const notice = page.getByTestId("sign-in-notice");
  await expect(notice).toContainText(pt.admin.sessionEnded);
  await expect(notice).toContainText(pt.admin.draft.kept);
  await screenshotAtEachWidth(page, testInfo, "admin-session-ended", { accessible: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInHere(page);

  await expect(page).toHaveURL(new RegExp(`/admin/products/${product!.id}$`));
  const restored = page.getByTestId("draft-restored");
  await expect(restored).toContainText(pt.admin.draft.restored);
  await expect(restored).toContainText(pt.admin.draft.filesLost);
  await expect(name).toHaveValue(typedName);
  await expect(description).toHaveValue(typedDescription);
  // Nothing was saved: the refused post changed nothing.
  const [row] = await query<{ name: string }>("SELECT name FROM products WHERE id = $1", [product!.id]);
  expect(row!.name).toBe(product!.name);

  // Put back once: a reload shows the product as it is.
  await page.reload();
  await expect(name).toHaveValue(product!.name);
  await expect(page.getByTestId("draft-restored")).toHaveCount(0);
});
