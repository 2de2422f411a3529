import type { NextRequest } from "next/server";
import { signedInShopperRefreshing } from "@/lib/accounts/current-shopper";
import { cartItemCount } from "@/lib/cart/cart";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

export const dynamic = "force-dynamic";

/**
 * The header's cart count and signed-in state (components/cart/header-cart-count.tsx): the pages
 * are built once for every shopper, so the browser asks for its own. `signedIn` reads the
 * session as any account page does, and the refreshed session cookie better-auth may answer with
 * goes back to the browser: a shopper who browses stays signed in 30 days from the last visit.
 * Private and never stored by any cache.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  try {
    const [itemCount, session] = await Promise.all([
      cartItemCount(db(), readCartId(request.cookies.get(CART_COOKIE)?.value)),
      signedInShopperRefreshing(request.headers).catch((error: unknown) => {
        // The cart's count still answers; the header offers the sign-in meanwhile.
        consoleLogger("error", "accounts.session_failed", { error: errorKind(error) });
        return { shopper: null, setCookies: [] };
      }),
    ]);
    for (const cookie of session.setCookies) headers.append("Set-Cookie", cookie);
    return Response.json({ itemCount, signedIn: session.shopper !== null }, { headers });
  } catch (error) {
    consoleLogger("error", "cart.count_failed", { error: errorKind(error) });
    return jsonError(503, "cart_unavailable", "The cart is temporarily unavailable. Please try again.", headers);
  }
}
