import type { PromoRefusalCode } from "../promotions/promo-codes";
import { refusal, Rollback, type Refusal, type RefusalStatus } from "../refusal";

/**
 * Why endpoint A refuses a checkout: its codes, and the refusal thrown out of the order's
 * transaction (which may have locked the cart or taken units by then) as a Rollback.
 */

export type CheckoutRefusalCode =
  | "cart_empty"
  | "cart_checked_out"
  | "cart_locked"
  | "too_many_open_orders"
  | "too_many_open_orders_from_address"
  | "too_many_reference_holds_from_address"
  | "too_many_reference_holds_for_phone"
  | "unknown_product"
  | "unknown_variant"
  | "variant_required"
  | "duplicate_variant"
  | "too_many_units"
  | "delivery_required"
  | "unknown_pickup_point"
  | "unknown_delivery_zone"
  | "delivery_zone_mismatch"
  | "municipality_not_served"
  | "out_of_stock"
  | "amount_too_large"
  | "amount_not_payable"
  | PromoRefusalCode;

export type CheckoutRefusal = Refusal<CheckoutRefusalCode> & {
  /** With 429: when the shopper may try again. */
  retryAfterSeconds?: number;
  /** With out_of_stock: the order's variants, whose expired holds may be ended before one more try. */
  variantIds?: string[];
};

/** A refusal found inside the order's transaction, to throw: it rolls back what was written. */
export const refused = (
  status: RefusalStatus,
  code: CheckoutRefusalCode,
  message: string,
  details: Pick<CheckoutRefusal, "retryAfterSeconds" | "variantIds"> = {},
) => new Rollback<CheckoutRefusal>({ ...refusal(status, code, message), ...details });
