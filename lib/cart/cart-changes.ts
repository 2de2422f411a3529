import "server-only";
import { z } from "zod";
import { MAX_QUANTITY_INPUT, unitsAllowed, type UnitLimits } from "../order-limits";
import type { Database } from "../db/client";
import { refusal, Rollback, rolledBack } from "../refusal";
import { Prisma } from "../generated/prisma/client";
import { ON_SALE, unitsForSale } from "../catalog/on-sale";
import { describeIssues, formOptional, hasNoNul, NO_NUL } from "../text-input";
import { readVariantOptions, sameOptions, VARIANT_LIMITS } from "../catalog/variants";
import {
  CART_REFUSAL_STATUS,
  cartIdSchema,
  MAX_CART_LINES,
  shopUnitLimits,
  type CartChange,
  type CartRefusalCode,
} from "./cart";

/**
 * The shopper's changes to the cart: add a variant, set a line's quantity, remove a line. The
 * browser only says which product, which variant and how many. The limits are endpoint A's, so a
 * cart can always be checked out: MAX_CART_LINES lines, the shop's caps on units per line and per
 * order, never more than the variant's stock. A LOCKED cart refuses every change.
 */

const productId = z.uuid({ error: "must be a product id (a UUID)" });
const variantId = z.uuid({ error: "must be a variant id (a UUID)" });
/** A form's empty field is no variant: the product's one. */
const optionalVariantId = formOptional(variantId);

/** A whole number, given as a number or as the decimal digits a form sends ("2", not "2.0" or " 2"). */
const wholeNumber = z.union([
  z.int({ error: "must be a whole number" }),
  z
    .string()
    .regex(/^-?[0-9]{1,9}$/, { error: "must be a whole number" })
    .transform(Number),
]);

const addSchema = z.object({
  cartId: cartIdSchema.optional(),
  productId,
  variantId: optionalVariantId,
  /** The option picker's choice without JavaScript: a value per option ({ Tamanho: "M", Cor: "Azul" }). */
  options: z
    .record(z.string().max(VARIANT_LIMITS.nameMax), z.string().max(VARIANT_LIMITS.valueMax).refine(hasNoNul, NO_NUL))
    .refine((options) => Object.keys(options).length <= VARIANT_LIMITS.options, {
      error: `names more than ${VARIANT_LIMITS.options} options`,
    })
    .optional(),
  quantity: wholeNumber.pipe(
    z
      .number()
      .min(1, { error: "must be at least 1" })
      .max(MAX_QUANTITY_INPUT, { error: `must be at most ${MAX_QUANTITY_INPUT}` }),
  ),
});

/** 0 removes the line; anything else must be a quantity a line can have. */
const setQuantitySchema = z.object({
  cartId: cartIdSchema.optional(),
  variantId,
  quantity: wholeNumber.pipe(
    z
      .number()
      .min(0, { error: "must not be negative" })
      .max(MAX_QUANTITY_INPUT, { error: `must be at most ${MAX_QUANTITY_INPUT}` }),
  ),
});

const removeSchema = z.object({ cartId: cartIdSchema.optional(), variantId });

export type AddToCartInput = {
  cartId?: unknown;
  productId: unknown;
  variantId?: unknown;
  options?: unknown;
  quantity: unknown;
};
export type SetQuantityInput = { cartId?: unknown; variantId: unknown; quantity: unknown };
export type RemoveLineInput = { cartId?: unknown; variantId: unknown };

const refuse = (code: CartRefusalCode, message: string): CartChange =>
  refusal(CART_REFUSAL_STATUS[code], code, message);

const invalid = (error: z.ZodError): CartChange => refuse("invalid_input", describeIssues(error, "input"));

/**
 * A line's new quantity within the variant's stock and the caps, with what lowered it; `refusal`
 * when the caps leave no room for the line at all (the rest of the cart holds MAX_UNITS_PER_ORDER).
 */
function cappedQuantity(
  wanted: number,
  stock: number,
  otherLinesUnits: number,
  limits: UnitLimits,
): { quantity: number; capped: boolean; cappedBy?: "stock" | "limit" } | { refusal: CartChange } {
  const allowed = unitsAllowed(wanted, otherLinesUnits, limits);
  if (allowed === 0)
    return { refusal: refuse("cart_full", `a cart holds at most ${limits.perOrder} units; remove some to add others`) };
  const quantity = Math.min(wanted, stock, allowed);
  if (quantity === wanted) return { quantity, capped: false };
  return { quantity, capped: true, cappedBy: allowed < stock ? "limit" : "stock" };
}

/** Units in the cart's other lines than `variantId`'s (for MAX_UNITS_PER_ORDER). */
async function otherLinesUnits(tx: Transaction, cartId: string, variantId: string): Promise<number> {
  const { _sum } = await tx.cartLine.aggregate({
    where: { cartId, variantId: { not: variantId } },
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
 * Adds `quantity` units of a variant (`variantId`, or the product's one variant when left out),
 * summing with the line already there, capped by the variant's stock and the shop's caps on
 * units (`limits`, MAX_UNITS_PER_LINE and MAX_UNITS_PER_ORDER unless given). Without an open cart
 * (none, unknown, or checked out) a new OPEN cart is created: the answer's cartId is the one to
 * keep in the cookie.
 */
export async function addToCart(
  db: Database,
  input: AddToCartInput,
  options: {
    /**
     * Ends expired stock holds on these variants (lib/orders/holds.ts) and says how many orders it
     * cancelled. When the variant is sold out, it is called once and the add tried again: units
     * kept by orders nobody paid in time are the shopper's, without waiting for a sweep.
     */
    releaseExpiredHolds?: (variantIds: string[]) => Promise<number>;
    /** The caps on units; the shop's (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER) when left out. */
    limits?: UnitLimits;
  } = {},
): Promise<CartChange> {
  const parsed = addSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const request = parsed.data;
  const limits = options.limits ?? shopUnitLimits();
  const result = await addOnce(db, request, limits);
  // Sold out (a refusal writes nothing, so the same request can simply run again).
  if (!("variantId" in result) || !options.releaseExpiredHolds) return result.change;
  if ((await options.releaseExpiredHolds([result.variantId])) === 0) return result.change;
  return (await addOnce(db, request, limits)).change;
}

/** The variant an add names, on sale: by id, by its options' values, or the product's only one. */
async function variantForAdd(
  tx: Transaction,
  request: z.output<typeof addSchema>,
): Promise<{ id: string; stock: number } | CartChange> {
  const all = await tx.productVariant.findMany({
    where: {
      productId: request.productId,
      archivedAt: null,
      product: ON_SALE,
      ...(request.variantId ? { id: request.variantId } : {}),
    },
    select: { id: true, stock: true, options: true },
  });
  const chosen = request.options && Object.keys(request.options).length > 0 ? request.options : undefined;
  const variants = chosen ? all.filter((variant) => sameOptions(readVariantOptions(variant.options), chosen)) : all;
  if ((request.variantId || chosen) && variants.length === 0) {
    // An archived product (lib/catalog/products-admin.ts) is not sold any more: as unknown as one never sold.
    const product = await tx.product.findUnique({ where: { id: request.productId, ...ON_SALE }, select: { id: true } });
    return product
      ? refuse("unknown_variant", "the product is not sold in that combination")
      : refuse("unknown_product", `no product with id ${request.productId}`);
  }
  if (variants.length === 0) return refuse("unknown_product", `no product with id ${request.productId}`);
  if (variants.length > 1) return refuse("variant_required", "the product is sold in several variants; choose one");
  return { id: variants[0]!.id, stock: variants[0]!.stock };
}

async function addOnce(
  db: Database,
  request: z.output<typeof addSchema>,
  limits: UnitLimits,
): Promise<{ change: CartChange } | { change: CartChange; variantId: string }> {
  return db
    .$transaction(async (tx) => {
      // Checked first so a refused request leaves no empty cart behind. Not locked: checkout locks
      // the cart and then the products, and taking them in the other order here could deadlock.
      // Stock is checked again when the order reserves it.
      const variant = await variantForAdd(tx, request);
      if ("ok" in variant) return { change: variant };
      if (variant.stock <= 0)
        return { change: refuse("out_of_stock", "this variant is sold out"), variantId: variant.id };

      const existing = request.cartId ? await lockCart(tx, request.cartId) : undefined;
      if (existing?.status === "LOCKED") return { change: lockedRefusal() };
      const id =
        existing?.status === "OPEN" && request.cartId
          ? request.cartId
          : (await tx.cart.create({ data: {}, select: { id: true } })).id;

      const line = await tx.cartLine.findUnique({
        where: { cartId_variantId: { cartId: id, variantId: variant.id } },
        select: { quantity: true },
      });
      if (!line && (await tx.cartLine.count({ where: { cartId: id } })) >= MAX_CART_LINES)
        return { change: refuse("too_many_lines", `a cart holds at most ${MAX_CART_LINES} different products`) };

      const wanted = (line?.quantity ?? 0) + request.quantity;
      const others = existing?.status === "OPEN" ? await otherLinesUnits(tx, id, variant.id) : 0;
      const capped = cappedQuantity(wanted, variant.stock, others, limits);
      // Refused before anything is written but the new cart (which a refusal rolls back).
      if ("refusal" in capped) throw new Rollback(capped.refusal);
      const { quantity } = capped;
      await tx.cartLine.upsert({
        where: { cartId_variantId: { cartId: id, variantId: variant.id } },
        create: { cartId: id, variantId: variant.id, quantity },
        update: { quantity },
      });
      await tx.cart.update({ where: { id }, data: { updatedAt: new Date() } });
      const change: CartChange = { ok: true, cartId: id, ...capped };
      return { change };
    })
    .catch((error: unknown) => {
      const refused = rolledBack<CartChange>(error);
      if (refused) return { change: refused };
      throw error;
    });
}

/** Sets a line's quantity (capped by stock and the caps on units, `limits` or the shop's); 0 removes the line. */
export async function setLineQuantity(
  db: Database,
  input: SetQuantityInput,
  limits: UnitLimits = shopUnitLimits(),
): Promise<CartChange> {
  const parsed = setQuantitySchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const request = parsed.data;
  if (request.quantity === 0) return removeLine(db, request);
  const { cartId } = request;
  if (!cartId) return noCart();

  return db.$transaction(async (tx) => {
    const refusal = await refuseUnlessOpen(tx, cartId);
    if (refusal) return refusal;
    const line = await tx.cartLine.findUnique({
      where: { cartId_variantId: { cartId, variantId: request.variantId } },
      select: {
        id: true,
        variant: { select: { stock: true, archivedAt: true, product: { select: { archivedAt: true } } } },
      },
    });
    if (!line) return refuse("line_not_found", "that product is not in the cart");
    const { variant } = line;
    const stock = unitsForSale({ stock: variant.stock, archivedAt: variant.archivedAt ?? variant.product.archivedAt });
    if (stock <= 0) return refuse("out_of_stock", "the product is sold out; remove it from the cart");
    const capped = cappedQuantity(
      request.quantity,
      stock,
      await otherLinesUnits(tx, cartId, request.variantId),
      limits,
    );
    if ("refusal" in capped) return capped.refusal;
    await tx.cartLine.update({ where: { id: line.id }, data: { quantity: capped.quantity } });
    return { ok: true, cartId, ...capped };
  });
}

export async function removeLine(db: Database, input: RemoveLineInput): Promise<CartChange> {
  const parsed = removeSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { cartId, variantId } = parsed.data;
  if (!cartId) return noCart();

  return db.$transaction(async (tx) => {
    const refusal = await refuseUnlessOpen(tx, cartId);
    if (refusal) return refusal;
    const removed = await tx.cartLine.deleteMany({ where: { cartId, variantId } });
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
