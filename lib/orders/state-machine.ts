import "server-only";
import { Prisma } from "../generated/prisma/client";
import { JOB_TYPES, jobsForTransition } from "../jobs/job-types";
import type { PaymentStatus } from "../pay/api/payment-status";
import { REFERENCE_PAYMENT_LIFE_SPAN_MINUTES } from "../pay/sdk/config";
import type { SqlRunner } from "../db/sql-runner";

/**
 * The one order state machine (contract 3): PEN → CON, PEN → CAN; CON and CAN are final for the
 * service. Every status change (webhook, status fallback, reconcile sweep, a failed creation) is
 * the statement built here, with the rules that are part of what a status change means: a new
 * payment reference extends the stock hold (and is mailed to a shopper who gave an email), and a
 * CON for a cancelled order is recorded as paid after cancel. The shop's one transition of its
 * own, CAN → CON when the owner fulfils such an order after all, is here too.
 */

/** How long a payment reference keeps an order's units beyond its life span: clocks and banks are not exact. */
export const REFERENCE_HOLD_MARGIN_MINUTES = 60;
/**
 * The hold of an order with a payment reference, from when the reference reached us: the shopper
 * has a reference to pay at the bank, so the units wait for it (lib/orders/holds.ts expires them).
 */
export const REFERENCE_HOLD_MINUTES = REFERENCE_PAYMENT_LIFE_SPAN_MINUTES + REFERENCE_HOLD_MARGIN_MINUTES;
/**
 * `attention_reason` of an order paid after it was cancelled. Such a CON is not a duplicate: a
 * customer paid for an order the shop (or the service) cancelled. The order stays CAN and its
 * stock is not taken again, but the payment is recorded (`paid_after_cancel_at`), the order is
 * marked for attention and a job mails the orders mailbox, all in the same statement.
 */
export const PAID_AFTER_CANCEL = "paid_after_cancel";

export type OrderStatus = PaymentStatus;

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = { PEN: ["CON", "CAN"], CON: [], CAN: [] };

export const isFinal = (status: OrderStatus) => ALLOWED[status].length === 0;

export const canTransition = (from: OrderStatus, to: OrderStatus) => ALLOWED[from].includes(to);

/**
 * The one transition a person makes and the service never does: CAN → CON of an order paid after
 * it was cancelled, when the owner decides to fulfil it after all (lib/orders/fulfil-after-cancel-admin.ts
 * takes its units again first). The table above is the service's (contract 3) and stays as it is:
 * a webhook or a status answer can never move a cancelled order.
 */
export const canFulfilAfterCancel = (order: { status: OrderStatus; paidAfterCancel: boolean }) =>
  order.status === "CAN" && order.paidAfterCancel;

/** How to find the order: by our id, else by the service's reference number (webhook fallback). */
export interface OrderLookup {
  externalTransactionId?: string;
  referenceNumber?: string;
}

/** What the service told us (webhook or status query), or what we decided (creation failed). */
export interface PaymentUpdate {
  status: OrderStatus;
  paymentReference?: string;
  entityNumber?: string;
  /** Only for the shop's own cancellation: why (a failed creation, `abandoned`, `hold_expired`). */
  cancelReason?: string;
  /** The change happens only while the order's stock hold has run out (the shop's own expiry). */
  onlyIfHoldExpired?: boolean;
  /**
   * False: a new payment reference is stored but keeps the ordinary hold, because the order's
   * address or phone already has MAX_REFERENCE_HOLDS day-long holds (lib/orders/reference-holds.ts
   * decides, under its locks). Default true.
   */
  referenceHold?: boolean;
}

export type UpdateOutcome =
  /** PEN → CON or PEN → CAN: this call made the change and enqueued its jobs. */
  | "transitioned"
  /** Still PEN, with a new payment reference or entity number stored. */
  | "pending_updated"
  /** Nothing to change: the same news again, or a concurrent duplicate won the race. */
  | "unchanged"
  /** The order is CON or CAN already; not reprocessed (contract 3, 6.1). */
  | "already_final"
  /** CON for an order that is CAN: recorded, marked for attention, mailed; the order stays CAN. */
  | "paid_after_cancel"
  | "not_found";

export interface UpdateResult {
  outcome: UpdateOutcome;
  order?: { id: string; externalTransactionId: string; status: OrderStatus; updatedAt: Date };
  /** This update recorded the payment after cancel (the first such CON), and enqueued its mail. */
  firstPaidAfterCancel?: boolean;
  /**
   * The order's stock hold had run out when this update read it: the catalogue counted its units as
   * free (lib/catalog/products.ts), so a payment of it changes what the cached pages show.
   */
  holdHadExpired?: boolean;
}

/**
 * A status change is one conditional `UPDATE … WHERE status = 'PEN'` whose side effects are
 * inserted as jobs by the same statement (outbox): of any number of simultaneous duplicates
 * exactly one changes the row and enqueues its jobs. One statement is one round trip and atomic
 * without an explicit transaction, which keeps the webhook fast; callers that must record
 * something in the same breath (the webhook log) append their own CTE to it.
 *
 * The CTEs `target` (the order as found), `changed` (the row this statement changed, if any),
 * `late` (a CON recorded for a CAN order) and `enqueued` (the jobs of either). Follow it with
 * `, more AS (…) SELECT …` or with {@link outcomeSelect}; run it with {@link runUpdateStatement}.
 *
 * Concurrency: the statement reads the order through its snapshot. When another statement
 * changes the order in between, PostgreSQL re-checks `changed`'s condition on the latest row
 * version (READ COMMITTED), so a final state is never overwritten; but this statement then
 * sees a PEN order it could not change, which for a final update can only mean that another
 * transition won. Its outcome is then `retry`, it has written nothing, and it runs again with
 * a fresh snapshot: a CON racing the shop's own cancellation is recognised as paid after
 * cancel, never lost as "unchanged". A duplicate about a final order reads and writes nothing.
 */
export function paymentUpdateCtes(lookup: OrderLookup, update: PaymentUpdate): Prisma.Sql {
  const finalTo = update.status === "PEN" ? null : update.status;
  const reference = update.paymentReference ?? null;
  const entity = update.entityNumber ?? null;
  const jobTypes = finalTo ? jobsForTransition(finalTo) : [];
  const onlyIfHoldExpired = update.onlyIfHoldExpired ?? false;
  const paidAfterCancel = update.status === "CON";
  return Prisma.sql`
WITH target AS (
  SELECT id, external_transaction_id, status, updated_at, hold_expires_at FROM (
    SELECT id, external_transaction_id, status, updated_at, hold_expires_at, 0 AS rank FROM orders
      WHERE external_transaction_id = ${lookup.externalTransactionId ?? null}
    UNION ALL
    SELECT id, external_transaction_id, status, updated_at, hold_expires_at, 1 AS rank FROM orders
      WHERE reference_number = ${lookup.referenceNumber ?? null}
  ) found ORDER BY rank LIMIT 1
), changed AS (
  UPDATE orders o SET
    status = COALESCE(${finalTo}::"OrderStatus", o.status),
    finalized_at = CASE WHEN ${finalTo}::text IS NULL THEN NULL ELSE now() END,
    payment_reference = COALESCE(${reference}, o.payment_reference),
    entity_number = COALESCE(${entity}, o.entity_number),
    cancel_reason = COALESCE(${update.cancelReason ?? null}, o.cancel_reason),
    -- A new payment reference keeps the units for the reference's life span (unless over the cap on such holds).
    hold_expires_at = CASE
      WHEN ${finalTo}::text IS NULL AND ${update.referenceHold ?? true}
        AND ${reference}::text IS NOT NULL AND ${reference} IS DISTINCT FROM o.payment_reference
      THEN GREATEST(o.hold_expires_at, now() + ${REFERENCE_HOLD_MINUTES}::int * interval '1 minute')
      ELSE o.hold_expires_at END,
    -- A change starts the reconcile sweep's schedule again (lib/orders/check-schedule.ts).
    status_check_due_at = NULL,
    updated_at = now()
  FROM target
  WHERE o.id = target.id AND o.status = 'PEN'
    AND (NOT ${onlyIfHoldExpired} OR o.hold_expires_at <= now())
    AND (
      ${finalTo}::text IS NOT NULL
      OR (${reference}::text IS NOT NULL AND ${reference} IS DISTINCT FROM o.payment_reference)
      OR (${entity}::text IS NOT NULL AND ${entity} IS DISTINCT FROM o.entity_number)
    )
  RETURNING o.id, o.external_transaction_id, o.status, o.updated_at, o.customer_email, o.payment_reference
), late AS (
  -- Paid after cancel: recorded once (the first CON); later ones find it recorded.
  UPDATE orders o SET
    paid_after_cancel_at = now(),
    attention_reason = COALESCE(o.attention_reason, ${PAID_AFTER_CANCEL}::text),
    attention_at = COALESCE(o.attention_at, now()),
    updated_at = now()
  FROM target
  WHERE ${paidAfterCancel} AND o.id = target.id AND o.status = 'CAN' AND o.paid_after_cancel_at IS NULL
  RETURNING o.id, o.external_transaction_id, o.updated_at
), enqueued AS (
  INSERT INTO jobs (type, dedupe_key, payload, order_id)
  SELECT job.type, job.type || ':' || job.external_transaction_id,
         jsonb_build_object('orderId', job.id, 'externalTransactionId', job.external_transaction_id), job.id
  FROM (
    ${finalJobRows(jobTypes)}
    UNION ALL
    SELECT late.id, late.external_transaction_id, ${JOB_TYPES.paidAfterCancelMail}::text FROM late
  ) job
  UNION ALL
  -- A bank reference stored for the first time (or a new one) while PEN: the shopper who gave an
  -- email gets it by mail, keyed by the reference so a repeated PEN mails nothing more.
  SELECT ${JOB_TYPES.shopperReferenceMail}::text,
         ${`${JOB_TYPES.shopperReferenceMail}:`}::text || changed.payment_reference || ':' || changed.external_transaction_id,
         jsonb_build_object('orderId', changed.id, 'externalTransactionId', changed.external_transaction_id,
                            'paymentReference', changed.payment_reference),
         changed.id
  FROM changed
  WHERE changed.status = 'PEN' AND changed.customer_email IS NOT NULL
    AND ${reference}::text IS NOT NULL AND changed.payment_reference = ${reference}
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id
)`;
}

/**
 * The jobs of a final transition, as rows (id, external_transaction_id, type) of the CTE `changed`
 * (its rows with id, external_transaction_id, status and customer_email): one per job type, the
 * shopper's paid mail only for an order with the shopper's email (jobsForTransition). Both
 * statements that finalise an order enqueue through it, so a CON has the same jobs whichever made it.
 */
function finalJobRows(jobTypes: readonly string[]): Prisma.Sql {
  return Prisma.sql`SELECT changed.id, changed.external_transaction_id, type FROM changed
      CROSS JOIN unnest(${jobTypes}::text[]) AS type
      WHERE changed.status <> 'PEN'
        AND (type <> ${JOB_TYPES.shopperPaidMail} OR changed.customer_email IS NOT NULL)`;
}

/** What {@link fulfilAfterCancelUpdate} did: moved the order and enqueued these jobs, or nothing. */
export interface FulfilAfterCancelUpdate {
  transitioned: boolean;
  /** The CON jobs it enqueued (none already had their key). */
  jobIds: string[];
}

/**
 * CAN → CON of an order paid after it was cancelled ({@link canFulfilAfterCancel}), in one
 * statement with the jobs of any CON (the same rows a payment's transition enqueues, keyed
 * `<type>:<externalTransactionId>`, so none is ever enqueued twice). The order counts as paid from
 * when its payment reached the shop (`finalized_at` = `paid_after_cancel_at`, what the figures
 * and the receipt read). Run it inside the caller's transaction, with the order's row locked and
 * its units taken again; it changes nothing for an order in any other state.
 */
export async function fulfilAfterCancelUpdate(tx: SqlRunner, orderId: string): Promise<FulfilAfterCancelUpdate> {
  const jobTypes = jobsForTransition("CON");
  const [row] = await tx.$queryRaw<{ transitioned: boolean; jobIds: string[] }[]>(Prisma.sql`
WITH changed AS (
  UPDATE orders o SET
    status = 'CON',
    finalized_at = COALESCE(o.paid_after_cancel_at, now()),
    status_check_due_at = NULL,
    updated_at = now()
  WHERE o.id = ${orderId}::uuid AND o.status = 'CAN' AND o.paid_after_cancel_at IS NOT NULL
  RETURNING o.id, o.external_transaction_id, o.status, o.customer_email
), enqueued AS (
  INSERT INTO jobs (type, dedupe_key, payload, order_id)
  SELECT job.type, job.type || ':' || job.external_transaction_id,
         jsonb_build_object('orderId', job.id, 'externalTransactionId', job.external_transaction_id), job.id
  FROM (${finalJobRows(jobTypes)}) job
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id::text
)
SELECT EXISTS (SELECT 1 FROM changed) AS transitioned,
       COALESCE((SELECT array_agg(id) FROM enqueued), ARRAY[]::text[]) AS "jobIds"`);
  return { transitioned: row?.transitioned ?? false, jobIds: row?.jobIds ?? [] };
}

/** The outcome of `update`, as SQL over the CTEs of {@link paymentUpdateCtes} (`target`, `changed` joined). */
export function outcomeSql(update: Pick<PaymentUpdate, "status" | "onlyIfHoldExpired">): Prisma.Sql {
  const finalUpdate = update.status !== "PEN";
  return Prisma.sql`CASE
  WHEN target.id IS NULL THEN 'not_found'
  WHEN changed.id IS NOT NULL AND changed.status <> 'PEN' THEN 'transitioned'
  WHEN changed.id IS NOT NULL THEN 'pending_updated'
  WHEN target.status = 'PEN' AND ${finalUpdate}
       AND (NOT ${update.onlyIfHoldExpired ?? false} OR target.hold_expires_at <= now()) THEN 'retry'
  WHEN ${update.status === "CON"} AND target.status = 'CAN' THEN 'paid_after_cancel'
  WHEN target.status <> 'PEN' THEN 'already_final'
  ELSE 'unchanged' END`;
}

/** The SELECT that turns the CTEs into one row for {@link runUpdateStatement}. */
export function outcomeSelect(update: Pick<PaymentUpdate, "status" | "onlyIfHoldExpired">): Prisma.Sql {
  return Prisma.sql`
SELECT ${outcomeSql(update)} AS outcome,
       target.id AS id,
       target.external_transaction_id AS "externalTransactionId",
       COALESCE(changed.status, target.status)::text AS status,
       COALESCE(changed.updated_at, late.updated_at, target.updated_at) AS "updatedAt",
       late.id IS NOT NULL AS "firstPaidAfterCancel",
       target.hold_expires_at <= now() AS "holdHadExpired"
FROM (SELECT 1) AS one
LEFT JOIN target ON true
LEFT JOIN changed ON true
LEFT JOIN late ON true`;
}

interface UpdateRow {
  outcome: UpdateOutcome | "retry";
  id: string | null;
  externalTransactionId: string | null;
  status: OrderStatus | null;
  updatedAt: Date | null;
  firstPaidAfterCancel?: boolean | null;
  holdHadExpired?: boolean | null;
}

function readUpdateResult(row: Omit<UpdateRow, "outcome"> & { outcome: UpdateOutcome }): UpdateResult {
  if (!row || !row.id || !row.externalTransactionId || !row.status || !row.updatedAt) return { outcome: "not_found" };
  return {
    outcome: row.outcome,
    ...(row.firstPaidAfterCancel ? { firstPaidAfterCancel: true } : {}),
    ...(row.holdHadExpired ? { holdHadExpired: true } : {}),
    order: {
      id: row.id,
      externalTransactionId: row.externalTransactionId,
      status: row.status,
      updatedAt: row.updatedAt,
    },
  };
}

/** Runs of one statement while other statements keep changing its order: at most this many. */
const MAX_STATEMENT_RUNS = 5;

/**
 * Runs a statement built on {@link paymentUpdateCtes} (whose writes are all conditional on
 * `target`) until its outcome is not `retry`. Each retry follows a change another statement
 * committed to the same order in the meantime; an order changes only a few times, so this ends.
 */
export async function runUpdateStatement(client: SqlRunner, statement: Prisma.Sql): Promise<UpdateResult> {
  for (let run = 1; ; run++) {
    const [row] = await client.$queryRaw<UpdateRow[]>(statement);
    if (!row) return { outcome: "not_found" };
    if (row.outcome !== "retry") return readUpdateResult({ ...row, outcome: row.outcome });
    if (run >= MAX_STATEMENT_RUNS)
      throw new Error(`the order kept changing under ${MAX_STATEMENT_RUNS} status updates`);
  }
}

/** Applies `update` to the order found by `lookup`, through the state machine, in one atomic statement. */
export async function applyPaymentUpdate(
  client: SqlRunner,
  lookup: OrderLookup,
  update: PaymentUpdate,
): Promise<UpdateResult> {
  return runUpdateStatement(client, Prisma.sql`${paymentUpdateCtes(lookup, update)} ${outcomeSelect(update)}`);
}
