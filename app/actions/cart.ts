"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cartCookie, type CartChange } from "@/lib/cart/cart";
import { addToCart, removeLine, setLineQuantity } from "@/lib/cart/cart-changes";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { cartNoticeParams, type CartNoticeKind } from "@/lib/cart/cart-notices";
import { withFlash } from "@/lib/flash";
import { releaseHoldsBeforeAdding } from "@/lib/http/release-holds";
import { OPTION_FIELD_PREFIX } from "@/lib/catalog/variants";

// The cart's forms post here; each works without JavaScript: validate in lib/cart/cart-changes.ts, then
// redirect back with a notice in the query (the page shows it, refusals included).

/**
 * Where a form may send the shopper back to: the shop's own pages only, never an arbitrary URL.
 * The cart, the catalogue and its pages, a category and its pages, a product (with the variant
 * chosen, `?variant=`, so the page shows it again), and a search with its query (lib/catalog/browse-query.ts browseSearch writes only these characters).
 */
const RETURN_PATH =
  /^\/(cart|page\/[0-9]{1,4}|products\/[a-z0-9-]{1,120}(\?variant=[0-9a-f-]{36})?|categories\/[a-z0-9-]{1,120}(\/page\/[0-9]{1,4})?|search(\?[A-Za-z0-9%&=._+*-]{0,400})?)?$/;

function returnPath(value: FormDataEntryValue | null): string {
  return typeof value === "string" && RETURN_PATH.test(value) ? value : "/cart";
}

async function cartIdFromCookie() {
  return readCartId((await cookies()).get(CART_COOKIE)?.value);
}

async function finish(
  result: CartChange,
  success: Exclude<CartNoticeKind, "capped" | "limited">,
  to: string,
): Promise<never> {
  if (result.ok) {
    (await cookies()).set(cartCookie(result.cartId, getEnv().appUrl));
  }
  redirect(withFlash(to, cartNoticeParams(result, success)));
}

/** The option picker's radios (`option:Tamanho` = "M"), as the product page's form sends them. */
function optionsOf(formData: FormData): Record<string, FormDataEntryValue> | undefined {
  const entries = [...formData.entries()].filter(([name]) => name.startsWith(OPTION_FIELD_PREFIX));
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([name, value]) => [name.slice(OPTION_FIELD_PREFIX.length), value]));
}

export async function addToCartAction(formData: FormData): Promise<void> {
  const result = await addToCart(
    db(),
    {
      cartId: await cartIdFromCookie(),
      productId: formData.get("productId"),
      variantId: formData.get("variantId"),
      options: optionsOf(formData),
      quantity: formData.get("quantity"),
    },
    {
      releaseExpiredHolds: releaseHoldsBeforeAdding,
    },
  );
  await finish(result, "added", returnPath(formData.get("returnTo")));
}

export async function setLineQuantityAction(formData: FormData): Promise<void> {
  const result = await setLineQuantity(db(), {
    cartId: await cartIdFromCookie(),
    variantId: formData.get("variantId"),
    quantity: formData.get("quantity"),
  });
  await finish(result, result.ok && result.quantity === 0 ? "removed" : "updated", "/cart");
}

export async function removeLineAction(formData: FormData): Promise<void> {
  const result = await removeLine(db(), { cartId: await cartIdFromCookie(), variantId: formData.get("variantId") });
  await finish(result, "removed", "/cart");
}
