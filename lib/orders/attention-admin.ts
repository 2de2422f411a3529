import "server-only";
import { z } from "zod";
import type { SqlExecutor, SqlRunner } from "../db/sql-runner";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { CREATION_FAILURE_REASONS } from "./cancel-reasons";
import { recordStaffEvent, type Actor, type StaffEventInput } from "../admin/staff-events";
import { orderSubject } from "./order-number";
import { formatAoa } from "../money";

/**
 * What needs a person, for the back office's home, and "mark resolved" for each kind of item: an
 * order the state machine raised (today: paid after it was cancelled), an order whose creation
 * failed (the service may hold it after all), a PARKED job, and a verified webhook delivery the
 * shop could not match or read. A resolved item keeps what happened, gains when and why a person
 * closed it, and leaves the list; who closed it is recorded in staff_events, in the same
 * transaction (an item that was not open records nothing).
 */

/** Webhook outcomes (lib/orders/receive-webhook.ts) that need a person: no order, or a body the shop could not read. */
export const WEBHOOK_ATTENTION_OUTCOMES = ["unmatched", "malformed_json", "invalid_payload"] as const;

/**
 * Items shown per kind, newest first; the rest are counted. Four kinds of twenty made eighty items
 * above the dashboard on a phone; resolving one brings the next.
 */
export const ATTENTION_LIST_LIMIT = 10;

export interface AttentionOrder {
  externalTransactionId: string;
  amountAoa: number;
  /** `attention_reason` (e.g. `paid_after_cancel`) or the failed creation's `cancel_reason`. */
  reason: string;
  at: Date;
}

export interface AttentionJob {
  id: string;
  type: string;
  attempts: number;
  lastError: string | null;
  /** The order the job works for (every job is keyed `<type>:<externalTransactionId>`, lib/jobs/job-types.ts). */
  externalTransactionId: string | null;
  at: Date;
}

export interface AttentionDelivery {
  id: string;
  outcome: string;
  paymentStatus: string | null;
  externalTransactionId: string | null;
  at: Date;
}

export interface AttentionGroup<Item> {
  total: number;
  items: Item[];
}

export interface Attention {
  raisedOrders: AttentionGroup<AttentionOrder>;
  failedCreations: AttentionGroup<AttentionOrder>;
  parkedJobs: AttentionGroup<AttentionJob>;
  unmatchedDeliveries: AttentionGroup<AttentionDelivery>;
}

/** The kinds that resolving updates (their SQL twins are in attentionStatement below). */
const parkedJobWhere: Prisma.JobWhereInput = { status: "PARKED", resolvedAt: null };
const unmatchedDeliveryWhere: Prisma.WebhookEventWhereInput = {
  outcome: { in: [...WEBHOOK_ATTENTION_OUTCOMES] },
  resolvedAt: null,
};

/** One row of {@link attentionStatement}: an item of a kind, with its place and its kind's total. */
interface AttentionRow {
  kind: keyof Attention;
  position: number;
  total: number;
  id: string | null;
  externalTransactionId: string | null;
  amountAoa: number | null;
  reason: string | null;
  type: string | null;
  attempts: number | null;
  lastError: string | null;
  paymentStatus: string | null;
  at: Date | null;
}

const creationFailures = Prisma.join([...CREATION_FAILURE_REASONS]);
const webhookOutcomes = Prisma.join([...WEBHOOK_ATTENTION_OUTCOMES]);

/**
 * Every kind's newest `limit` items in one statement, each with its kind's total (counted over all
 * its matches before the LIMIT): the home is the page the owner opens most, and eight queries at
 * once took eight of the pool's connections per visit. The WHEREs are the Prisma filters above,
 * which resolving uses, written in SQL.
 */
const attentionStatement = (limit: number) => Prisma.sql`
(SELECT 'raisedOrders' AS kind, row_number() OVER (ORDER BY attention_at DESC)::int AS position,
        count(*) OVER ()::int AS total, NULL::text AS id, external_transaction_id AS "externalTransactionId",
        amount_aoa AS "amountAoa", COALESCE(attention_reason, 'attention') AS reason, NULL::text AS type,
        NULL::int AS attempts, NULL::text AS "lastError", NULL::text AS "paymentStatus", COALESCE(attention_at, created_at) AS at
   FROM orders WHERE attention_at IS NOT NULL AND attention_resolved_at IS NULL
   ORDER BY attention_at DESC LIMIT ${limit})
UNION ALL
(SELECT 'failedCreations', row_number() OVER (ORDER BY created_at DESC, id DESC)::int, count(*) OVER ()::int, NULL,
        external_transaction_id, amount_aoa, COALESCE(cancel_reason, 'internal_error'), NULL, NULL, NULL, NULL,
        COALESCE(finalized_at, created_at)
   FROM orders WHERE cancel_reason IN (${creationFailures}) AND attention_resolved_at IS NULL AND attention_at IS NULL
   ORDER BY created_at DESC, id DESC LIMIT ${limit})
UNION ALL
(SELECT 'parkedJobs', row_number() OVER (ORDER BY j.updated_at DESC)::int, count(*) OVER ()::int, j.id::text,
        o.external_transaction_id, NULL, NULL, j.type, j.attempts, j.last_error, NULL, j.updated_at
   FROM jobs j LEFT JOIN orders o ON o.id = j.order_id
   WHERE j.status = 'PARKED' AND j.resolved_at IS NULL
   ORDER BY j.updated_at DESC LIMIT ${limit})
UNION ALL
(SELECT 'unmatchedDeliveries', row_number() OVER (ORDER BY received_at DESC)::int, count(*) OVER ()::int, id::text,
        external_transaction_id, NULL, outcome, NULL, NULL, NULL, payment_status, received_at
   FROM webhook_events WHERE outcome IN (${webhookOutcomes}) AND resolved_at IS NULL
   ORDER BY received_at DESC LIMIT ${limit})
ORDER BY kind, position`;

/** Every kind's items, newest first and at most `limit`, with its total counted separately. */
export async function attentionItems(db: SqlRunner, limit = ATTENTION_LIST_LIMIT): Promise<Attention> {
  const rows = await db.$queryRaw<AttentionRow[]>(attentionStatement(limit));
  // A kind without an item has no row, and a total of 0.
  const of = (kind: keyof Attention) => {
    const items = rows.filter((row) => row.kind === kind);
    return { total: items[0]?.total ?? 0, items };
  };
  const orders = (kind: "raisedOrders" | "failedCreations"): AttentionGroup<AttentionOrder> => {
    const { total, items } = of(kind);
    return {
      total,
      items: items.map((row) => ({
        externalTransactionId: row.externalTransactionId!,
        amountAoa: row.amountAoa!,
        reason: row.reason!,
        at: row.at!,
      })),
    };
  };
  const jobs = of("parkedJobs");
  const deliveries = of("unmatchedDeliveries");
  return {
    raisedOrders: orders("raisedOrders"),
    failedCreations: orders("failedCreations"),
    parkedJobs: {
      total: jobs.total,
      items: jobs.items.map((row) => ({
        id: row.id!,
        type: row.type!,
        attempts: row.attempts!,
        lastError: row.lastError,
        externalTransactionId: row.externalTransactionId,
        at: row.at!,
      })),
    },
    unmatchedDeliveries: {
      total: deliveries.total,
      items: deliveries.items.map((row) => ({
        id: row.id!,
        outcome: row.reason!,
        paymentStatus: row.paymentStatus,
        externalTransactionId: row.externalTransactionId,
        at: row.at!,
      })),
    },
  };
}

/** The note a person writes when resolving an item: required, so the next person knows why. */
export const resolutionNoteSchema = z.object({ note: z.string().trim().min(1).max(2000) });

export type ResolveOutcome = "resolved" | "not_found" | "nothing_to_resolve";

/** After a resolving update of `count` rows: resolved, or else whether the item exists at all. */
async function outcomeOf(count: number, existing: () => Promise<number>): Promise<ResolveOutcome> {
  if (count > 0) return "resolved";
  return (await existing()) > 0 ? "nothing_to_resolve" : "not_found";
}

/**
 * `resolve` (an update that closes open items, answering how many) and, when it closed one, the
 * person's record, in one transaction.
 */
async function resolveRecorded(
  db: Database,
  actor: Actor,
  event: StaffEventInput,
  resolve: (tx: Prisma.TransactionClient) => Promise<{ count: number }>,
): Promise<number> {
  return db.$transaction(async (tx) => {
    const { count } = await resolve(tx);
    if (count > 0) await recordStaffEvent(tx, actor, event);
    return count;
  });
}

/** Closes an order's attention (raised, or its failed creation) with a note, by `actor`. */
export async function resolveOrderAttention(
  db: Database,
  externalTransactionId: string,
  note: string,
  actor: Actor,
): Promise<ResolveOutcome> {
  const event = { kind: "order.resolve", subject: orderSubject(externalTransactionId), details: { note } } as const;
  const count = await resolveRecorded(db, actor, event, (tx) =>
    tx.order.updateMany({
      where: {
        externalTransactionId,
        attentionResolvedAt: null,
        OR: [{ attentionAt: { not: null } }, { cancelReason: { in: [...CREATION_FAILURE_REASONS] } }],
      },
      data: { attentionResolvedAt: new Date(), attentionNote: note },
    }),
  );
  return outcomeOf(count, () => db.order.count({ where: { externalTransactionId } }));
}

/**
 * Closes the attention item of an order paid after it was cancelled, with `note`, when it is
 * still open: what the owner's decision does, in its own transaction (a refund recorded for it,
 * lib/orders/refunds-admin.ts; fulfilling it after all, lib/orders/fulfil-after-cancel-admin.ts).
 * The decision's own event names who decided; an order with nothing open is left as it is.
 * Answers whether it closed the item.
 */
export async function closePaidAfterCancel(tx: SqlExecutor, orderId: string, note: string): Promise<boolean> {
  const closed = await tx.$executeRaw(Prisma.sql`
UPDATE orders SET attention_resolved_at = now(), attention_note = ${note}, updated_at = now()
WHERE id = ${orderId}::uuid AND paid_after_cancel_at IS NOT NULL AND attention_at IS NOT NULL
  AND attention_resolved_at IS NULL`);
  return closed > 0;
}

/**
 * The note of an item closed by the refund numbered `number` of `amountAoa`, when `remainingAoa`
 * could still be refunded (the shop's words, in its language).
 */
export const refundedNote = (number: number, amountAoa: number, remainingAoa: number) =>
  amountAoa >= remainingAoa
    ? `Reembolsado: nota ${number}, ${formatAoa(amountAoa)}.`
    : `Reembolsado em parte: nota ${number}, ${formatAoa(amountAoa)} de ${formatAoa(remainingAoa)}.`;

/** The note of an item closed by fulfilling the order after all. */
export const fulfilledNote = (stockTaken: boolean) =>
  stockTaken
    ? "Cumprida: o stock foi retirado de novo e a encomenda passou a paga."
    : "Cumprida: o stock ainda estava reservado e a encomenda passou a paga.";

/** Closes a PARKED job of this order with a note, by `actor` (a retry reopens it: lib/jobs/queue.ts `requeueParkedJob`). */
export async function resolveParkedJob(
  db: Database,
  job: { id: string; externalTransactionId: string },
  note: string,
  actor: Actor,
): Promise<ResolveOutcome> {
  const ofOrder = { id: job.id, order: { is: { externalTransactionId: job.externalTransactionId } } };
  const event = {
    kind: "order.job_resolve",
    subject: orderSubject(job.externalTransactionId),
    details: { jobId: job.id, note },
  } as const;
  const count = await resolveRecorded(db, actor, event, (tx) =>
    tx.job.updateMany({
      where: { ...ofOrder, ...parkedJobWhere },
      data: { resolvedAt: new Date(), resolutionNote: note },
    }),
  );
  return outcomeOf(count, () => db.job.count({ where: ofOrder }));
}

/** Closes an unmatched or unreadable webhook delivery with a note, by `actor`. */
export async function resolveWebhookEvent(
  db: Database,
  id: string,
  note: string,
  actor: Actor,
): Promise<ResolveOutcome> {
  const event = { kind: "webhook.resolve", subject: `webhook:${id}`, details: { note } } as const;
  const count = await resolveRecorded(db, actor, event, (tx) =>
    tx.webhookEvent.updateMany({
      where: { id, ...unmatchedDeliveryWhere },
      data: { resolvedAt: new Date(), resolutionNote: note },
    }),
  );
  return outcomeOf(count, () => db.webhookEvent.count({ where: { id } }));
}

export interface AdminDelivery {
  id: string;
  receivedAt: Date;
  outcome: string;
  paymentStatus: string | null;
  externalTransactionId: string | null;
  /** The order it was matched to, when it was. */
  orderExternalTransactionId: string | null;
  rawBody: string;
  needsAttention: boolean;
  resolvedAt: Date | null;
  resolutionNote: string | null;
}

/** One webhook delivery for its page (/admin/webhooks/<id>); null for an unknown id. */
export async function adminDelivery(db: Database, id: string): Promise<AdminDelivery | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const row = await db.webhookEvent.findUnique({
    where: { id },
    select: {
      id: true,
      receivedAt: true,
      outcome: true,
      paymentStatus: true,
      externalTransactionId: true,
      rawBody: true,
      resolvedAt: true,
      resolutionNote: true,
      order: { select: { externalTransactionId: true } },
    },
  });
  if (!row) return null;
  const { order, rawBody, ...delivery } = row;
  return {
    ...delivery,
    orderExternalTransactionId: order?.externalTransactionId ?? null,
    rawBody: new TextDecoder().decode(rawBody),
    needsAttention: WEBHOOK_ATTENTION_OUTCOMES.some((outcome) => outcome === row.outcome) && row.resolvedAt === null,
  };
}
