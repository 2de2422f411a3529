import "server-only";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import { enqueueRefundMail } from "./refund-note";
import { refusal, type Refusal } from "../refusal";
import { invalidInput } from "../text-input";
import { EXTERNAL_TRANSACTION_ID } from "./order-number";
import {
  CORRECTION_FIELDS,
  correctionInputSchema,
  type CorrectionDone,
  type CorrectionError,
  type CorrectionField,
  type CorrectionInput,
} from "./refund-correction-rules";
import type { RefundMethod } from "./refund-rules";
import type { RefundView } from "./refund-views-admin";
import { isBusy, lockOrder } from "./refunds-admin";

/**
 * Correcting entries: a refund is never edited, so when part or all of it was not given back
 * after all (a wrong amount typed, a transfer that bounced), the owner records a correction, a row
 * of `refunds` of its own that names the refund, with a negative amount, a note saying why, and
 * its own number from the same gapless counter. Every sum of an order's refunds is then net of
 * its corrections, and what remains refundable grows again by the corrected amount. What this
 * module guarantees, whoever records at the same time:
 *
 * - a refund's corrections never take back more than it gave;
 * - a correction is of a refund, never of another correction;
 * - numbers stay consecutive across refunds and corrections, with no gaps;
 * - the correction and its `order.refund_correction` event are one transaction.
 *
 * A correction takes back money, never units: the units of a return stay where it put them (the
 * database refuses a correction's lines). A stock mistake is fixed on the product's page.
 */

export type CorrectionRefusal = Refusal<CorrectionError | "not_found", CorrectionField>;
export type CorrectionResult =
  | {
      ok: true;
      done: CorrectionDone;
      correction: RefundView;
      /** The shopper's mail about it (lib/orders/refund-note.ts), when the order has an email. */
      mailJobId?: string;
    }
  | CorrectionRefusal;

const notFound: CorrectionRefusal = refusal(404, "not_found", "no such order");
const noSuchRefund = (number: number): CorrectionRefusal =>
  refusal(404, "no_such_refund", `the order has no refund number ${number}`);

/** The refund to correct, with what its earlier corrections took back (both ≤ 0). */
interface Target {
  id: string;
  method: string;
  amountAoa: number;
  deliveryFeeAoa: number;
  isCorrection: boolean;
  correctedAoa: number;
  correctedFeeAoa: number;
}

/**
 * Records a correction of the refund numbered `refundNumber` of the order `externalTransactionId`
 * by `actor`: `fields` is `{ amountAoa?, note }` (lib/orders/refund-correction-rules.ts), a JSON
 * client's body or the order page's form.
 *
 * Refused, with nothing written: an unknown order (404 `not_found`); a number that is not one of
 * the order's refunds (404 `no_such_refund`); a bad field (400, naming it); a correction of a
 * correction (409 `not_a_refund`); more than the refund gave less its earlier corrections (409
 * `exceeds_refund`, saying what may still be corrected).
 */
export async function recordCorrection(
  db: Database,
  externalTransactionId: string,
  refundNumber: number,
  fields: unknown,
  actor: Pick<Actor, "id" | "name">,
): Promise<CorrectionResult> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return notFound;
  if (!Number.isSafeInteger(refundNumber) || refundNumber < 1) return noSuchRefund(refundNumber);
  const parsed = correctionInputSchema.safeParse(fields);
  if (!parsed.success) return invalidInput(parsed.error, CORRECTION_FIELDS);
  try {
    // READ COMMITTED, for the reason recordRefund gives: the cap below is read by the statement
    // that inserts, which starts after the order's row lock was granted.
    return await db.$transaction(
      (tx) => correctLocked(tx, externalTransactionId, refundNumber, parsed.data, actor, new Date()),
      { isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted },
    );
  } catch (error) {
    if (isBusy(error))
      return refusal(503, "busy", "the order was held by another change for too long; nothing was recorded: try again");
    throw error;
  }
}

async function correctLocked(
  tx: Prisma.TransactionClient,
  externalTransactionId: string,
  refundNumber: number,
  input: CorrectionInput,
  actor: Pick<Actor, "id" | "name">,
  now: Date,
): Promise<CorrectionResult> {
  // The lock every refund of the order takes too (./refunds-admin.ts): nothing before it reads.
  const order = await lockOrder(tx, externalTransactionId);
  if (!order) return notFound;
  const [target] = await tx.$queryRaw<Target[]>(Prisma.sql`
SELECT r.id::text, r.method, r.amount_aoa AS "amountAoa", r.delivery_fee_aoa AS "deliveryFeeAoa",
       r.corrects_refund_id IS NOT NULL AS "isCorrection", c.amount::int AS "correctedAoa", c.fee::int AS "correctedFeeAoa"
FROM refunds r,
LATERAL (SELECT COALESCE(sum(amount_aoa), 0) AS amount, COALESCE(sum(delivery_fee_aoa), 0) AS fee
         FROM refunds WHERE order_id = r.order_id AND corrects_refund_id = r.id) c
WHERE r.order_id = ${order.id}::uuid AND r.number = ${refundNumber}`);
  if (!target) return noSuchRefund(refundNumber);
  if (target.isCorrection)
    return refusal(
      409,
      "not_a_refund",
      `number ${refundNumber} is itself a correction: correct the refund it corrects, or record a new refund`,
    );

  const left = target.amountAoa + target.correctedAoa;
  const amountAoa = input.amountAoa ?? left;
  const exceedsRefund = refusal(
    409,
    "exceeds_refund",
    left > 0
      ? `${amountAoa} AOA would take back more than refund ${refundNumber} gave (${target.amountAoa} AOA): ${left} AOA of it may still be corrected`
      : `refund ${refundNumber} has been corrected in full: nothing of it remains to correct`,
    "amountAoa",
  );
  if (amountAoa <= 0) return exceedsRefund;
  // The goods' part of the refund is taken back first, its delivery fee last: a fee given back
  // stays counted as given until a correction reaches it, so a later refund never offers it twice.
  const feeLeft = target.deliveryFeeAoa + target.correctedFeeAoa;
  const feeAoa = Math.max(0, amountAoa - (left - feeLeft));
  // As stored: negative, and 0 (not -0) when the fee is untouched.
  const [amountStored, feeStored] = [-amountAoa, feeAoa === 0 ? 0 : -feeAoa];

  // THE CAP, in the statement that inserts the correction, as a refund's is: it inserts nothing
  // when the refund's corrections with this one would take back more than it gave, or when the
  // row is a correction. It reads what committed when it started, after the order's row lock was
  // granted, so every earlier correction of the order is counted and every later one waits. The
  // number comes from refund_counter in the same statement, as a refund's does: no gaps.
  const [correction] = await tx.$queryRaw<{ id: string; number: number; createdAt: Date }[]>(Prisma.sql`
WITH next AS (SELECT last_number + 1 AS number FROM refund_counter WHERE id = 1 FOR UPDATE),
target AS (
  SELECT r.id, r.order_id, r.method, r.amount_aoa + c.amount AS amount_left, r.delivery_fee_aoa + c.fee AS fee_left
  FROM refunds r,
  LATERAL (SELECT COALESCE(sum(amount_aoa), 0) AS amount, COALESCE(sum(delivery_fee_aoa), 0) AS fee
           FROM refunds WHERE order_id = r.order_id AND corrects_refund_id = r.id) c
  WHERE r.id = ${target.id}::uuid AND r.corrects_refund_id IS NULL
),
inserted AS (
  INSERT INTO refunds (number, order_id, amount_aoa, delivery_fee_aoa, method, note, refunded_at, staff_id, staff_name,
                       corrects_refund_id)
  SELECT next.number, target.order_id, ${amountStored}::int, ${feeStored}::int, target.method, ${input.note}, ${now},
         ${actor.id}, ${actor.name}, target.id
  FROM next, target
  WHERE target.amount_left - ${amountAoa}::int >= 0 AND target.fee_left - ${feeAoa}::int >= 0
  RETURNING id::text, number, created_at AS "createdAt"
), counted AS (
  UPDATE refund_counter SET last_number = inserted.number FROM inserted WHERE refund_counter.id = 1
)
SELECT * FROM inserted`);
  if (!correction) return exceedsRefund;

  const view: RefundView = {
    id: correction.id,
    number: correction.number,
    externalTransactionId,
    amountAoa: amountStored,
    deliveryFeeAoa: feeStored,
    correctsNumber: refundNumber,
    method: target.method as RefundMethod,
    reference: null,
    note: input.note,
    refundedAt: now,
    staffName: actor.name,
    createdAt: correction.createdAt,
    lines: [],
  };
  await recordStaffEvent(tx, actor, {
    kind: "order.refund_correction",
    subject: `order:${externalTransactionId}`,
    details: {
      number: view.number,
      correctsNumber: refundNumber,
      amountAoa: view.amountAoa,
      deliveryFeeAoa: view.deliveryFeeAoa,
      note: input.note,
    },
  });
  // The shopper is told as of a refund: what they were told went back was not all of it.
  const mailJobId = await enqueueRefundMail(tx, correction.id);
  return { ok: true, done: "corrected", correction: view, ...(mailJobId ? { mailJobId } : {}) };
}
