import { firstOf, type FlashParams, type PageQuery } from "../flash";
import { MAX_ORDER_LINES } from "../order-limits";
import { EXTERNAL_TRANSACTION_ID } from "../orders/order-number";
import type { NotBoughtAgainReason } from "./buy-again";

/**
 * The cart's notice of "Comprar de novo" (POST /api/account/buy-again), beside the cart forms'
 * own (lib/cart/cart-notices.ts) and carried the same way, in the cart's query (lib/flash.ts):
 * `?notice=bought_again&order=<id>&added=<units>`, and a `missing=<reason>:<units>:<name>` for
 * each line of the order that did not go back in, or not all of it. The names are the order's
 * own; the cart page shows only those the order `order` has (boughtAgainShown), so a link made
 * elsewhere cannot put words of its own on the shop's page. Pure.
 */
export const BOUGHT_AGAIN_REASONS = [
  "gone",
  "out_of_stock",
  "reduced",
  "cart_full",
] as const satisfies readonly NotBoughtAgainReason[];
export type BoughtAgainReason = (typeof BOUGHT_AGAIN_REASONS)[number];

export interface BoughtAgainLine {
  reason: BoughtAgainReason;
  /** Units of the order's line that did not go back in. */
  quantity: number;
  name: string;
}

export interface BoughtAgainNotice {
  /** The order's externalTransactionId. */
  order: string;
  /** Units that went into the cart. */
  added: number;
  missing: BoughtAgainLine[];
  /** Lines that did not go back in beyond those listed (the address has room for a few). */
  more: number;
}

/** How many characters of names the address carries: well inside any server's limit on a URL. */
const MISSING_NAMES_MAX_CHARS = 1_500;

export function boughtAgainParams(
  order: string,
  result: { added: readonly { quantity: number }[]; unavailable: readonly BoughtAgainLine[] },
): FlashParams {
  const missing: string[] = [];
  let chars = 0;
  for (const line of result.unavailable) {
    chars += line.name.length;
    if (chars > MISSING_NAMES_MAX_CHARS) break;
    missing.push(`${line.reason}:${line.quantity}:${line.name}`);
  }
  const more = result.unavailable.length - missing.length;
  return {
    notice: "bought_again",
    order,
    added: result.added.reduce((sum, line) => sum + line.quantity, 0),
    missing,
    more: more > 0 ? more : undefined,
  };
}

const count = (value: string | string[] | undefined) => {
  const number = Number(firstOf(value));
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
};

/** The notice of "Comprar de novo" in a page's query, as written; null when there is none or it is malformed. */
export function readBoughtAgainNotice(query: PageQuery): BoughtAgainNotice | null {
  if (firstOf(query.notice) !== "bought_again") return null;
  const order = firstOf(query.order);
  const added = count(query.added);
  if (!order || !EXTERNAL_TRANSACTION_ID.test(order) || added === undefined) return null;
  const entries = query.missing === undefined ? [] : [query.missing].flat();
  const missing: BoughtAgainLine[] = [];
  for (const entry of entries.slice(0, MAX_ORDER_LINES)) {
    const [reason, quantity, ...name] = entry.split(":");
    const units = Number(quantity);
    const known = BOUGHT_AGAIN_REASONS.find((candidate) => candidate === reason);
    if (known && Number.isSafeInteger(units) && units > 0 && name.length > 0)
      missing.push({ reason: known, quantity: units, name: name.join(":") });
  }
  return { order, added, missing, more: count(query.more) ?? 0 };
}

/**
 * The notice with only the lines whose name is one of the order's (`orderLineNames`, the names
 * of its lines); null for an order without any (none of the shop's).
 */
export function boughtAgainShown(
  notice: BoughtAgainNotice,
  orderLineNames: readonly string[],
): BoughtAgainNotice | null {
  if (orderLineNames.length === 0) return null;
  const names = new Set(orderLineNames);
  return { ...notice, missing: notice.missing.filter((line) => names.has(line.name)) };
}
