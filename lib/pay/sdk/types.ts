/**
 * The browser SDK's surface (contract 4.3, 2.8, 2.9, 2.10) as the shop uses it. The SDK itself
 * is loaded by a script tag from PAY_SDK_URL and exposes `window.Pay`; there is no package, so
 * these types are ours. The local sandbox's SDK (packages/pay-sandbox/assets/pay.js) implements
 * exactly this.
 */

/** Contract 1. `FPSOLPG` is always offered by the hosted checkout and cannot be disabled. */
export type PaymentMethodCode = "FPMCXEXPRSS" | "FPSOLPGEXT" | "FPSOLPG";

/** Contract 2.9. */
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

/** Contract 2.8: the documented data paths; anything else the SDK passes is not relied upon. */
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

/** Contract 2.10: one entry per cart line. */
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

declare global {
  interface Window {
    Pay?: PayGlobal;
  }
}
