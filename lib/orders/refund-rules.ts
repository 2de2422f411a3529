import { z } from "zod";
import type { FlashKeys } from "../flash";
import { luandaLocalToIso } from "../luanda-time";
import { MAX_ORDER_LINES, MAX_QUANTITY_INPUT } from "../order-limits";
import { formIntegerBetween, formOptional, hasNoNul, NO_NUL } from "../text-input";

/**
 * What a refund is made of and what may be asked of one, pure so that the back office's form may
 * load it: the methods money goes back by, the limits, the input as a JSON client or the order
 * page's form sends it, the outcome's vocabulary, and the value of returned units, by default
 * what a return gives back. lib/orders/refunds-admin.ts records it.
 */

/** How the money went back: the service has no refund call, so always outside it. */
export const REFUND_METHODS = ["bank_transfer", "multicaixa_express", "cash", "other"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

export const REFUND_LIMITS = {
  /** Whole kwanza; the order's own amount is the real cap. */
  amountMax: 100_000_000,
  referenceMax: 200,
  noteMax: 2000,
  /** Entries of `returns`: each line of an order twice at most (restocked and damaged). */
  returnsMax: MAX_ORDER_LINES * 2,
  quantityMax: MAX_QUANTITY_INPUT,
  /** A refund may be dated this far ahead of the server's clock (a phone's clock a little fast), no further. */
  futureSkewMs: 5 * 60_000,
} as const;

export const REFUND_FIELDS = [
  "amountAoa",
  "method",
  "reference",
  "note",
  "refundedAt",
  "includeDeliveryFee",
  "returns",
] as const;
export type RefundField = (typeof REFUND_FIELDS)[number];

/** Why a refund was not recorded; the page that records one has a sentence for each. */
export const REFUND_ERRORS = [
  "invalid_input",
  "order_not_paid",
  "nothing_to_return",
  "exceeds_paid",
  "exceeds_bought",
  "busy",
] as const;
export type RefundError = (typeof REFUND_ERRORS)[number];
export const REFUND_DONE = ["refunded"] as const;
export type RefundDone = (typeof REFUND_DONE)[number];

/**
 * The query parameters the order page's refund form reads its outcome from, apart from the page's
 * other buttons (`?done=`, `?error=`), and its section.
 */
export const REFUND_FLASH: FlashKeys = { done: "refund", error: "refundError", field: "refundField", hash: "#refund" };

/** A form's checkbox ("on") or JSON's boolean; absent is off. */
const checkbox = z.preprocess(
  (value) => {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last === undefined || last === null || last === "") return false;
    if (last === "on" || last === "true" || last === "1") return true;
    if (last === "false" || last === "0" || last === "off") return false;
    return last;
  },
  z.boolean({ error: "must be true or false" }),
);

/** An optional text, trimmed; empty is absent. */
const optionalText = (max: number) =>
  formOptional(
    z
      .string({ error: "must be a text" })
      .trim()
      .max(max, { error: `must have at most ${max} characters` })
      .refine(hasNoNul, NO_NUL)
      .transform((text) => text || undefined),
  );

/** `2026-12-24T15:30` as a form's datetime-local sends it (Luanda's time), or an instant with its offset. */
const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;
const instant = z
  .string({ error: "must be a date and time" })
  .trim()
  .transform((text, context) => {
    const iso = LOCAL_TIME.test(text) ? luandaLocalToIso(text.length === 16 ? `${text}:00` : text) : text;
    const valid = z.iso.datetime({ offset: true }).safeParse(iso).success;
    const at = new Date(iso);
    if (!valid || Number.isNaN(at.getTime())) {
      context.addIssue({ code: "custom", message: "must be a date and time, e.g. 2026-12-24T15:30 (Luanda)" });
      return z.NEVER;
    }
    return at;
  });

const returnEntry = z.object({
  variantId: z.uuid({ error: "must be the id of a variant the order sold" }).transform((id) => id.toLowerCase()),
  quantity: formIntegerBetween(1, REFUND_LIMITS.quantityMax),
  restock: checkbox,
});
export type ReturnEntry = z.infer<typeof returnEntry>;

export const refundInputSchema = z.object({
  /** Absent: the returned units' value (and the delivery fee, when asked), or else all that remains refundable. */
  amountAoa: formOptional(formIntegerBetween(1, REFUND_LIMITS.amountMax, " AOA")),
  method: z.enum(REFUND_METHODS, { error: `must be one of ${REFUND_METHODS.join(", ")}` }),
  reference: optionalText(REFUND_LIMITS.referenceMax),
  note: optionalText(REFUND_LIMITS.noteMax),
  /** Absent: now. */
  refundedAt: formOptional(instant),
  /** Give back the delivery fee too (what of it earlier refunds have not). */
  includeDeliveryFee: checkbox,
  returns: z
    .array(returnEntry, { error: "must be a list of { variantId, quantity, restock }" })
    .max(REFUND_LIMITS.returnsMax, { error: `must have at most ${REFUND_LIMITS.returnsMax} entries` })
    .default([]),
});
export type RefundInput = z.infer<typeof refundInputSchema>;

/** The order page's form names a line's returned units `returns.<variantId>.restock` and `returns.<variantId>.damaged`. */
const FORM_RETURN = /^returns\.([0-9a-fA-F-]{36})\.(restock|damaged)$/;

/**
 * A request's fields as {@link refundInputSchema} reads them: a JSON client's `returns` list as it
 * is, or the form's two quantities per line (restocked, damaged; empty or 0 for none) as entries.
 */
export function refundFields(fields: Record<string, unknown>): Record<string, unknown> {
  if (fields.returns !== undefined) return fields;
  const returns: { variantId: string; quantity: unknown; restock: boolean }[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const match = FORM_RETURN.exec(name);
    if (!match) continue;
    const quantity = Array.isArray(value) ? value.at(-1) : value;
    if (quantity === "" || quantity === "0" || quantity === undefined) continue;
    returns.push({ variantId: match[1]!, quantity, restock: match[2] === "restock" });
  }
  return { ...fields, returns };
}

/**
 * What an order paid, or 0 when it never was (a CON order, or one paid after it was cancelled):
 * what its refunds may add up to, here and in the SQL of ./refunds-admin.ts, and what the
 * shopper's record of refunds nets them against.
 */
export const paidOf = (order: { status: string; amountAoa: number; paidAfterCancel: boolean }) =>
  order.status === "CON" || order.paidAfterCancel ? order.amountAoa : 0;

/** What a line of an order is worth, for the value of its returned units. */
export interface LineValue {
  unitPriceAoa: number;
  /** Units bought. */
  quantity: number;
  /** The line's share of the order's discount. */
  discountAoa: number;
}

/**
 * What `units` more returned units of `line` are worth, when `returnedBefore` came back already:
 * their price less their share of the line's discount. The first n units of a line carry
 * ⌊discount × n / quantity⌋ of it, so the shares of several partial returns add up to the line's
 * whole discount, never a kwanza more or less, and returning every unit gives back exactly what
 * the line cost.
 */
export function returnedValue(line: LineValue, returnedBefore: number, units: number): number {
  const discountOf = (n: number) => Math.floor((line.discountAoa * n) / line.quantity);
  return line.unitPriceAoa * units - (discountOf(returnedBefore + units) - discountOf(returnedBefore));
}
