import "server-only";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { EXTERNAL_TRANSACTION_ID } from "./order-number";
import { paidOf, type RefundMethod } from "./refund-rules";

/**
 * A paid order's refunds as the back office reads them: what was paid, what went back and what
 * remains, each line's returned units, each refund with its lines and each correcting entry
 * (./refunds-admin.ts and ./refund-corrections-admin.ts record them). Amounts are signed: a
 * correction's is negative, so every sum here is net of corrections.
 */

export interface RefundLineView {
  orderLineId: string;
  variantId: string;
  productName: string;
  variantTitle: string;
  quantity: number;
  /** Back to stock (true) or damaged (false). */
  restock: boolean;
}

export interface RefundView {
  id: string;
  number: number;
  externalTransactionId: string;
  /** Negative for a correction: what the refund it corrects did not give back after all. */
  amountAoa: number;
  /** Of the amount, what gives back the delivery fee (≤ 0 for a correction). */
  deliveryFeeAoa: number;
  /** A correcting entry's refund, by number; null for a refund. */
  correctsNumber: number | null;
  method: RefundMethod;
  reference: string | null;
  note: string | null;
  refundedAt: Date;
  staffName: string;
  createdAt: Date;
  lines: RefundLineView[];
}

/** An order line with what its earlier refunds took back. */
export interface LineState {
  id: string;
  productId: string;
  variantId: string | null;
  productName: string;
  variantTitle: string;
  unitPriceAoa: number;
  quantity: number;
  discountAoa: number;
  returned: number;
}

/** The order's lines, each with the units its earlier refunds took back. */
export const linesOf = (tx: SqlRunner, orderId: string) =>
  tx.$queryRaw<LineState[]>(Prisma.sql`
SELECT ol.id::text, ol.product_id::text AS "productId", ol.variant_id::text AS "variantId",
       ol.product_name AS "productName", ol.variant_title AS "variantTitle",
       ol.unit_price_aoa AS "unitPriceAoa", ol.quantity, ol.discount_aoa AS "discountAoa",
       COALESCE((SELECT sum(rl.quantity) FROM refund_lines rl WHERE rl.order_line_id = ol.id), 0)::int AS returned
FROM order_lines ol WHERE ol.order_id = ${orderId}::uuid
ORDER BY ol.id`);

export interface OrderRefunds {
  /** What the order paid (0 when it never was). */
  paidAoa: number;
  /** Net of corrections. */
  refundedAoa: number;
  /** What may still be refunded. */
  remainingAoa: number;
  /** Whether the order is CON: units may come back with a refund (a cancelled order's went back when it was cancelled). */
  returnsAllowed: boolean;
  /** The order's delivery fee, and what of it the refunds gave back (net of corrections). */
  deliveryFeeAoa: number;
  deliveryFeeRefundedAoa: number;
  /** Each line: bought, returned so far, and what may still be returned. */
  lines: (Omit<LineState, "productId"> & { returnable: number })[];
  /** Oldest first. */
  refunds: RefundView[];
}

/** An order's refunds and returns with what remains, for its page and the refund note; null for an unknown order. */
export async function orderRefunds(db: Database, externalTransactionId: string): Promise<OrderRefunds | null> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  const order = await db.order.findUnique({
    where: { externalTransactionId },
    select: { id: true, status: true, amountAoa: true, deliveryFeeAoa: true, paidAfterCancelAt: true },
  });
  if (!order) return null;
  const [lines, refunds] = await Promise.all([linesOf(db, order.id), refundsOf(db, order.id, externalTransactionId)]);
  const paidAoa = paidOf({ ...order, paidAfterCancel: order.paidAfterCancelAt !== null });
  const refundedAoa = refunds.reduce((sum, refund) => sum + refund.amountAoa, 0);
  return {
    paidAoa,
    refundedAoa,
    remainingAoa: paidAoa - refundedAoa,
    returnsAllowed: order.status === "CON",
    deliveryFeeAoa: order.deliveryFeeAoa,
    deliveryFeeRefundedAoa: refunds.reduce((sum, refund) => sum + refund.deliveryFeeAoa, 0),
    lines: lines.map(({ productId: _, ...line }) => ({ ...line, returnable: line.quantity - line.returned })),
    refunds,
  };
}

/** The refunds and corrections of the order `orderId`, by number (so each correction after what it corrects). */
export async function refundsOf(db: Database, orderId: string, externalTransactionId: string): Promise<RefundView[]> {
  const rows = await db.refund.findMany({
    where: { orderId },
    orderBy: { number: "asc" },
    include: {
      corrects: { select: { number: true } },
      lines: { include: { orderLine: { select: { productName: true, variantTitle: true } } } },
    },
  });
  return rows.map((refund) => ({
    id: refund.id,
    number: refund.number,
    externalTransactionId,
    amountAoa: refund.amountAoa,
    deliveryFeeAoa: refund.deliveryFeeAoa,
    correctsNumber: refund.corrects?.number ?? null,
    method: refund.method as RefundMethod,
    reference: refund.reference,
    note: refund.note,
    refundedAt: refund.refundedAt,
    staffName: refund.staffName,
    createdAt: refund.createdAt,
    lines: refund.lines
      .map((line) => ({
        orderLineId: line.orderLineId,
        variantId: line.variantId,
        productName: line.orderLine.productName,
        variantTitle: line.orderLine.variantTitle,
        quantity: line.quantity,
        restock: line.restock,
      }))
      // Restocked before damaged, then by product: the same order wherever a return is shown.
      .sort(
        (a, b) =>
          Number(b.restock) - Number(a.restock) ||
          a.productName.localeCompare(b.productName) ||
          a.variantTitle.localeCompare(b.variantTitle),
      ),
  }));
}
