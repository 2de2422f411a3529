/**
 * How big an order may be: what any request may name at all (past these constants it is
 * malformed, 400), and the shop's own caps on units (`UnitLimits`, settings within those bounds).
 * A module of its own, without zod, because browser code needs these numbers too (the cart
 * notices, the quantity field) and should not carry a validation library to read a few constants.
 */
export const MAX_ORDER_LINES = 50;
/** The largest quantity a request may name for one line; MAX_UNITS_PER_LINE is at most this. */
export const MAX_QUANTITY_INPUT = 9999;

/**
 * The shop's caps on units (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER, read by lib/env.ts), for a
 * cart as for an order: they keep one client from holding most of the stock.
 */
export interface UnitLimits {
  /** Units of one variant in one line. */
  perLine: number;
  /** Units across all the lines. */
  perOrder: number;
}

/**
 * The most units of one variant a cart may hold after the change that sets its line to `wanted`:
 * within the per-line cap, and within what the per-order cap leaves once `otherLines` (the other
 * lines' units) are counted. Never below 0.
 */
export function unitsAllowed(wanted: number, otherLines: number, limits: UnitLimits): number {
  return Math.max(0, Math.min(wanted, limits.perLine, limits.perOrder - otherLines));
}
