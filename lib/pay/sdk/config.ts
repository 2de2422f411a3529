import type { PayButtonOptions } from "./types";

/**
 * The one typed configuration of the pay button (contract 2.9). Everything the hosted checkout
 * receives comes from here, so the checkout page, the pending page and the tests agree.
 */

/** Minutes (contract 8 shows 1440; its unit is not shown, see docs/contract-decisions.md). */
export const REFERENCE_PAYMENT_LIFE_SPAN_MINUTES = 1440;

export type ShopLang = "pt" | "en";

export function payButtonOptions(lang: ShopLang): PayButtonOptions {
  return {
    style: { width: "100%", shape: "rect" },
    config: { lang, showAmount: true },
    paymentConfig: {
      theme: "light",
      allowedPaymentMethods: ["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"],
      showUIOfProcessingInfo: true,
      referencePaymentLifeSpan: REFERENCE_PAYMENT_LIFE_SPAN_MINUTES,
    },
  };
}
