/**
 * The TypeScript types of the browser SDK this sandbox serves at /sdks/v1/pay.js (and of the
 * service's own, which it stands in for): the global `Pay(publishableKey)`, the button it
 * renders and the callbacks it makes. Type-only: `import type { PayGlobal } from "pay-sandbox/sdk"`.
 * A page that loads the SDK by a script tag can declare the global with them:
 *
 *   declare global { interface Window { Pay?: PayGlobal } }
 */

/** The hosted checkout's payment methods. `FPSOLPG` is always offered by the hosted checkout and cannot be disabled. */
export type PaymentMethodCode = "FPMCXEXPRSS" | "FPSOLPGEXT" | "FPSOLPG";

/** What `generateButton` takes besides the callbacks: the look, the language, the popup's settings. */
export interface PayButtonOptions {
  style?: { width?: string; shape?: "rect" | "pill" };
  config?: { lang?: string; showAmount?: boolean };
  /** Every field is forwarded to the hosted checkout. */
  paymentConfig?: {
    theme?: string;
    allowedPaymentMethods?: PaymentMethodCode[];
    showUIOfProcessingInfo?: boolean;
    referencePaymentLifeSpan?: number;
    [field: string]: unknown;
  };
}

/** What approve and pending callbacks receive: the documented data paths; anything else the SDK passes is not relied upon. */
export interface PayCallbackData {
  payment?: {
    orderId?: string;
    data?: { paymentReference?: string; entity?: { number?: string | number } };
  };
}

export interface PayCallbackActions {
  /** Runs `fn` once the popup has closed (at once when it already has). */
  onPopupWindowClosed(fn: () => void): void;
}

export interface PayButtonConfig {
  /** Must resolve to the non-empty `referenceNumber` from endpoint A. */
  createOrder(): Promise<string>;
  onApprove(data: PayCallbackData, actions: PayCallbackActions): Promise<void> | void;
  onPending(data: PayCallbackData, actions: PayCallbackActions): Promise<void> | void;
  onCancel(): Promise<void> | void;
  onError(error: unknown): Promise<void> | void;
  onClick?(data: unknown): Promise<void> | void;
  options?: PayButtonOptions;
}

/** `addAllPaymentReferences`: one entry per cart line. */
export interface PaymentReferenceItem {
  referenceNumber: string;
  referenceDescription: string;
  referenceAmount: number;
  referenceQuantity: number;
  /** Stock quantity. */
  referenceTotalQuantity: number;
}

export interface PayCustomerInfo {
  name: string;
  phone: string;
}

export interface PayButtonHandle {
  render(containerSelector: string): unknown;
}

export interface PaySdk {
  generateButton(config: PayButtonConfig): PayButtonHandle;
  addCustomerInfo?(customer: PayCustomerInfo): void;
  addAllPaymentReferences?(items: PaymentReferenceItem[]): void;
}

export type PayGlobal = (publishableKey: string) => PaySdk;
