import "server-only";
import type { CartRefusalCode } from "../cart/cart";
import { addToCart } from "../cart/cart-changes";
import { readCartId } from "../cart/shopper-cookies";
import { lineName } from "../catalog/variants";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { UnitLimits } from "../order-limits";
import { EXTERNAL_TRANSACTION_ID } from "../orders/order-number";
import { customerPhoneIs } from "../orders/phone-match";
import { isPhoneKey } from "../phone";
import { refusal, type Refusal } from "../refusal";

/**
 * "Comprar de novo": an order's lines back in the shopper's cart, each through the cart's own add
 * (lib/cart/cart-changes.ts addToCart), so at today's price, within today's stock and the cart's
 * limits; what could not go back in, or only in part, is said line by line. Only an order of the
 * signed-in shopper's phone: any other is as unknown as one that does not exist.
 */

/** Why a line of the order did not go back in the cart, or not all of it. */
export type NotBoughtAgainReason =
  /** The product or its variant is no longer sold (archived, or deleted). */
  | "gone"
  /** None left. */
  | "out_of_stock"
  /** Fewer left than the order had: the rest went in. */
  | "reduced"
  /** The cart's limits (lines, units per line or per order) left no room for it, or for all of it. */
  | "cart_full";

export interface BoughtAgain {
  /** The product's name with the variant's values, as the order has it ("T-shirt Kianda, M, Azul"). */
  name: string;
  productId: string;
  variantId: string;
  /** Units this added to the cart. */
  quantity: number;
  /** Today's price of one unit, which the cart charges. */
  unitPriceAoa: number;
  /** What one unit cost in the order. */
  orderedUnitPriceAoa: number;
}

export interface NotBoughtAgain {
  name: string;
  reason: NotBoughtAgainReason;
  /** Units of the order's line that did not go back in. */
  quantity: number;
}

export type BuyAgainResult =
  | {
      ok: true;
      /**
       * The cart the lines went into (a new one when there was no open cart), to keep in the
       * cookie; null when none went in and there was no cart.
       */
      cartId: string | null;
      added: BoughtAgain[];
      unavailable: NotBoughtAgain[];
    }
  | Refusal<"not_found" | "cart_locked">;

interface OrderLineRow {
  productId: string;
  variantId: string | null;
  productName: string;
  variantTitle: string;
  quantity: number;
  unitPriceAoa: number;
}

const notFound = () => refusal(404, "not_found", "no order has this number and phone");

/**
 * What a refused add says of the line. `cart_locked` stops the whole (below); the last three
 * cannot come from an add of an order's line, and would mean the line cannot go back in.
 */
const REASON_OF: Record<Exclude<CartRefusalCode, "cart_locked">, NotBoughtAgainReason> = {
  unknown_product: "gone",
  unknown_variant: "gone",
  variant_required: "gone",
  out_of_stock: "out_of_stock",
  too_many_lines: "cart_full",
  cart_full: "cart_full",
  invalid_input: "gone",
  no_cart: "gone",
  line_not_found: "gone",
};

/**
 * Puts the lines of the order `externalTransactionId`, if its phone's key is `phoneKey`, into the
 * cart `cartId` (the cookie's; a new cart when it names no open one), one add per line in the
 * order's order. Not one transaction: each line goes in or not on its own, as the shopper adding
 * them one by one would, and the answer says which. Refused: an order of another phone or none
 * (404, alike), and a cart a payment holds (409 cart_locked, as the cart itself answers).
 */
export async function buyAgain(
  db: Database,
  request: { cartId: string | undefined; externalTransactionId: string; phoneKey: string },
  options: { releaseExpiredHolds?: (variantIds: string[]) => Promise<number>; limits?: UnitLimits } = {},
): Promise<BuyAgainResult> {
  const { externalTransactionId, phoneKey } = request;
  if (!isPhoneKey(phoneKey) || !EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return notFound();
  const lines = await db.$queryRaw<OrderLineRow[]>(Prisma.sql`
SELECT l.product_id AS "productId", l.variant_id AS "variantId", l.product_name AS "productName",
       l.variant_title AS "variantTitle", l.quantity, l.unit_price_aoa AS "unitPriceAoa"
FROM orders o JOIN order_lines l ON l.order_id = o.id
WHERE o.external_transaction_id = ${externalTransactionId} AND ${customerPhoneIs(phoneKey)}
ORDER BY l.product_name, l.variant_title, l.id`);
  // Every order has a line: none means no order of this phone.
  if (lines.length === 0) return notFound();

  let cartId = readCartId(request.cartId);
  // The cart's quantities before each add, to tell what an add put in from what was there.
  let inCart = await quantitiesIn(db, cartId);
  const added: { line: OrderLineRow; variantId: string; quantity: number }[] = [];
  const unavailable: NotBoughtAgain[] = [];

  for (const line of lines) {
    const name = lineName(line.productName, line.variantTitle);
    const { variantId } = line;
    // Every line names its variant since migration 20261129000000; one that does not cannot say which was bought.
    if (!variantId) {
      unavailable.push({ name, reason: "gone", quantity: line.quantity });
      continue;
    }
    const change = await addToCart(
      db,
      { cartId, productId: line.productId, variantId, quantity: line.quantity },
      options,
    );
    if (!change.ok) {
      // A payment holds the cart: nothing can go in (what went in before it was locked is in the order being paid).
      if (change.code === "cart_locked") return refusal(409, "cart_locked", change.message);
      unavailable.push({ name, reason: REASON_OF[change.code], quantity: line.quantity });
      continue;
    }
    // The add made a new cart (the cookie's was checked out meanwhile): nothing of it was there.
    if (change.cartId !== cartId) inCart = new Map();
    cartId = change.cartId;
    // A line already above today's stock is lowered by the add: nothing of the order went in.
    const quantity = Math.max(0, change.quantity - (inCart.get(variantId) ?? 0));
    inCart.set(variantId, change.quantity);
    if (quantity > 0) added.push({ line, variantId, quantity });
    if (quantity < line.quantity)
      unavailable.push({
        name,
        reason: change.cappedBy === "limit" ? "cart_full" : "reduced",
        quantity: line.quantity - quantity,
      });
  }

  const prices = await todaysPrices(
    db,
    added.map((entry) => entry.variantId),
  );
  return {
    ok: true,
    cartId: cartId ?? null,
    added: added.map(({ line, variantId, quantity }) => ({
      name: lineName(line.productName, line.variantTitle),
      productId: line.productId,
      variantId,
      quantity,
      unitPriceAoa: prices.get(variantId) ?? line.unitPriceAoa,
      orderedUnitPriceAoa: line.unitPriceAoa,
    })),
    unavailable,
  };
}

/** Units of each variant in the cart `cartId` (none when there is no cart). */
async function quantitiesIn(db: Pick<Database, "cartLine">, cartId: string | undefined): Promise<Map<string, number>> {
  if (!cartId) return new Map();
  const lines = await db.cartLine.findMany({ where: { cartId }, select: { variantId: true, quantity: true } });
  return new Map(lines.map((line) => [line.variantId, line.quantity]));
}

async function todaysPrices(db: Pick<Database, "productVariant">, variantIds: string[]): Promise<Map<string, number>> {
  if (variantIds.length === 0) return new Map();
  const variants = await db.productVariant.findMany({
    where: { id: { in: variantIds } },
    select: { id: true, priceAoa: true },
  });
  return new Map(variants.map((variant) => [variant.id, variant.priceAoa]));
}

/**
 * The names of the order `externalTransactionId`'s lines, as "Comprar de novo" says them (the
 * product's name with the variant's values): what the cart's notice of it may name
 * (lib/accounts/bought-again-notice.ts). Product names are the shop's, not the shopper's: none for an unknown order.
 */
export async function orderLineNames(
  db: Pick<Database, "$queryRaw">,
  externalTransactionId: string,
): Promise<string[]> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return [];
  const lines = await db.$queryRaw<{ productName: string; variantTitle: string }[]>(Prisma.sql`
SELECT l.product_name AS "productName", l.variant_title AS "variantTitle"
FROM orders o JOIN order_lines l ON l.order_id = o.id
WHERE o.external_transaction_id = ${externalTransactionId}`);
  return lines.map((line) => lineName(line.productName, line.variantTitle));
}
