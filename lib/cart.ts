import "server-only";
import { z } from "zod";
import { CART_COOKIE } from "./checkout/cookies";
import { shopCookie } from "./cookies";
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from "./checkout/limits";
import { describeIssues } from "./checkout/request";
import type { Database } from "./db/client";
import { Prisma } from "./generated/prisma/client";
import { ON_SALE, unitsForSale } from "./on-sale";

/**
 * The shopper's server-side cart (found by the `cart_id` cookie). Prices, stock and totals
 * always come from the database; the browser only says which product and how many.
 *
 * - OPEN: can change.
 * - LOCKED: a checkout holds it (lib/checkout/create-order.ts); every change is refused until
 *   the order's CAN job reopens it or its CON job checks it out.
 * - CHECKED_OUT: paid for; treated as no cart, so adding starts a new one.
 *
 * Limits match endpoint A's, so a cart can always be checked out: at most MAX_ORDER_LINES
 * lines, each 1..MAX_LINE_QUANTITY and never more than the product's stock at the time.
 */

export const MAX_CART_LINES = MAX_ORDER_LINES;

export const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

export interface CartLine {
  productId: string;
  slug: string;
  name: string;
  image: string;
  unitPriceAoa: number;
  quantity: number;
  /** The product's stock now; a line above it cannot be checked out until lowered. */
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
}

export type CartRefusalCode =
  | "invalid_input"
  | "unknown_product"
  | "out_of_stock"
  | "too_many_lines"
  | "cart_locked"
  | "no_cart"
  | "line_not_found";

export type CartChange =
  | {
      ok: true;
      cartId: string;
      /** The line's quantity after the change (0 when it was removed). */
      quantity: number;
      /** The requested quantity was lowered to the stock or to MAX_LINE_QUANTITY. */
      capped: boolean;
    }
  | { ok: false; code: CartRefusalCode; message: string };

const cartId = z.uuid({ error: "must be a cart id (a UUID)" });
const productId = z.uuid({ error: "must be a product id (a UUID)" });

/** A whole number, given as a number or as the decimal digits a form sends ("2", not "2.0" or " 2"). */
const wholeNumber = z.union([
  z.int({ error: "must be a whole number" }),
  z
    .string()
    .regex(/^-?[0-9]{1,9}$/, { error: "must be a whole number" })
    .transform(Number),
]);

const addSchema = z.object({
  cartId: cartId.optional(),
  productId,
  quantity: wholeNumber.pipe(
    z
      .number()
      .min(1, { error: "must be at least 1" })
      .max(MAX_LINE_QUANTITY, { error: `must be at most ${MAX_LINE_QUANTITY}` }),
  ),
});

/** 0 removes the line; anything else must be a quantity a line can have. */
const setQuantitySchema = z.object({
  cartId: cartId.optional(),
  productId,
  quantity: wholeNumber.pipe(
    z
      .number()
      .min(0, { error: "must not be negative" })
      .max(MAX_LINE_QUANTITY, { error: `must be at most ${MAX_LINE_QUANTITY}` }),
  ),
});

const removeSchema = z.object({ cartId: cartId.optional(), productId });

export type AddToCartInput = { cartId?: unknown; productId: unknown; quantity: unknown };
export type SetQuantityInput = { cartId?: unknown; productId: unknown; quantity: unknown };
export type RemoveLineInput = { cartId?: unknown; productId: unknown };

const refuse = (code: CartRefusalCode, message: string): CartChange => ({ ok: false, code, message });

const invalid = (error: z.ZodError): CartChange => refuse("invalid_input", describeIssues(error, "input"));

/** The cart by the id from its cookie; null when there is none, it is unknown, or it was checked out. */
export async function getCart(db: Database, id: string | undefined): Promise<CartView | null> {
  if (!id || !cartId.safeParse(id).success) return null;
  const cart = await db.cart.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      items: {
        // In the order they were added; lines added together (same timestamp) by name.
        orderBy: [{ createdAt: "asc" }, { product: { name: "asc" } }],
        select: {
          quantity: true,
          product: {
            select: {
              id: true,
              slug: true,
              name: true,
              imagePath: true,
              priceAoa: true,
              stock: true,
              archivedAt: true,
            },
          },
        },
      },
    },
  });
  if (!cart || cart.status === "CHECKED_OUT") return null;
  const lines = cart.items.map(({ quantity, product }) => ({
    productId: product.id,
    slug: product.slug,
    name: product.name,
    image: product.imagePath,
    unitPriceAoa: product.priceAoa,
    quantity,
    stock: unitsForSale(product),
    lineTotalAoa: product.priceAoa * quantity,
  }));
  return {
    id: cart.id,
    status: cart.status,
    lines,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalAoa: lines.reduce((sum, line) => sum + line.lineTotalAoa, 0),
    exceedsStock: cart.status === "OPEN" && lines.some((line) => line.quantity > line.stock),
  };
}

/**
 * The header's count: units across the lines of the cart by the id from its cookie, 0 when there
 * is none, it is unknown, or it was checked out. One indexed query, for GET /api/cart.
 */
export async function cartItemCount(db: Database, id: string | undefined): Promise<number> {
  if (!id || !cartId.safeParse(id).success) return 0;
  const { _sum } = await db.cartItem.aggregate({
    where: { cartId: id, cart: { status: { not: "CHECKED_OUT" } } },
    _sum: { quantity: true },
  });
  return _sum.quantity ?? 0;
}

type Transaction = Prisma.TransactionClient;

/**
 * Locks the cart row for the rest of the transaction. Checkout locks a cart with an UPDATE of the
 * same row, so a change here and a checkout never interleave: the checkout either sees this
 * change in full or this change sees the cart LOCKED.
 */
async function lockCart(tx: Transaction, id: string) {
  const [cart] = await tx.$queryRaw<{ status: "OPEN" | "LOCKED" | "CHECKED_OUT" }[]>(
    Prisma.sql`SELECT status::text AS status FROM carts WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return cart;
}

const lockedRefusal = () =>
  refuse("cart_locked", "a payment is in progress for this cart; it cannot change until the payment ends");

/**
 * Adds `quantity` units of a product, summing with the line already there, capped by the
 * product's stock and MAX_LINE_QUANTITY. Without an open cart (none, unknown, or checked out)
 * a new OPEN cart is created: the answer's cartId is the one to keep in the cookie.
 */
export async function addToCart(
  db: Database,
  input: AddToCartInput,
  options: {
    /**
     * Ends expired stock holds on these products (lib/orders/holds.ts) and says how many orders it
     * cancelled. When the product is sold out, it is called once and the add tried again: units
     * kept by orders nobody paid in time are the shopper's, without waiting for a sweep.
     */
    releaseExpiredHolds?: (productIds: string[]) => Promise<number>;
  } = {},
): Promise<CartChange> {
  const parsed = addSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const request = parsed.data;
  const result = await addOnce(db, request);
  // Sold out (a refusal writes nothing, so the same request can simply run again).
  if (result.ok || result.code !== "out_of_stock" || !options.releaseExpiredHolds) return result;
  if ((await options.releaseExpiredHolds([request.productId])) === 0) return result;
  return addOnce(db, request);
}

async function addOnce(db: Database, request: z.output<typeof addSchema>): Promise<CartChange> {
  return db.$transaction(async (tx) => {
    // Checked first so a refused request leaves no empty cart behind. Not locked: checkout locks
    // the cart and then the products, and taking them in the other order here could deadlock.
    // Stock is checked again when the order reserves it.
    const product = await tx.product.findUnique({
      where: { id: request.productId, ...ON_SALE },
      select: { stock: true },
    });
    // An archived product (lib/admin/products.ts) is not sold any more: as unknown as one never sold.
    if (!product) return refuse("unknown_product", `no product with id ${request.productId}`);
    if (product.stock <= 0) return refuse("out_of_stock", "the product is sold out");

    const existing = request.cartId ? await lockCart(tx, request.cartId) : undefined;
    if (existing?.status === "LOCKED") return lockedRefusal();
    const id =
      existing?.status === "OPEN" && request.cartId
        ? request.cartId
        : (await tx.cart.create({ data: {}, select: { id: true } })).id;

    const line = await tx.cartItem.findUnique({
      where: { cartId_productId: { cartId: id, productId: request.productId } },
      select: { quantity: true },
    });
    if (!line && (await tx.cartItem.count({ where: { cartId: id } })) >= MAX_CART_LINES)
      return refuse("too_many_lines", `a cart holds at most ${MAX_CART_LINES} different products`);

    const wanted = (line?.quantity ?? 0) + request.quantity;
    const quantity = Math.min(wanted, product.stock, MAX_LINE_QUANTITY);
    await tx.cartItem.upsert({
      where: { cartId_productId: { cartId: id, productId: request.productId } },
      create: { cartId: id, productId: request.productId, quantity },
      update: { quantity },
    });
    await tx.cart.update({ where: { id }, data: { updatedAt: new Date() } });
    return { ok: true, cartId: id, quantity, capped: quantity < wanted };
  });
}

/** Sets a line's quantity (capped by stock); 0 removes the line. */
export async function setLineQuantity(db: Database, input: SetQuantityInput): Promise<CartChange> {
  const parsed = setQuantitySchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const request = parsed.data;
  if (request.quantity === 0) return removeLine(db, request);
  const { cartId } = request;
  if (!cartId) return noCart();

  return db.$transaction(async (tx) => {
    const refusal = await refuseUnlessOpen(tx, cartId);
    if (refusal) return refusal;
    const line = await tx.cartItem.findUnique({
      where: { cartId_productId: { cartId, productId: request.productId } },
      select: { id: true, product: { select: { stock: true, archivedAt: true } } },
    });
    if (!line) return refuse("line_not_found", "that product is not in the cart");
    const stock = unitsForSale(line.product);
    if (stock <= 0) return refuse("out_of_stock", "the product is sold out; remove it from the cart");
    const quantity = Math.min(request.quantity, stock);
    await tx.cartItem.update({ where: { id: line.id }, data: { quantity } });
    return { ok: true, cartId, quantity, capped: quantity < request.quantity };
  });
}

export async function removeLine(db: Database, input: RemoveLineInput): Promise<CartChange> {
  const parsed = removeSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { cartId, productId } = parsed.data;
  if (!cartId) return noCart();

  return db.$transaction(async (tx) => {
    const refusal = await refuseUnlessOpen(tx, cartId);
    if (refusal) return refusal;
    const removed = await tx.cartItem.deleteMany({ where: { cartId, productId } });
    if (removed.count === 0) return refuse("line_not_found", "that product is not in the cart");
    return { ok: true, cartId, quantity: 0, capped: false };
  });
}

const noCart = () => refuse("no_cart", "there is no open cart");

async function refuseUnlessOpen(tx: Transaction, id: string): Promise<CartChange | undefined> {
  const cart = await lockCart(tx, id);
  if (!cart || cart.status === "CHECKED_OUT") return noCart();
  if (cart.status === "LOCKED") return lockedRefusal();
  return undefined;
}

export const cartCookie = (id: string, appUrl: string) =>
  shopCookie(CART_COOKIE, id, appUrl, CART_COOKIE_MAX_AGE_SECONDS);
