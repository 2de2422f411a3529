import { cookies } from "next/headers";
import { cartItemCount } from "@/lib/cart/cart";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

export const dynamic = "force-dynamic";

/**
 * The header's cart count (components/cart/header-cart-count.tsx): the pages are built once for every
 * shopper, so the browser asks for its own count. Private and never stored by any cache.
 */
export async function GET(): Promise<Response> {
  const headers = { "Cache-Control": "private, no-store" };
  try {
    const itemCount = await cartItemCount(db(), readCartId((await cookies()).get(CART_COOKIE)?.value));
    return Response.json({ itemCount }, { headers });
  } catch (error) {
    consoleLogger("error", "cart.count_failed", { error: errorKind(error) });
    return jsonError(503, "cart_unavailable", "The cart is temporarily unavailable. Please try again.", headers);
  }
}
