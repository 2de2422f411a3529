import "server-only";
import { z } from "zod";
import { CART_COOKIE } from "./shopper-cookies";
import { shopCookie } from "../cookies";
import { MAX_ORDER_LINES, type UnitLimits } from "../order-limits";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import type { Refusal, RefusalStatus } from "../refusal";
import { shownImage } from "../catalog/gallery";
import { unitsForSale } from "../catalog/on-sale";
import { lineName, readVariantOptions, variantTitle } from "../catalog/variants";

/**
 * The shopper's server-side cart (found by the `cart_id` cookie) as the shop reads it: its lines,
 * prices, stock and totals from the database, and the header's count. A line is a variant
 * ("T-shirt Kianda, M, Azul"). An OPEN cart can change (lib/cart/cart-changes.ts); a LOCKED one is
 * held by a checkout until its order ends; a CHECKED_OUT one is paid for and read as no cart.
 */

/** As many lines as an order may have, so a cart can always be checked out. */
export const MAX_CART_LINES = MAX_ORDER_LINES;

export const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface CartLine {
  productId: string;
  variantId: string;
  slug: string;
  /** The line's name: the product's, with the variant's values ("T-shirt Kianda, M, Azul"). */
  name: string;
  productName: string;
  /** "M, Azul"; "" for a product without options. */
  variantTitle: string;
  sku: string | null;
  /** null for none: the cart shows the placeholder. */
  image: string | null;
  unitPriceAoa: number;
  quantity: number;
  /** The variant's stock now; a line above it cannot be checked out until lowered. */
  stock: number;
  lineTotalAoa: number;
}

export interface CartView {
  id: string;
  status: "OPEN" | "LOCKED";
  lines: CartLine[];
  /** Units across all lines (the header's count). */
  itemCount: number;
  totalAoa: number;
  /** Some line of an OPEN cart asks for more than is in stock (a LOCKED cart's units are already reserved). */
  exceedsStock: boolean;
  /** The shop's caps on units, which an OPEN cart filled before they were lowered may exceed. */
  limits: UnitLimits;
  /** Some line of an OPEN cart, or the whole, is over `limits`: checkout would refuse it (422 too_many_units). */
  exceedsLimits: boolean;
}

export type CartRefusalCode =
  | "invalid_input"
  | "unknown_product"
  | "unknown_variant"
  | "variant_required"
  | "out_of_stock"
  | "too_many_lines"
  | "cart_full"
  | "cart_locked"
  | "no_cart"
  | "line_not_found";

/** The status each refusal of a cart change carries: what is gone, what conflicts, what breaks a rule. */
export const CART_REFUSAL_STATUS = {
  invalid_input: 400,
  unknown_product: 404,
  unknown_variant: 404,
  no_cart: 404,
  line_not_found: 404,
  out_of_stock: 409,
  cart_locked: 409,
  variant_required: 422,
  too_many_lines: 422,
  cart_full: 422,
} as const satisfies Record<CartRefusalCode, RefusalStatus>;

export type CartChange =
  | {
      ok: true;
      cartId: string;
      /** The line's quantity after the change (0 when it was removed). */
      quantity: number;
      /** The requested quantity was lowered, to the stock or to the shop's caps. */
      capped: boolean;
      /** What lowered it: the stock, or MAX_UNITS_PER_LINE / MAX_UNITS_PER_ORDER. */
      cappedBy?: "stock" | "limit";
    }
  | Refusal<CartRefusalCode>;

export const cartIdSchema = z.uuid({ error: "must be a cart id (a UUID)" });

/** The shop's caps on units (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER), for a read or a change that names none. */
export const shopUnitLimits = (): UnitLimits => getEnv().orders.units;

/** The cart by the id from its cookie; null when there is none, it is unknown, or it was checked out. */
export async function getCart(
  db: Database,
  id: string | undefined,
  limits: UnitLimits = shopUnitLimits(),
): Promise<CartView | null> {
  if (!id || !cartIdSchema.safeParse(id).success) return null;
  const cart = await db.cart.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      lines: {
        // In the order they were added; lines added together (same timestamp) by position.
        orderBy: [{ createdAt: "asc" }, { variant: { position: "asc" } }, { id: "asc" }],
        select: {
          quantity: true,
          variant: {
            select: {
              id: true,
              options: true,
              sku: true,
              priceAoa: true,
              stock: true,
              imagePath: true,
              archivedAt: true,
              product: {
                select: {
                  id: true,
                  slug: true,
                  name: true,
                  imagePath: true,
                  archivedAt: true,
                  options: { select: { name: true, values: true }, orderBy: { position: "asc" } },
                },
              },
            },
          },
        },
      },
    },
  });
  if (!cart || cart.status === "CHECKED_OUT") return null;
  const lines = cart.lines.map(({ quantity, variant }): CartLine => {
    const { product } = variant;
    const title = variantTitle(product.options, readVariantOptions(variant.options));
    return {
      productId: product.id,
      variantId: variant.id,
      slug: product.slug,
      name: lineName(product.name, title),
      productName: product.name,
      variantTitle: title,
      sku: variant.sku,
      image: shownImage(variant.imagePath) ?? shownImage(product.imagePath),
      unitPriceAoa: variant.priceAoa,
      quantity,
      stock: unitsForSale({ stock: variant.stock, archivedAt: variant.archivedAt ?? product.archivedAt }),
      lineTotalAoa: variant.priceAoa * quantity,
    };
  });
  const itemCount = lines.reduce((sum, line) => sum + line.quantity, 0);
  const open = cart.status === "OPEN";
  return {
    id: cart.id,
    status: cart.status,
    lines,
    itemCount,
    totalAoa: lines.reduce((sum, line) => sum + line.lineTotalAoa, 0),
    exceedsStock: open && lines.some((line) => line.quantity > line.stock),
    limits,
    exceedsLimits: open && (itemCount > limits.perOrder || lines.some((line) => line.quantity > limits.perLine)),
  };
}

/**
 * The header's count: units across the lines of the cart by the id from its cookie, 0 when there
 * is none, it is unknown, or it was checked out. One indexed query, for GET /api/cart.
 */
export async function cartItemCount(db: Database, id: string | undefined): Promise<number> {
  if (!id || !cartIdSchema.safeParse(id).success) return 0;
  const { _sum } = await db.cartLine.aggregate({
    where: { cartId: id, cart: { status: { not: "CHECKED_OUT" } } },
    _sum: { quantity: true },
  });
  return _sum.quantity ?? 0;
}

export const cartCookie = (id: string, appUrl: string) =>
  shopCookie(CART_COOKIE, id, appUrl, CART_COOKIE_MAX_AGE_SECONDS);
