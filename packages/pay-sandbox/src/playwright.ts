import type { Locator, Page } from "@playwright/test";
import type { PaymentMethodCode } from "./sdk.js";

export { chromiumExecutablePath, chromiumLaunchOptions, SYSTEM_CHROMIUM } from "./chromium.js";

/**
 * Playwright helpers that drive the sandbox's hosted checkout the way a shopper does, so a
 * shop's browser tests read as the journey they test. Type-only use of @playwright/test: the
 * helpers work with the Page the test already has.
 *
 *   const popup = await openHostedCheckout(page, page.getByRole("button", { name: "Pagar" }));
 *   await expect(popup.amount).toHaveText("6 500 Kz");
 *   await popup.pay("FPMCXEXPRSS");
 */

export interface HostedCheckout {
  /** The popup's page. */
  page: Page;
  /** The order's name and amount, as the popup shows them. */
  name: Locator;
  amount: Locator;
  /** The button of one payment method, and the cancel button. */
  method(code: PaymentMethodCode): Locator;
  cancelButton: Locator;
  /** What the popup says once the payment went through (or did not). */
  result: Locator;
  /** The order's referenceNumber, from the popup's address. */
  referenceNumber(): string;
  /** Pays with `code`: `FPMCXEXPRSS` approves at once, the reference methods leave the order pending. */
  pay(code: PaymentMethodCode): Promise<void>;
  /** Cancels the order, as a shopper who changed their mind. */
  cancel(): Promise<void>;
}

/**
 * Clicks `trigger` (the shop's pay button, inside the SDK's container) and returns the hosted
 * checkout it opens, once the popup shows the order.
 */
export async function openHostedCheckout(page: Page, trigger: Locator): Promise<HostedCheckout> {
  const [popup] = await Promise.all([page.waitForEvent("popup"), trigger.click()]);
  const checkout = hostedCheckout(popup);
  await checkout.cancelButton.waitFor();
  return checkout;
}

/** The helpers for a popup the test already holds. */
export function hostedCheckout(popup: Page): HostedCheckout {
  const method = (code: PaymentMethodCode) => popup.locator(`[data-method="${code}"]`);
  const cancelButton = popup.locator("[data-cancel]");
  return {
    page: popup,
    name: popup.locator("[data-order-name]"),
    amount: popup.locator("[data-amount]"),
    method,
    cancelButton,
    result: popup.locator("[data-result]"),
    referenceNumber: () => decodeURIComponent(new URL(popup.url()).pathname.split("/").pop() ?? ""),
    pay: (code) => method(code).click(),
    cancel: () => cancelButton.click(),
  };
}
