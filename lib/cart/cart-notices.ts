import type { CartChange, CartRefusalCode } from "./cart";
import { MAX_ORDER_LINES } from "../order-limits";
import type { Dictionary } from "../i18n/dictionaries";
import type { StorefrontTexts } from "../i18n/storefront-texts";
import { flashOf, flashQuery, type FlashParams, type PageQuery } from "../flash";

/**
 * The outcome of a cart form, carried to the next page in its query (`?notice=added`,
 * `?notice=capped&quantity=4`, `?notice=cart_locked`, through lib/flash.ts), so the forms work
 * without JavaScript. Whatever arrives in the query is checked against this list before it is shown.
 * "Comprar de novo" tells the cart page what it did the same way (lib/accounts/bought-again-notice.ts).
 */

const SUCCESS = ["added", "updated", "removed", "capped", "limited"] as const;
/** The notices that carry the line's new quantity. */
const WITH_QUANTITY: readonly CartNoticeKind[] = ["capped", "limited"];
const REFUSALS = [
  "invalid_input",
  "unknown_product",
  "unknown_variant",
  "variant_required",
  "out_of_stock",
  "too_many_lines",
  "cart_full",
  "cart_locked",
  "no_cart",
  "line_not_found",
] as const satisfies readonly CartRefusalCode[];

export type CartNoticeKind = (typeof SUCCESS)[number];
export type CartNotice =
  { tone: "success"; kind: CartNoticeKind; quantity?: number } | { tone: "error"; kind: CartRefusalCode };

/** The query parameters of a cart form's outcome. */
export function cartNoticeParams(
  result: CartChange,
  success: Exclude<CartNoticeKind, "capped" | "limited">,
): FlashParams {
  if (!result.ok) return { notice: result.code };
  if (result.capped)
    return { notice: result.cappedBy === "limit" ? "limited" : "capped", quantity: String(result.quantity) };
  return { notice: success };
}

export const cartNoticeQuery = (result: CartChange, success: Exclude<CartNoticeKind, "capped" | "limited">) =>
  flashQuery(cartNoticeParams(result, success));

export function readCartNotice(query: PageQuery): CartNotice | null {
  // A notice sent twice is none of the forms'.
  const notice = typeof query.notice === "string" ? query.notice : undefined;
  const kind = flashOf(notice, SUCCESS);
  if (kind && WITH_QUANTITY.includes(kind)) {
    const quantity = Number(query.quantity);
    return Number.isInteger(quantity) && quantity >= 0 ? { tone: "success", kind, quantity } : null;
  }
  if (kind) return { tone: "success", kind };
  const refusal = flashOf(notice, REFUSALS);
  return refusal ? { tone: "error", kind: refusal } : null;
}

export function cartNoticeMessage(t: Pick<StorefrontTexts, "cartNotices">, notice: CartNotice): string {
  switch (notice.kind) {
    case "capped":
    case "limited":
      return t.cartNotices[notice.kind](notice.quantity ?? 0);
    case "too_many_lines":
      return t.cartNotices.too_many_lines(MAX_ORDER_LINES);
    default:
      return t.cartNotices[notice.kind];
  }
}

/**
 * Why the PayButton's order could not be created, for the shopper: `code` is endpoint A's
 * `error.code` or what the browser saw (components/checkout/pay-button/request-order.ts). Its English
 * `message` is for the log; a code without a sentence of its own gets the general one.
 */
export function orderErrorMessage(t: Dictionary, code: string): string {
  const messages = t.payButton.orderErrors;
  return Object.hasOwn(messages, code) ? messages[code as keyof typeof messages] : messages.other;
}
