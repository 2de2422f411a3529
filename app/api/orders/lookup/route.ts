import type { NextRequest } from "next/server";
import { isFormPost, seeOther } from "@/lib/http/form-requests";
import { jsonError } from "@/lib/http/json-error";

// POST /api/orders/lookup is gone: an order's number and a phone no longer open the order, since
// that pair is what a shared bank-reference slip or a WhatsApp message hands to anyone. A shopper
// finds their orders on another device by signing in with the phone (/account/sign-in), which
// lists every order placed with it. A form of an old cached /orders/lookup page is sent back to
// that page, which now says so; a JSON client is told 410. The body is never read.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest): Promise<Response> {
  if (isFormPost(request)) return seeOther("/orders/lookup");
  return jsonError(
    410,
    "gone",
    "orders are no longer looked up by number and phone; sign in with the phone at /account/sign-in to see every order placed with it",
  );
}
