import type { PayCustomerInfo } from "@/lib/pay-sdk/types";

export const CREATE_ORDER_PATH = "/api/pay/create-order";

/** Endpoint A's answer (app/api/pay/create-order/route.ts). */
export interface CreatedPayOrder {
  externalTransactionId: string;
  referenceNumber: string;
  amountAoa: number;
}

/**
 * Creates the order for the cart in the cookie. No items and no total are sent: the server
 * reads the cart and recomputes the amount (contract 4.2 A.1). Throws an Error whose message
 * says what went wrong, the server's own message when it gave one.
 */
export async function requestPayOrder(customer: PayCustomerInfo | undefined): Promise<CreatedPayOrder> {
  let response: Response;
  try {
    response = await fetch(CREATE_ORDER_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ customer }),
    });
  } catch {
    throw new Error("the shop could not be reached; check the connection and try again");
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(serverErrorMessage(body) ?? `the shop answered HTTP ${response.status}`);
  return readCreatedOrder(body);
}

function readCreatedOrder(body: unknown): CreatedPayOrder {
  const { externalTransactionId, referenceNumber, amountAoa } = isRecord(body) ? body : {};
  // Contract 7: an empty reference is invalid, so it never reaches the SDK.
  if (typeof referenceNumber !== "string" || referenceNumber.trim() === "")
    throw new Error("the shop returned no payment reference");
  if (typeof externalTransactionId !== "string" || externalTransactionId === "")
    throw new Error("the shop returned no order id");
  if (typeof amountAoa !== "number") throw new Error("the shop returned no amount");
  return { externalTransactionId, referenceNumber, amountAoa };
}

/** `{ error: { code, message } }`, as lib/http.ts's jsonError writes it. */
function serverErrorMessage(body: unknown): string | undefined {
  const error = isRecord(body) ? body.error : undefined;
  const message = isRecord(error) ? error.message : undefined;
  return typeof message === "string" && message !== "" ? message : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
