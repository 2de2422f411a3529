import { NextRequest } from "next/server";

/**
 * POST /api/pay/create-order through the route handler, as the PayButton sends it: its status,
 * headers and JSON body, whatever they are.
 */
export async function postCreateOrder(body: unknown, headers: Record<string, string> = {}) {
  const { POST } = await import("@/app/api/pay/create-order/route");
  const response = await POST(
    new NextRequest("http://localhost:3000/api/pay/create-order", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

/** A checkout of `quantity` units of one product (see postCreateOrder). */
export const checkout = (productId: string, quantity: number, headers: Record<string, string> = {}) =>
  postCreateOrder({ items: [{ productId, quantity }] }, headers);

/** An order created through endpoint A (so the sandbox knows it too); anything but a 200 throws. */
export async function placeOrder(body: unknown) {
  const answer = await postCreateOrder(body);
  if (answer.status !== 200) throw new Error(`create-order: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { externalTransactionId: string; referenceNumber: string; amountAoa: number };
}
