import "server-only";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { JOB_TYPES } from "../jobs/job-types";
import { EXTERNAL_TRANSACTION_ID, shortOrderId } from "./order-number";
import { paidOf, type RefundMethod } from "./refund-rules";

/**
 * What the shopper has of an order's refunds (./refunds-admin.ts records them): the order page's
 * list with the net paid, each refund's printable note (/orders/<id>/refunds/<number>), and the
 * mail that tells them, enqueued in the refund's own transaction. Whoever has the order's
 * unguessable id sees them, as they see the order and its receipt. Never shown: who recorded a
 * refund, its internal note, and whether returned units went back to stock or were damaged.
 */

/** The units of one order line a refund took back, restocked and damaged together. */
export interface ReturnedUnits {
  productName: string;
  /** "M, Azul"; "" for a product without options. */
  variantTitle: string;
  quantity: number;
}

/** One entry of the record: a refund, or a correcting entry (a negative amount, naming the note it corrects). */
export interface ShopperRefund {
  /** The note's number, from the shop's gapless refund counter. */
  number: number;
  /** Signed: a correcting entry's is negative. */
  amountAoa: number;
  method: RefundMethod;
  reference: string | null;
  /** When the money went back. */
  refundedAt: Date;
  /** The note a correcting entry corrects; null for a refund. */
  correctsNumber: number | null;
  units: ReturnedUnits[];
}

export interface ShopperRefunds {
  /** What the order paid (0 when it never was). */
  paidAoa: number;
  /** The entries' signed sum. */
  refundedAoa: number;
  /** Paid less what went back. */
  netPaidAoa: number;
  /** Oldest first. */
  refunds: ShopperRefund[];
}

/** One refund's printable note: the entry, and the order it belongs to as the receipt names it. */
export interface RefundNote extends ShopperRefund {
  externalTransactionId: string;
  /** "7CDAC2DD", as the shopper's pages name the order. */
  orderNumber: string;
  /** The order's receipt (its invoice's number); null for an order never invoiced (paid after it was cancelled). */
  invoiceNumber: number | null;
  customerName: string | null;
  orderedAt: Date;
  /** When the payment was confirmed; null when the shop never learnt it (not a paid order). */
  paidAt: Date | null;
  /** When the shop recorded the refund (the note's issue date). */
  recordedAt: Date;
  paidAoa: number;
  /** The signed sum of this note and every earlier one of the order. */
  refundedToDateAoa: number;
}

/** A refund number as the note prints it: six digits at least, `000042`, as the receipt's. */
export const refundNoteNumber = (number: number): string => String(number).padStart(6, "0");

/** The note's page, beside the order's. */
export const refundNotePath = (externalTransactionId: string, number: number) =>
  `/orders/${encodeURIComponent(externalTransactionId)}/refunds/${number}`;

/** The order's refund entries, oldest first, each with its returned units by line. */
const entriesOf = (db: SqlRunner, orderId: string) =>
  db.$queryRaw<(ShopperRefund & { createdAt: Date })[]>(Prisma.sql`
SELECT r.number, r.amount_aoa AS "amountAoa", r.method, r.reference, r.refunded_at AS "refundedAt",
       r.created_at AS "createdAt", corrected.number AS "correctsNumber",
       COALESCE((SELECT json_agg(json_build_object('productName', ol.product_name, 'variantTitle', ol.variant_title,
                                                   'quantity', back.quantity) ORDER BY ol.product_name, ol.id)
                 FROM (SELECT order_line_id, sum(quantity)::int AS quantity FROM refund_lines
                       WHERE refund_id = r.id GROUP BY order_line_id) back
                 JOIN order_lines ol ON ol.id = back.order_line_id), '[]') AS units
FROM refunds r
-- A correcting entry names the refund it corrects.
LEFT JOIN refunds corrected ON corrected.id = r.corrects_refund_id
WHERE r.order_id = ${orderId}::uuid
ORDER BY r.number`);

const findOrder = (db: Database, externalTransactionId: string) =>
  db.order.findUnique({
    where: { externalTransactionId },
    select: {
      id: true,
      status: true,
      amountAoa: true,
      createdAt: true,
      finalizedAt: true,
      paidAfterCancelAt: true,
      customerName: true,
      invoice: { select: { number: true } },
    },
  });

const paidAoaOf = (order: NonNullable<Awaited<ReturnType<typeof findOrder>>>) =>
  paidOf({ ...order, paidAfterCancel: order.paidAfterCancelAt !== null });

/** The order page's record of refunds; null for an unknown order or one without any. */
export async function shopperRefunds(db: Database, externalTransactionId: string): Promise<ShopperRefunds | null> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  const order = await findOrder(db, externalTransactionId);
  if (!order) return null;
  const entries = await entriesOf(db, order.id);
  if (entries.length === 0) return null;
  const paidAoa = paidAoaOf(order);
  const refundedAoa = entries.reduce((sum, entry) => sum + entry.amountAoa, 0);
  return {
    paidAoa,
    refundedAoa,
    netPaidAoa: paidAoa - refundedAoa,
    refunds: entries.map(({ createdAt: _, ...entry }) => entry),
  };
}

/**
 * The note of refund `number` of the order `externalTransactionId`; null when either is unknown
 * or the refund is another order's (whoever has one order's id learns nothing of another's).
 */
export async function refundNote(
  db: Database,
  externalTransactionId: string,
  number: number,
): Promise<RefundNote | null> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId) || !Number.isSafeInteger(number) || number < 1) return null;
  const order = await findOrder(db, externalTransactionId);
  if (!order) return null;
  const entries = await entriesOf(db, order.id);
  const entry = entries.find((candidate) => candidate.number === number);
  if (!entry) return null;
  const { createdAt, ...refund } = entry;
  return {
    ...refund,
    externalTransactionId,
    orderNumber: shortOrderId(externalTransactionId),
    invoiceNumber: order.invoice?.number ?? null,
    customerName: order.customerName,
    orderedAt: order.createdAt,
    paidAt: order.paidAfterCancelAt ?? (order.status === "CON" ? order.finalizedAt : null),
    recordedAt: createdAt,
    paidAoa: paidAoaOf(order),
    refundedToDateAoa: entries
      .filter((candidate) => candidate.number <= number)
      .reduce((sum, candidate) => sum + candidate.amountAoa, 0),
  };
}

/**
 * Enqueues the mail that tells the shopper of the refund (or correcting entry) `refundId`, in the
 * caller's transaction, so that it exists exactly when the refund does: one job per refund, keyed
 * `refund-mail:<number>:<externalTransactionId>` (lib/jobs/job-types.ts), and none for an order
 * without an email. The job's id, or null when none was enqueued.
 */
export async function enqueueRefundMail(tx: SqlRunner, refundId: string): Promise<string | null> {
  const [job] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
INSERT INTO jobs (type, dedupe_key, payload, order_id)
SELECT ${JOB_TYPES.refundMail}, ${`${JOB_TYPES.refundMail}:`} || r.number || ':' || o.external_transaction_id,
       jsonb_build_object('orderId', o.id, 'externalTransactionId', o.external_transaction_id, 'refundNumber', r.number),
       o.id
FROM refunds r JOIN orders o ON o.id = r.order_id
WHERE r.id = ${refundId}::uuid AND o.customer_email IS NOT NULL
ON CONFLICT (dedupe_key) DO NOTHING
RETURNING id::text`);
  return job?.id ?? null;
}
