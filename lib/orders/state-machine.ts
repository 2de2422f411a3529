import "server-only";
import { Prisma } from "../generated/prisma/client";
import { jobsForTransition } from "../jobs/catalog";
import type { PaymentStatus } from "../pay/payment-status";

/**
 * The one order state machine (contract 3): PEN → CON, PEN → CAN; CON and CAN are final.
 *
 * Every status change — webhook, status fallback, reconcile sweep, a failed creation — is the
 * statement built here: a conditional `UPDATE … WHERE status = 'PEN'` whose side effects are
 * inserted as jobs by the same statement (outbox). PostgreSQL re-checks the condition on the
 * latest row version when concurrent updates race (READ COMMITTED), so of any number of
 * simultaneous duplicates exactly one changes the row and enqueues its jobs, and a final state
 * never changes. One statement is one round trip and atomic without an explicit transaction,
 * which keeps the webhook fast; callers that must record something in the same breath (the
 * webhook log) append their own CTE to it.
 */

export type OrderStatus = PaymentStatus;

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = { PEN: ["CON", "CAN"], CON: [], CAN: [] };

export const isFinal = (status: OrderStatus) => ALLOWED[status].length === 0;

export const canTransition = (from: OrderStatus, to: OrderStatus) => ALLOWED[from].includes(to);

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
  /** Only for our own cancellation of an order the shopper could never pay. */
  cancelReason?: string;
  /** Set by the status fallback, so it asks the service at most once per staleness window. */
  markStatusChecked?: boolean;
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
  | "not_found";

export interface UpdateResult {
  outcome: UpdateOutcome;
  order?: { id: string; externalTransactionId: string; status: OrderStatus; updatedAt: Date };
}

/**
 * The CTEs `target` (the order as found), `changed` (the row this statement changed, if any) and
 * `enqueued` (its jobs). Follow it with `, more AS (…) SELECT …` or with {@link outcomeSelect}.
 */
export function paymentUpdateCtes(lookup: OrderLookup, update: PaymentUpdate): Prisma.Sql {
  const finalTo = update.status === "PEN" ? null : update.status;
  const reference = update.paymentReference ?? null;
  const entity = update.entityNumber ?? null;
  const jobTypes = finalTo ? jobsForTransition(finalTo) : [];
  return Prisma.sql`
WITH target AS (
  SELECT id, external_transaction_id, status FROM (
    SELECT id, external_transaction_id, status, 0 AS rank FROM orders
      WHERE external_transaction_id = ${lookup.externalTransactionId ?? null}
    UNION ALL
    SELECT id, external_transaction_id, status, 1 AS rank FROM orders
      WHERE reference_number = ${lookup.referenceNumber ?? null}
  ) found ORDER BY rank LIMIT 1
), changed AS (
  UPDATE orders o SET
    status = COALESCE(${finalTo}::"OrderStatus", o.status),
    finalized_at = CASE WHEN ${finalTo}::text IS NULL THEN NULL ELSE now() END,
    payment_reference = COALESCE(${reference}, o.payment_reference),
    entity_number = COALESCE(${entity}, o.entity_number),
    cancel_reason = COALESCE(${update.cancelReason ?? null}, o.cancel_reason),
    status_checked_at = CASE WHEN ${update.markStatusChecked ?? false} THEN now() ELSE o.status_checked_at END,
    updated_at = now()
  FROM target
  WHERE o.id = target.id AND o.status = 'PEN' AND (
    ${finalTo}::text IS NOT NULL
    OR (${reference}::text IS NOT NULL AND ${reference} IS DISTINCT FROM o.payment_reference)
    OR (${entity}::text IS NOT NULL AND ${entity} IS DISTINCT FROM o.entity_number)
  )
  RETURNING o.id, o.external_transaction_id, o.status, o.updated_at
), enqueued AS (
  INSERT INTO jobs (type, dedupe_key, payload)
  SELECT job.type, job.type || ':' || changed.external_transaction_id,
         jsonb_build_object('orderId', changed.id, 'externalTransactionId', changed.external_transaction_id)
  FROM changed CROSS JOIN unnest(${jobTypes}::text[]) AS job(type)
  WHERE changed.status <> 'PEN'
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id
), touched AS (
  -- A fallback check that found no news still counts as a check.
  UPDATE orders o SET status_checked_at = now()
  FROM target
  WHERE ${update.markStatusChecked ?? false} AND o.id = target.id AND NOT EXISTS (SELECT 1 FROM changed)
  RETURNING o.id
)`;
}

/** The outcome, as SQL over the CTEs of {@link paymentUpdateCtes}. */
export const outcomeSql = Prisma.sql`CASE
  WHEN target.id IS NULL THEN 'not_found'
  WHEN changed.id IS NOT NULL AND changed.status <> 'PEN' THEN 'transitioned'
  WHEN changed.id IS NOT NULL THEN 'pending_updated'
  WHEN target.status <> 'PEN' THEN 'already_final'
  ELSE 'unchanged' END`;

/** The SELECT that turns the CTEs into one row for {@link readUpdateResult}. */
export const outcomeSelect = Prisma.sql`
SELECT ${outcomeSql} AS outcome,
       target.id AS id,
       target.external_transaction_id AS "externalTransactionId",
       COALESCE(changed.status, current.status)::text AS status,
       COALESCE(changed.updated_at, current.updated_at) AS "updatedAt"
FROM (SELECT 1) AS one
LEFT JOIN target ON true
LEFT JOIN changed ON true
LEFT JOIN orders current ON current.id = target.id`;

export interface UpdateRow {
  outcome: UpdateOutcome;
  id: string | null;
  externalTransactionId: string | null;
  status: OrderStatus | null;
  updatedAt: Date | null;
}

export function readUpdateResult(row: UpdateRow | undefined): UpdateResult {
  if (!row || !row.id || !row.externalTransactionId || !row.status || !row.updatedAt) return { outcome: "not_found" };
  return {
    outcome: row.outcome,
    order: {
      id: row.id,
      externalTransactionId: row.externalTransactionId,
      status: row.status,
      updatedAt: row.updatedAt,
    },
  };
}

type SqlRunner = { $queryRaw<T>(query: Prisma.Sql): Promise<T> };

/** Applies `update` to the order found by `lookup`, through the state machine, in one atomic statement. */
export async function applyPaymentUpdate(
  client: SqlRunner,
  lookup: OrderLookup,
  update: PaymentUpdate,
): Promise<UpdateResult> {
  const rows = await client.$queryRaw<UpdateRow[]>(Prisma.sql`${paymentUpdateCtes(lookup, update)} ${outcomeSelect}`);
  return readUpdateResult(rows[0]);
}
