import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { refundMail } from "../mail/refund-mail";
import type { Mailer } from "../mail/types";
import { refundNote, refundNotePath } from "../orders/refund-note";
import { PermanentJobError, type ClaimedJob } from "./queue";

/**
 * The `refund-mail` job (enqueued with its refund by lib/orders/refund-note.ts): tell the shopper
 * what went back, once. A refund is never deleted nor edited, so the job only checks that the
 * order still has an email and that no earlier run sent the mail (an `emails` row with the job's
 * key: a run that crashed, or timed out, after sending). Whatever the order's status: a refund
 * exists only for an order that was paid, cancelled or not.
 */

const payload = z.object({
  orderId: z.uuid(),
  externalTransactionId: z.string().min(1),
  refundNumber: z.number().int().positive(),
});

export async function sendRefundMail(
  job: ClaimedJob,
  { db, mail }: { db: Database; mail(): { mailer: Mailer } },
): Promise<void | { skipped: string }> {
  const parsed = payload.safeParse(job.payload);
  // Retrying cannot fix a payload: park the job so someone looks at it.
  if (!parsed.success) throw new PermanentJobError("payload is not { orderId, externalTransactionId, refundNumber }");
  const { orderId, externalTransactionId, refundNumber } = parsed.data;
  const [order, note] = await Promise.all([
    db.order.findUnique({ where: { id: orderId }, select: { customerEmail: true } }),
    refundNote(db, externalTransactionId, refundNumber),
  ]);
  // Neither is ever deleted: an anomaly, retried and then parked for a person.
  if (!order || !note) throw new Error(`refund ${refundNumber} of order ${orderId} not found`);
  if (!order.customerEmail) return { skipped: "the order has no customer email" };
  if (await db.email.findFirst({ where: { jobKey: job.dedupeKey }, select: { id: true } }))
    return { skipped: "already mailed" };
  const { appUrl } = getEnv();
  const { mailer } = mail();
  await mailer.send({
    to: order.customerEmail,
    jobKey: job.dedupeKey,
    ...refundMail(note, {
      orderUrl: new URL(`/orders/${encodeURIComponent(externalTransactionId)}`, appUrl).toString(),
      noteUrl: new URL(refundNotePath(externalTransactionId, refundNumber), appUrl).toString(),
    }),
  });
}
