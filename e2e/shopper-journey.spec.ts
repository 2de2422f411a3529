import { readFile } from "node:fs/promises";
import { DEMO_PRODUCTS } from "../scripts/db/seed.mjs";
import { pt } from "../lib/i18n/dictionaries";
import { formatAoa } from "../lib/money";
import { expectNoAxeViolations } from "./support/accessibility";
import { expect, loadAllImages, test } from "./support/fixtures";
import { addFromCatalog, openCheckout, openPopup, payButton } from "./support/shop";

/**
 * The shopper's journey with axe-core (WCAG 2.0 to 2.2 A and AA) on every page it passes: in the
 * "pay" project at a desktop size and in the "phone" project on a phone (Chromium with a phone's
 * screen, touch and user agent), so neither layout hides a violation from the other.
 */

const orderIdIn = (url: string) => /\/(order_[^/?#]+)/.exec(url)![1]!;

test("catalogue, product, cart, checkout, the popup, the success page and the order: no axe violation", async ({
  page,
}, testInfo) => {
  // Nine pages and the popup, each scanned by axe (1 to 2 s apiece on a 2-CPU machine): the whole
  // journey took 31 s in one CI run, past the 30 s a single-page test gets.
  test.setTimeout(90_000);
  const at = (name: string) => `${name} (${testInfo.project.name})`;
  const product = DEMO_PRODUCTS[2]!;

  await page.goto("/");
  await loadAllImages(page);
  await expectNoAxeViolations(page, at("catalogue"));

  await page.goto(`/products/${product.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  await expectNoAxeViolations(page, at("product page"));

  await page.goto("/cart");
  await expectNoAxeViolations(page, at("cart, empty or not"));

  await addFromCatalog(page, product.name);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).not.toHaveCount(0);
  await expectNoAxeViolations(page, at("cart with a line"));

  await openCheckout(page);
  await payButton(page);
  await expectNoAxeViolations(page, at("checkout, ready to pay"));

  const popup = await openPopup(page);
  await expectNoAxeViolations(popup.page, at("the sandbox's hosted checkout"));
  await popup.pay("FPMCXEXPRSS");
  await expect(page).toHaveURL(/\/checkout\/success\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON", { timeout: 15_000 });
  // Once paid, the page refreshes itself until the cart is cleared (components/cart/use-header-cart-count.ts);
  // scanned in the middle of a refresh, the document was once caught without its <title>. Scan the
  // page it settles on: the cart emptied and no refresh in flight.
  await expect(page.getByTestId("cart-count")).toHaveText("0", { timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  await expectNoAxeViolations(page, at("success page"));

  const id = orderIdIn(page.url());
  await page.getByRole("link", { name: pt.cart.viewOrder }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${id}$`));
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "CON");
  await expectNoAxeViolations(page, at("order page"));

  await page.goto("/products/nao-existe");
  await expect(page.getByRole("heading", { name: pt.notFound.title })).toBeVisible();
  await expectNoAxeViolations(page, at("not-found page"));
});

test("a payment reference: the pending page has no axe violation", async ({ page }, testInfo) => {
  await addFromCatalog(page, DEMO_PRODUCTS[3]!.name);
  await openCheckout(page);
  const popup = await openPopup(page);
  await popup.pay("FPSOLPGEXT");
  await expect(page).toHaveURL(/\/checkout\/pending\/order_/, { timeout: 15_000 });
  await expect(page.getByTestId("payment-reference")).toBeVisible();
  await expectNoAxeViolations(page, `pending page (${testInfo.project.name})`);

  // What the shopper keeps: the values shown, shared and saved are the same.
  const number = orderIdIn(page.url())
    .slice("order_".length, "order_".length + 8)
    .toUpperCase();
  const entity = (await page.getByTestId("entity-number").textContent())!;
  const reference = (await page.getByTestId("payment-reference").textContent())!;
  const amount = (await page.getByTestId("reference-amount").textContent())!;
  const until = (await page.getByTestId("reference-valid-until").textContent())!;
  expect(entity).toMatch(/^\d+$/);
  expect(reference).toMatch(/^\d+$/);
  expect(amount).toBe(formatAoa(Number(amount.replace(/\D/g, ""))));
  expect(until).toMatch(/^\d{2}\/\d{2},? \d{2}:\d{2} \(hora de Luanda\)$/);
  const text = [
    "Loja Kwanza: pagamento por referência",
    `Encomenda ${number}`,
    `Entidade: ${entity}`,
    `Referência: ${reference}`,
    `Montante: ${amount}`,
    `Válida até: ${until}`,
  ].join("\n");

  // Headless Chromium has no navigator.share: "Partilhar" stays the WhatsApp link the server rendered.
  const share = page.getByRole("link", { name: pt.order.slip.shareName });
  await expect(share).toHaveAttribute("href", `https://wa.me/?text=${encodeURIComponent(text)}`);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: pt.order.slip.saveName }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`referencia-${number}.txt`);
  expect(await readFile((await download.path())!, "utf8")).toBe(text);
});
