import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { CREATION_FAILURE_REASONS } from "./cancel-reasons";

/**
 * What needs a person, for the back office's home, and "mark resolved" for each kind of item: an
 * order the state machine raised (today: paid after it was cancelled), an order whose creation
 * failed (the service may hold it after all), a PARKED job, and a verified webhook delivery the
 * shop could not match or read. A resolved item keeps what happened, gains when and why a person
 * closed it, and leaves the list.
 */

/** Webhook outcomes (lib/orders/receive-webhook.ts) that need a person: no order, or a body the shop could not read. */
export const WEBHOOK_ATTENTION_OUTCOMES = ["unmatched", "malformed_json", "invalid_payload"] as const;

/** Items shown per kind; the rest are counted. */
export const ATTENTION_LIST_LIMIT = 20;

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

/** Each WHERE is an equality (or a short IN list) on an indexed prefix, so the home stays cheap with many orders. */
const raisedOrderWhere: Prisma.OrderWhereInput = { attentionAt: { not: null }, attentionResolvedAt: null };
const failedCreationWhere: Prisma.OrderWhereInput = {
  cancelReason: { in: [...CREATION_FAILURE_REASONS] },
  attentionResolvedAt: null,
  // An order that is both is listed once, with its raised reason.
  attentionAt: null,
};
const parkedJobWhere: Prisma.JobWhereInput = { status: "PARKED", resolvedAt: null };
const unmatchedDeliveryWhere: Prisma.WebhookEventWhereInput = {
  outcome: { in: [...WEBHOOK_ATTENTION_OUTCOMES] },
  resolvedAt: null,
};

/** Every kind's items, newest first and at most `limit`, with its total counted separately. */
export async function attentionItems(db: Database, limit = ATTENTION_LIST_LIMIT): Promise<Attention> {
  const orderFields = {
    externalTransactionId: true,
    amountAoa: true,
    attentionReason: true,
    attentionAt: true,
    cancelReason: true,
    finalizedAt: true,
    createdAt: true,
  } as const;
  const [raised, raisedTotal, failed, failedTotal, jobs, jobsTotal, deliveries, deliveriesTotal] = await Promise.all([
    db.order.findMany({ where: raisedOrderWhere, select: orderFields, orderBy: { attentionAt: "desc" }, take: limit }),
    db.order.count({ where: raisedOrderWhere }),
    db.order.findMany({
      where: failedCreationWhere,
      select: orderFields,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    }),
    db.order.count({ where: failedCreationWhere }),
    db.job.findMany({
      where: parkedJobWhere,
      select: {
        id: true,
        type: true,
        attempts: true,
        lastError: true,
        updatedAt: true,
        order: { select: { externalTransactionId: true } },
      },
      orderBy: { updatedAt: "desc" },
      take: limit,
    }),
    db.job.count({ where: parkedJobWhere }),
    db.webhookEvent.findMany({
      where: unmatchedDeliveryWhere,
      select: { id: true, outcome: true, paymentStatus: true, externalTransactionId: true, receivedAt: true },
      orderBy: { receivedAt: "desc" },
      take: limit,
    }),
    db.webhookEvent.count({ where: unmatchedDeliveryWhere }),
  ]);
  return {
    raisedOrders: {
      total: raisedTotal,
      items: raised.map((order) => ({
        externalTransactionId: order.externalTransactionId,
        amountAoa: order.amountAoa,
        reason: order.attentionReason ?? "attention",
        at: order.attentionAt ?? order.createdAt,
      })),
    },
    failedCreations: {
      total: failedTotal,
      items: failed.map((order) => ({
        externalTransactionId: order.externalTransactionId,
        amountAoa: order.amountAoa,
        reason: order.cancelReason ?? "internal_error",
        at: order.finalizedAt ?? order.createdAt,
      })),
    },
    parkedJobs: {
      total: jobsTotal,
      items: jobs.map(({ order, updatedAt, ...job }) => ({
        ...job,
        externalTransactionId: order?.externalTransactionId ?? null,
        at: updatedAt,
      })),
    },
    unmatchedDeliveries: {
      total: deliveriesTotal,
      items: deliveries.map(({ receivedAt, ...delivery }) => ({ ...delivery, at: receivedAt })),
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

/** Closes an order's attention (raised, or its failed creation) with a note. */
export async function resolveOrderAttention(
  db: Database,
  externalTransactionId: string,
  note: string,
): Promise<ResolveOutcome> {
  const { count } = await db.order.updateMany({
    where: {
      externalTransactionId,
      attentionResolvedAt: null,
      OR: [{ attentionAt: { not: null } }, { cancelReason: { in: [...CREATION_FAILURE_REASONS] } }],
    },
    data: { attentionResolvedAt: new Date(), attentionNote: note },
  });
  return outcomeOf(count, () => db.order.count({ where: { externalTransactionId } }));
}

/** Closes a PARKED job of this order with a note (a retry reopens it: lib/jobs/queue.ts `requeueParkedJob`). */
export async function resolveParkedJob(
  db: Database,
  job: { id: string; externalTransactionId: string },
  note: string,
): Promise<ResolveOutcome> {
  const ofOrder = { id: job.id, order: { is: { externalTransactionId: job.externalTransactionId } } };
  const { count } = await db.job.updateMany({
    where: { ...ofOrder, ...parkedJobWhere },
    data: { resolvedAt: new Date(), resolutionNote: note },
  });
  return outcomeOf(count, () => db.job.count({ where: ofOrder }));
}

/** Closes an unmatched or unreadable webhook delivery with a note. */
export async function resolveWebhookEvent(db: Database, id: string, note: string): Promise<ResolveOutcome> {
  const { count } = await db.webhookEvent.updateMany({
    where: { id, ...unmatchedDeliveryWhere },
    data: { resolvedAt: new Date(), resolutionNote: note },
  });
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
