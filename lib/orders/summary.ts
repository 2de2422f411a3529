import "server-only";
import type { Database } from "../db/client";
import { referencePayBy } from "./reference-holds";
import { referenceValidUntil } from "./reference-slip";
import type { OrderStatus } from "./state-machine";

/**
 * What the result and order pages show on their first paint, read from our database: the
 * status the webhook (or the status fallback) set, never what the browser was told.
 */

export interface OrderSummaryLine {
  productName: string;
  /** "M, Azul"; "" for a product without options. */
  variantTitle: string;
  unitPriceAoa: number;
  quantity: number;
  lineTotalAoa: number;
}

export interface OrderSummary {
  externalTransactionId: string;
  status: OrderStatus;
  amountAoa: number;
  paymentReference?: string;
  entityNumber?: string;
  /** Endpoint C's `payBy` (lib/orders/reference-holds.ts referencePayBy), ISO. */
  payBy?: string;
  /** A pending order's: until when a bank reference issued for it can be paid, ISO (lib/orders/reference-slip.ts). */
  referenceValidUntil?: string;
  /** The cart the order was made from, if any. */
  cartId: string | null;
  /**
   * A paid order whose cart the clear-cart job has emptied (or that had none): from now on the
   * header's cart count no longer counts what was bought. False for any order not CON.
   */
  cartCleared: boolean;
  /**
   * A cancelled order whose payment arrived after the cancellation: the money was taken, so the
   * page must not say nothing was charged; the owner refunds it or fulfils it.
   */
  paidAfterCancel: boolean;
  lines: OrderSummaryLine[];
}

export async function getOrderSummary(db: Database, externalTransactionId: string): Promise<OrderSummary | null> {
  const order = await db.order.findUnique({
    where: { externalTransactionId },
    select: {
      externalTransactionId: true,
      status: true,
      amountAoa: true,
      paymentReference: true,
      entityNumber: true,
      createdAt: true,
      holdExpiresAt: true,
      cartId: true,
      paidAfterCancelAt: true,
      cart: { select: { status: true } },
      lines: {
        orderBy: [{ productName: "asc" }, { variantTitle: "asc" }, { id: "asc" }],
        select: { productName: true, variantTitle: true, unitPriceAoa: true, quantity: true },
      },
    },
  });
  if (!order) return null;
  const payBy = referencePayBy(order);
  return {
    externalTransactionId: order.externalTransactionId,
    status: order.status,
    amountAoa: order.amountAoa,
    ...(order.paymentReference ? { paymentReference: order.paymentReference } : {}),
    ...(order.entityNumber ? { entityNumber: order.entityNumber } : {}),
    ...(payBy ? { payBy: payBy.toISOString() } : {}),
    ...(order.status === "PEN" ? { referenceValidUntil: referenceValidUntil(order.createdAt) } : {}),
    cartId: order.cartId,
    // The job leaves the cart CHECKED_OUT; until then the paid order keeps it LOCKED.
    cartCleared: order.status === "CON" && order.cart?.status !== "LOCKED",
    paidAfterCancel: order.status === "CAN" && order.paidAfterCancelAt !== null,
    lines: order.lines.map((line) => ({ ...line, lineTotalAoa: line.unitPriceAoa * line.quantity })),
  };
}
