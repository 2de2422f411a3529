import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { staffEventStatement, type Actor } from "../admin/staff-events";
import { JOB_TYPES } from "../jobs/job-types";
import { EXTERNAL_TRANSACTION_ID, orderSubject } from "./order-number";
import { ORDER_DELIVERY_SELECT, orderDelivery, type OrderDelivery } from "./delivery-details";
import {
  FULFILMENT_STATES,
  isDeliveryMethod,
  isFulfilmentState,
  stepTo,
  type DeliveryMethod,
  type FulfilmentState,
} from "./fulfilment-states";

/**
 * A paid order's fulfilment steps (./fulfilment-states.ts has the table), applied by the back
 * office (POST /api/admin/orders/<externalTransactionId>/fulfilment), with their history and what
 * the shopper's order page shows of them.
 */

export const MAX_FULFILMENT_NOTE = 500;

/** The step as the route reads it, from JSON or the order page's form (an empty note is none). */
export const fulfilmentInputSchema = z.object({
  state: z.enum(FULFILMENT_STATES, { error: `state must be one of ${FULFILMENT_STATES.join(", ")}` }),
  note: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z
      .string({ error: "note must be text" })
      .trim()
      .max(MAX_FULFILMENT_NOTE, { error: `note must be at most ${MAX_FULFILMENT_NOTE} characters` })
      .optional(),
  ),
});
export type FulfilmentInput = z.infer<typeof fulfilmentInputSchema>;

export interface FulfilmentEventView {
  id: string;
  state: FulfilmentState;
  note: string | null;
  actor: string;
  createdAt: Date;
}

export type FulfilmentResult =
  | {
      outcome: "changed";
      order: { externalTransactionId: string; fulfilmentState: FulfilmentState; fulfilmentUpdatedAt: Date };
      event: FulfilmentEventView;
      /** The shopper's mail job, when the order has an email. */
      mailJobId: string | null;
    }
  | { outcome: "not_found" }
  /** PEN or CAN: nothing to fulfil. */
  | { outcome: "order_not_paid"; status: "PEN" | "CAN" }
  /** The step does not follow the order's current state, or does not fit its delivery method. */
  | { outcome: "invalid_transition"; current: FulfilmentState | null; method: DeliveryMethod | null };

interface StepRow {
  found: boolean;
  status: string | null;
  current: string | null;
  method: string | null;
  changedState: string | null;
  changedAt: Date | null;
  eventId: string | null;
  eventNote: string | null;
  eventActor: string | null;
  eventAt: Date | null;
  jobId: string | null;
}

/** Runs while other statements keep changing the order: at most this many (an order has four steps). */
const MAX_STATEMENT_RUNS = 5;

/**
 * A step is one statement, as a status change is (./state-machine.ts): a conditional `UPDATE …
 * WHERE status = 'CON' AND fulfilment_state IS NOT DISTINCT FROM <the step's start>` (compare and
 * set), whose CTEs insert the `fulfilment_events` row (who by name, an optional note, when), the
 * back office's record of the person (staff_events, lib/admin/staff-events.ts) and, when the
 * order has the shopper's email, the shopper's mail as a job (outbox). Of any number of identical
 * requests at once, PostgreSQL lets one change the row (the others re-check the condition on the
 * row it committed and find another state), so there is exactly one event, one record and one
 * mail job; a refused step changes no row, so it records nothing.
 */
function stepStatement(externalTransactionId: string, to: FulfilmentState, note: string | null, actor: Actor) {
  const step = stepTo(to);
  const methods = step.methods.filter((method) => method !== null);
  const allowsNoMethod = step.methods.includes(null);
  return Prisma.sql`
WITH target AS (
  SELECT id, status::text AS status, fulfilment_state, delivery_method FROM orders
  WHERE external_transaction_id = ${externalTransactionId}
), changed AS (
  UPDATE orders o SET fulfilment_state = ${to}, fulfilment_updated_at = now(), updated_at = now()
  FROM target
  WHERE o.id = target.id AND o.status = 'CON'
    AND o.fulfilment_state IS NOT DISTINCT FROM ${step.from}::text
    AND (o.delivery_method = ANY(${methods}::text[]) OR (${allowsNoMethod} AND o.delivery_method IS NULL))
  RETURNING o.id, o.external_transaction_id, o.fulfilment_state, o.fulfilment_updated_at, o.customer_email
), event AS (
  INSERT INTO fulfilment_events (order_id, state, note, actor, created_at)
  SELECT id, fulfilment_state, ${note}, ${actor.name}, fulfilment_updated_at FROM changed
  RETURNING id, note, actor, created_at
), recorded AS (
  ${staffEventStatement(
    actor,
    { kind: "order.fulfilment", subject: orderSubject(externalTransactionId), details: { state: to, note } },
    Prisma.sql`changed`,
  )}
), enqueued AS (
  INSERT INTO jobs (type, dedupe_key, payload, order_id)
  SELECT ${JOB_TYPES.fulfilmentMail}, ${`${JOB_TYPES.fulfilmentMail}:${to}:`} || external_transaction_id,
         jsonb_build_object('orderId', id, 'externalTransactionId', external_transaction_id, 'state', fulfilment_state), id
  FROM changed WHERE customer_email IS NOT NULL
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id
)
SELECT target.id IS NOT NULL AS found, target.status, target.fulfilment_state AS current,
       target.delivery_method AS method, changed.fulfilment_state AS "changedState",
       changed.fulfilment_updated_at AS "changedAt", event.id AS "eventId", event.note AS "eventNote",
       event.actor AS "eventActor", event.created_at AS "eventAt", enqueued.id AS "jobId"
FROM (SELECT 1) AS one
LEFT JOIN target ON true
LEFT JOIN changed ON true
LEFT JOIN event ON true
LEFT JOIN enqueued ON true`;
}

/**
 * Moves the paid order `externalTransactionId` to `input.state`, recording `actor` (the person
 * who made the step: their name on the order's history, and their staff_events row) and the note. When the statement's snapshot shows an order the step applies to but the
 * row had changed under it (a concurrent step committed first), it runs again with a fresh
 * snapshot, so the answer names the state that won. A refusal writes nothing: an unpaid or
 * cancelled order (a paid-after-cancel one stays CAN, so it is refused too), a step that does not
 * follow the current state or does not fit the order's delivery method, an unknown order.
 */
export async function changeFulfilment(
  client: SqlRunner,
  externalTransactionId: string,
  input: FulfilmentInput,
  actor: Actor,
): Promise<FulfilmentResult> {
  const to = input.state;
  for (let run = 1; ; run++) {
    const [row] = await client.$queryRaw<StepRow[]>(
      stepStatement(externalTransactionId, to, input.note ?? null, actor),
    );
    if (!row?.found) return { outcome: "not_found" };
    if (row.changedState && row.changedAt && row.eventId && row.eventActor && row.eventAt)
      return {
        outcome: "changed",
        order: { externalTransactionId, fulfilmentState: to, fulfilmentUpdatedAt: row.changedAt },
        event: { id: row.eventId, state: to, note: row.eventNote, actor: row.eventActor, createdAt: row.eventAt },
        mailJobId: row.jobId,
      };
    if (row.status === "PEN" || row.status === "CAN") return { outcome: "order_not_paid", status: row.status };
    const current = isFulfilmentState(row.current) ? row.current : null;
    const method = isDeliveryMethod(row.method) ? row.method : null;
    const step = stepTo(to);
    const appliedToSnapshot = step.from === current && step.methods.includes(method);
    if (!appliedToSnapshot) return { outcome: "invalid_transition", current, method };
    if (run >= MAX_STATEMENT_RUNS)
      throw new Error(`order ${externalTransactionId} kept changing under ${MAX_STATEMENT_RUNS} fulfilment steps`);
  }
}

/** An order's fulfilment history, oldest first (ties by id, so the order never depends on the plan). */
export async function fulfilmentEventsOf(
  client: Pick<Database, "fulfilmentEvent">,
  orderId: string,
): Promise<FulfilmentEventView[]> {
  const rows = await client.fulfilmentEvent.findMany({
    where: { orderId },
    select: { id: true, state: true, note: true, actor: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.flatMap((row) => (isFulfilmentState(row.state) ? [{ ...row, state: row.state }] : []));
}

/** What the shopper's order page shows below the order: its delivery, and for a paid order its steps. */
export interface OrderProgress {
  status: "PEN" | "CON" | "CAN";
  /** When the payment was confirmed: the first step, "to prepare", starts there. */
  paidAt: Date | null;
  delivery: OrderDelivery;
  events: FulfilmentEventView[];
}

export async function orderProgress(
  client: Pick<Database, "order" | "fulfilmentEvent">,
  externalTransactionId: string,
): Promise<OrderProgress | null> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  const order = await client.order.findUnique({
    where: { externalTransactionId },
    select: { id: true, status: true, finalizedAt: true, amountAoa: true, ...ORDER_DELIVERY_SELECT },
  });
  if (!order) return null;
  return {
    status: order.status,
    paidAt: order.status === "CON" ? order.finalizedAt : null,
    delivery: orderDelivery(order),
    events: order.status === "CON" ? await fulfilmentEventsOf(client, order.id) : [],
  };
}
