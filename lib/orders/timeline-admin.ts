import "server-only";
import type { Database } from "../db/client";
import { isCreationFailure } from "./cancel-reasons";
import { ORDER_DELIVERY_SELECT, orderDelivery, type OrderDelivery } from "./delivery-details";
import { fulfilmentEventsOf, type FulfilmentEventView } from "./fulfilment";
import { nextFulfilmentStates, type FulfilmentState } from "./fulfilment-states";
import { EXTERNAL_TRANSACTION_ID, orderSubject } from "./order-number";
import type { OrderStatusCode } from "./orders-admin";
import { refundsOf, type RefundView } from "./refund-views-admin";
import { eventsOfSubject, type StaffEventRow } from "../admin/staff-events";

/**
 * One order as the back office shows it (/admin/orders/<externalTransactionId>): its header, its
 * lines, its jobs and a timeline of what the database records about it, oldest first. Nothing is
 * inferred: an event is a column or a row, at the instant stored with it. What is not stored is
 * not shown, e.g. status checks keep only the last one (`status_checked_at`), and only deliveries
 * whose signature verified are recorded (the others are refused before anything is written). What
 * a person did to the order names them: a fulfilment step by its row's actor, a refund (with its
 * return's units) and a correcting entry by their rows' staff_name, the rest (resolving, a job's
 * retry or resolution, asking the service) by the order's rows of staff_events.
 */

export interface AdminOrderLine {
  productName: string;
  /** The variant's values when it was sold ("M, Azul"); "" for a product without options. */
  variantTitle: string;
  sku: string | null;
  quantity: number;
  unitPriceAoa: number;
}

export interface AdminOrderJob {
  id: string;
  type: string;
  status: "QUEUED" | "RUNNING" | "DONE" | "PARKED";
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  /** When a person marked it resolved while PARKED, and why. */
  resolvedAt: Date | null;
  resolutionNote: string | null;
  runAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface AdminOrderHeader {
  id: string;
  externalTransactionId: string;
  status: OrderStatusCode;
  amountAoa: number;
  customerName: string | null;
  customerPhone: string | null;
  /** The NIF the buyer gave for the receipt, normalised; null: none. */
  customerNif: string | null;
  /** The invoice's number once the record-invoice job wrote it: the receipt is open from then on. */
  invoiceNumber: number | null;
  referenceNumber: string | null;
  paymentReference: string | null;
  entityNumber: string | null;
  createdAt: Date;
  finalizedAt: Date | null;
  cancelReason: string | null;
  attentionReason: string | null;
  attentionAt: Date | null;
  attentionResolvedAt: Date | null;
  attentionNote: string | null;
  /** Whether the order is listed on the home as needing a person (./attention.ts), so the page offers "mark resolved". */
  needsAttention: boolean;
  paidAfterCancelAt: Date | null;
  statusCheckedAt: Date | null;
  stockReleasedAt: Date | null;
  /** The method, zone or pickup point, address and amount in parts, as snapshotted at checkout. */
  delivery: OrderDelivery;
  fulfilmentUpdatedAt: Date | null;
  /** The fulfilment steps the page offers (lib/orders/fulfilment-states.ts); none unless CON. */
  nextFulfilmentSteps: FulfilmentState[];
}

/**
 * What createPaymentOrder left behind: the service's reference number, or a cancellation whose
 * reason is a creation failure (`service_<kind>` or `internal_error`, lib/checkout/create-order.ts),
 * or neither (the call had not returned, or its reference was not stored yet).
 */
export type PaymentOrderOutcome =
  { kind: "created"; referenceNumber: string } | { kind: "failed"; cancelReason: string } | { kind: "unknown" };

export type TimelineEvent =
  | { kind: "created"; at: Date; lines: AdminOrderLine[]; paymentOrder: PaymentOrderOutcome }
  | {
      kind: "webhook";
      at: Date;
      id: string;
      paymentStatus: string | null;
      outcome: string;
      rawBody: string;
    }
  | { kind: "job"; at: Date; job: AdminOrderJob }
  | { kind: "email"; at: Date; id: string; to: string; subject: string; transport: string }
  | { kind: "finalized"; at: Date; status: OrderStatusCode; cancelReason: string | null }
  | { kind: "invoice"; at: Date; number: number; amountAoa: number }
  | { kind: "stock_released"; at: Date; lines: AdminOrderLine[] }
  | { kind: "paid_after_cancel"; at: Date }
  | { kind: "attention"; at: Date; reason: string }
  /** `by`: who resolved it, when the record names them (an order resolved before people had accounts: null). */
  | { kind: "resolved"; at: Date; note: string; by: string | null }
  | { kind: "status_checked"; at: Date }
  | ({ kind: "fulfilment"; at: Date } & FulfilmentEventView)
  /** A refund or a correcting entry (`correctsNumber` set), when it was recorded. */
  | ({ kind: "refund"; at: Date } & RefundView)
  | StaffTimelineEvent;

/**
 * A person's action on the order other than a fulfilment step or resolving it (those two show on
 * their own events): `action` is its staff_events kind (`order.refresh`, `order.job_retry`,
 * `order.job_resolve`, …), `by` the person's name as it was then.
 */
export interface StaffTimelineEvent {
  kind: "staff";
  at: Date;
  id: string;
  action: string;
  by: string;
  /** The note written with it, if any. */
  note: string | null;
  /** The job it was about, by type, when it was about one of the order's jobs. */
  jobType: string | null;
  /** What the service answered, for `order.refresh`. */
  outcome: string | null;
}

/**
 * Staff events shown on events of their own kind: a step on its fulfilment event, resolving on
 * "resolved", a refund and a correction on "refund" (their rows say more than the event).
 */
const SHOWN_ELSEWHERE = new Set(["order.fulfilment", "order.resolve", "order.refund", "order.refund_correction"]);

const textOf = (value: unknown): string | null => (typeof value === "string" ? value : null);

export interface AdminOrderDetail {
  order: AdminOrderHeader;
  lines: AdminOrderLine[];
  jobs: AdminOrderJob[];
  timeline: TimelineEvent[];
}

/**
 * Events at the same instant keep this order (the order of cause and effect: a fulfilment step
 * before the mail job its statement enqueued), then their rows' ids, so the page never depends
 * on how the database returned them.
 */
const KIND_RANK: Record<TimelineEvent["kind"], number> = {
  created: 0,
  webhook: 1,
  status_checked: 2,
  finalized: 3,
  paid_after_cancel: 4,
  attention: 5,
  fulfilment: 6,
  job: 7,
  email: 8,
  invoice: 9,
  stock_released: 10,
  resolved: 11,
  staff: 12,
  refund: 13,
};

/** The row behind an event, for ties of time and kind ("" for the kinds an order has once). */
const rowIdOf = (event: TimelineEvent): string => (event.kind === "job" ? event.job.id : "id" in event ? event.id : "");

/** Oldest first; ties by kind, then by row id. */
export const compareTimelineEvents = (a: TimelineEvent, b: TimelineEvent): number =>
  a.at.getTime() - b.at.getTime() ||
  KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
  (rowIdOf(a) < rowIdOf(b) ? -1 : rowIdOf(a) > rowIdOf(b) ? 1 : 0);

/** The order and its history, or null when no order has this id (or the id is malformed). */
export async function adminOrderDetail(db: Database, externalTransactionId: string): Promise<AdminOrderDetail | null> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  const order = await db.order.findUnique({
    where: { externalTransactionId },
    select: {
      id: true,
      externalTransactionId: true,
      status: true,
      amountAoa: true,
      customerName: true,
      customerPhone: true,
      customerNif: true,
      referenceNumber: true,
      paymentReference: true,
      entityNumber: true,
      createdAt: true,
      finalizedAt: true,
      cancelReason: true,
      attentionReason: true,
      attentionAt: true,
      attentionResolvedAt: true,
      attentionNote: true,
      paidAfterCancelAt: true,
      statusCheckedAt: true,
      stockReleasedAt: true,
      fulfilmentUpdatedAt: true,
      ...ORDER_DELIVERY_SELECT,
      lines: {
        select: { productName: true, variantTitle: true, sku: true, quantity: true, unitPriceAoa: true },
        orderBy: [{ productName: "asc" }, { variantTitle: "asc" }],
      },
      invoice: { select: { number: true, amountAoa: true, issuedAt: true } },
    },
  });
  if (!order) return null;
  // Jobs name their order (jobs.order_id, indexed); a mail names the job that sent it by its key.
  const [webhooks, jobRows, fulfilment, staffEvents, refunds] = await Promise.all([
    db.webhookEvent.findMany({
      where: { OR: [{ orderId: order.id }, { externalTransactionId }] },
      select: { id: true, receivedAt: true, paymentStatus: true, outcome: true, rawBody: true },
      orderBy: { receivedAt: "asc" },
    }),
    db.job.findMany({
      where: { orderId: order.id },
      select: {
        dedupeKey: true,
        id: true,
        type: true,
        status: true,
        attempts: true,
        maxAttempts: true,
        lastError: true,
        resolvedAt: true,
        resolutionNote: true,
        runAt: true,
        createdAt: true,
        updatedAt: true,
      },
      orderBy: [{ createdAt: "asc" }, { type: "asc" }],
    }),
    fulfilmentEventsOf(db, order.id),
    eventsOfSubject(db, orderSubject(externalTransactionId)),
    refundsOf(db, order.id, externalTransactionId),
  ]);
  const jobs = jobRows.map(({ dedupeKey: _key, ...job }) => job);
  const emails = jobRows.length
    ? await db.email.findMany({
        where: { jobKey: { in: jobRows.map((job) => job.dedupeKey) } },
        select: { id: true, to: true, subject: true, transport: true, createdAt: true },
        orderBy: { createdAt: "asc" },
      })
    : [];

  const delivery = orderDelivery(order);
  // The header keeps the columns it names; the delivery ones are read through `delivery`.
  const {
    lines,
    invoice,
    subtotalAoa: _subtotal,
    discountAoa: _discount,
    deliveryFeeAoa: _fee,
    promoCode: _code,
    deliveryMethod: _method,
    deliveryZoneName: _zone,
    deliveryEstimatedDays: _days,
    deliveryAddress: _address,
    pickupPointName: _point,
    pickupPointAddress: _pointAddress,
    pickupPointHours: _hours,
    customerEmail: _email,
    fulfilmentState: _state,
    ...columns
  } = order;
  const header: AdminOrderHeader = {
    ...columns,
    invoiceNumber: invoice?.number ?? null,
    delivery,
    nextFulfilmentSteps:
      columns.status === "CON" ? nextFulfilmentStates(delivery.fulfilmentState, delivery.method) : [],
    needsAttention:
      columns.attentionResolvedAt === null && (columns.attentionAt !== null || isCreationFailure(columns.cancelReason)),
  };
  const paymentOrder: PaymentOrderOutcome = header.referenceNumber
    ? { kind: "created", referenceNumber: header.referenceNumber }
    : isCreationFailure(header.cancelReason)
      ? { kind: "failed", cancelReason: header.cancelReason }
      : { kind: "unknown" };

  const timeline: TimelineEvent[] = [
    { kind: "created", at: header.createdAt, lines, paymentOrder },
    ...webhooks.map((event): TimelineEvent => ({
      kind: "webhook",
      at: event.receivedAt,
      id: event.id,
      paymentStatus: event.paymentStatus,
      outcome: event.outcome,
      rawBody: new TextDecoder().decode(event.rawBody),
    })),
    ...jobs.map((job): TimelineEvent => ({ kind: "job", at: job.createdAt, job })),
    ...emails.map((email): TimelineEvent => ({ kind: "email", at: email.createdAt, ...email })),
    ...fulfilment.map((event): TimelineEvent => ({ kind: "fulfilment", at: event.createdAt, ...event })),
    ...staffEvents.filter((event) => !SHOWN_ELSEWHERE.has(event.kind)).map((event) => staffTimelineEvent(event, jobs)),
    ...refunds.map((refund): TimelineEvent => ({ kind: "refund", at: refund.createdAt, ...refund })),
  ];
  if (header.finalizedAt && header.status !== "PEN")
    timeline.push({
      kind: "finalized",
      at: header.finalizedAt,
      status: header.status,
      cancelReason: header.cancelReason,
    });
  if (invoice)
    timeline.push({ kind: "invoice", at: invoice.issuedAt, number: invoice.number, amountAoa: invoice.amountAoa });
  if (header.stockReleasedAt) timeline.push({ kind: "stock_released", at: header.stockReleasedAt, lines });
  if (header.paidAfterCancelAt) timeline.push({ kind: "paid_after_cancel", at: header.paidAfterCancelAt });
  if (header.attentionReason && header.attentionAt)
    timeline.push({ kind: "attention", at: header.attentionAt, reason: header.attentionReason });
  if (header.statusCheckedAt) timeline.push({ kind: "status_checked", at: header.statusCheckedAt });
  if (header.attentionResolvedAt) {
    const resolvedBy = staffEvents.findLast((event) => event.kind === "order.resolve");
    timeline.push({
      kind: "resolved",
      at: header.attentionResolvedAt,
      note: header.attentionNote ?? "",
      by: resolvedBy?.staffName ?? null,
    });
  }
  timeline.sort(compareTimelineEvents);

  return { order: header, lines, jobs, timeline };
}

function staffTimelineEvent(event: StaffEventRow, jobs: AdminOrderJob[]): StaffTimelineEvent {
  const jobId = textOf(event.details.jobId);
  return {
    kind: "staff",
    at: event.createdAt,
    id: event.id,
    action: event.kind,
    by: event.staffName,
    note: textOf(event.details.note),
    jobType: jobId ? (jobs.find((job) => job.id === jobId)?.type ?? null) : null,
    outcome: textOf(event.details.outcome),
  };
}
