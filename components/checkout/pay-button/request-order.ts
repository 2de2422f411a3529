import type { DeliveryChoice } from "@/lib/checkout/checkout-rules";
import type { PayCustomerInfo, PaymentReferenceItem } from "@/lib/pay/sdk/types";

/**
 * The PayButton's call to endpoint A: posts the checkout and reads the created order, or why it
 * could not be created, from the answer.
 */

export const CREATE_ORDER_PATH = "/api/pay/create-order";

/** Endpoint A's answer (app/api/pay/create-order/route.ts). */
export interface CreatedPayOrder {
  externalTransactionId: string;
  referenceNumber: string;
  amountAoa: number;
  /** What the SDK's addAllPaymentReferences gets: built by the server, adding up to amountAoa. */
  paymentReferences: PaymentReferenceItem[];
}

/** The rest of endpoint A's body besides the customer's name and phone (lib/checkout/checkout-rules.ts). */
export interface CheckoutDetails {
  email?: string;
  /** The buyer's NIF for the receipt, normalised (lib/nif.ts). */
  nif?: string;
  delivery?: DeliveryChoice;
  promoCode?: string;
  /** A signed-in shopper's "Guardar este endereço" for the delivery's address. */
  saveAddress?: boolean;
}

/**
 * Why an order could not be created. `code` is endpoint A's `error.code`, or what the browser
 * saw: "network" (no answer), "unavailable" (a 5xx without one), "invalid_response". The
 * message is English, for the log; the shopper is told `code` in their language
 * (lib/cart/cart-notices.ts, orderErrorMessage).
 */
export class PayOrderError extends Error {
  override name = "PayOrderError";

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Creates the order for the cart in the cookie. No items and no total are sent: the server
 * reads the cart and recomputes the amount (contract 4.2 A.1). Throws a PayOrderError, with
 * the server's own code and message when it gave them.
 */
export async function requestPayOrder(
  customer: PayCustomerInfo | undefined,
  details: CheckoutDetails = {},
): Promise<CreatedPayOrder> {
  const { email, nif, delivery, promoCode, saveAddress } = details;
  let response: Response;
  try {
    response = await fetch(CREATE_ORDER_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        customer: customer && { ...customer, ...(email ? { email } : {}), ...(nif ? { nif } : {}) },
        delivery,
        promoCode,
        ...(saveAddress ? { saveAddress } : {}),
      }),
    });
  } catch {
    throw new PayOrderError("network", "the shop could not be reached; check the connection and try again");
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = serverError(body);
    throw new PayOrderError(
      error.code ?? (response.status >= 500 ? "unavailable" : "invalid_response"),
      error.message ?? `the shop answered HTTP ${response.status}`,
    );
  }
  return readCreatedOrder(body);
}

function readCreatedOrder(body: unknown): CreatedPayOrder {
  const { externalTransactionId, referenceNumber, amountAoa, paymentReferences } = isRecord(body) ? body : {};
  const invalid = (message: string) => new PayOrderError("invalid_response", message);
  // Contract 7: an empty reference is invalid, so it never reaches the SDK.
  if (typeof referenceNumber !== "string" || referenceNumber.trim() === "")
    throw invalid("the shop returned no payment reference");
  if (typeof externalTransactionId !== "string" || externalTransactionId === "")
    throw invalid("the shop returned no order id");
  if (typeof amountAoa !== "number") throw invalid("the shop returned no amount");
  if (!Array.isArray(paymentReferences) || !paymentReferences.every(isReferenceItem))
    throw invalid("the shop returned no payment references");
  return { externalTransactionId, referenceNumber, amountAoa, paymentReferences };
}

function isReferenceItem(value: unknown): value is PaymentReferenceItem {
  if (!isRecord(value)) return false;
  const { referenceNumber, referenceDescription, referenceAmount, referenceQuantity, referenceTotalQuantity } = value;
  return (
    typeof referenceNumber === "string" &&
    typeof referenceDescription === "string" &&
    [referenceAmount, referenceQuantity, referenceTotalQuantity].every(Number.isInteger)
  );
}

/** `{ error: { code, message } }`, as lib/http/json-error.ts's jsonError writes it. */
function serverError(body: unknown): { code?: string; message?: string } {
  const error = isRecord(body) ? body.error : undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return isRecord(error) ? { code: text(error.code), message: text(error.message) } : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
