import "server-only";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { EXTERNAL_TRANSACTION_ID } from "./order-number";
import { paidOf, type RefundMethod } from "./refund-rules";

/**
 * A paid order's refunds as the back office reads them: what was paid, what went back and what
 * remains, each line's returned units, each refund with its lines (./refunds-admin.ts records them).
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
  amountAoa: number;
  /** Of the amount, what gives back the delivery fee. */
  deliveryFeeAoa: number;
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

export { paidOf };

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
  refundedAoa: number;
  /** What may still be refunded. */
  remainingAoa: number;
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
    select: {
      id: true,
      status: true,
      amountAoa: true,
      paidAfterCancelAt: true,
      refunds: {
        orderBy: { number: "asc" },
        include: { lines: { include: { orderLine: { select: { productName: true, variantTitle: true } } } } },
      },
    },
  });
  if (!order) return null;
  const lines = await linesOf(db, order.id);
  const paidAoa = paidOf({ ...order, paidAfterCancel: order.paidAfterCancelAt !== null });
  const refundedAoa = order.refunds.reduce((sum, refund) => sum + refund.amountAoa, 0);
  return {
    paidAoa,
    refundedAoa,
    remainingAoa: paidAoa - refundedAoa,
    lines: lines.map(({ productId: _, ...line }) => ({ ...line, returnable: line.quantity - line.returned })),
    refunds: order.refunds.map((refund) => ({
      id: refund.id,
      number: refund.number,
      externalTransactionId,
      amountAoa: refund.amountAoa,
      deliveryFeeAoa: refund.deliveryFeeAoa,
      method: refund.method as RefundMethod,
      reference: refund.reference,
      note: refund.note,
      refundedAt: refund.refundedAt,
      staffName: refund.staffName,
      createdAt: refund.createdAt,
      lines: refund.lines.map((line) => ({
        orderLineId: line.orderLineId,
        variantId: line.variantId,
        productName: line.orderLine.productName,
        variantTitle: line.orderLine.variantTitle,
        quantity: line.quantity,
        restock: line.restock,
      })),
    })),
  };
}
