import "server-only";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { Logger } from "../log";
import { PayServiceError, type PayClient } from "./pay-client";
import type { RetryPolicy } from "../pay/api/retry";
import { nextCheckDueSql } from "./check-schedule";
import { applyWithReferenceHoldCap, referencePayBy } from "./reference-holds";
import { applyPaymentUpdate, type OrderStatus, type UpdateOutcome } from "./state-machine";

/**
 * Endpoint C and every other check of an order with the service (contract 4.2 C, 4.1): the
 * order's status as we know it, and, when a pending order has gone quiet, was asked to refresh,
 * or its stock hold ran out, what the service says, applied through the same state machine as the
 * webhook, so the two can never disagree. The webhook stays the primary source; this is the
 * safety net for a notification that is late or lost.
 */

/** `?refresh=1`, and an order whose hold ran out, ask the service at most this often per order. */
export const MIN_REFRESH_INTERVAL_MS = 2_000;
/** An order the service never heard of, this old, was abandoned mid-creation: cancel it. */
export const ABANDONED_AFTER_MS = 15 * 60_000;
/**
 * The status query's retries: someone is waiting (a polling page, the sweep's next order) and
 * the stored status is a fine answer meanwhile, so fail fast instead of the client's full chain.
 */
export const STATUS_QUERY_RETRY: Partial<RetryPolicy> = { maxAttempts: 2, timeoutMs: 3_000 };

export interface OrderStatusView {
  externalTransactionId: string;
  status: OrderStatus;
  referenceNumber: string | null;
  amountAoa: number;
  paymentReference?: string;
  entityNumber?: string;
  /** Pending with a bank reference whose hold ends before the reference does: pay by then (ISO). */
  payBy?: string;
  updatedAt: string;
}

export interface StatusDeps {
  db: Database;
  pay: PayClient;
  /** Endpoint C asks the service about a pending order without news for this long (the sweep keeps its own schedule). */
  staleSeconds: number;
  log: Logger;
  now?: () => number;
}

/** What a check needs besides the order: everything of {@link StatusDeps} but the staleness rule. */
export type CheckDeps = Omit<StatusDeps, "staleSeconds">;

export type RefreshOutcome =
  | UpdateOutcome
  | "not_at_service"
  | "abandoned"
  | "hold_expired"
  | "service_failed"
  /** Not due, or another request holds this window's check. */
  | "skipped";

/**
 * The outcomes of a check that changed the order: the one list the status route (which then
 * refreshes the cached pages), the back office's "ask the service" and the sweep's count use.
 */
export const CHANGING_OUTCOMES: readonly RefreshOutcome[] = [
  "transitioned",
  "abandoned",
  "hold_expired",
  "paid_after_cancel",
];
export const changedTheOrder = (outcome: RefreshOutcome) => CHANGING_OUTCOMES.includes(outcome);
/** A new bank reference leaves the order pending but may have enqueued its mail to the shopper. */
export const storedAReference = (outcome: RefreshOutcome) => outcome === "pending_updated";

const viewFields = {
  id: true,
  externalTransactionId: true,
  status: true,
  referenceNumber: true,
  amountAoa: true,
  paymentReference: true,
  entityNumber: true,
  createdAt: true,
  updatedAt: true,
  statusCheckedAt: true,
  holdExpiresAt: true,
} as const;

type OrderRow = {
  id: string;
  externalTransactionId: string;
  status: OrderStatus;
  referenceNumber: string | null;
  amountAoa: number;
  paymentReference: string | null;
  entityNumber: string | null;
  createdAt: Date;
  updatedAt: Date;
  statusCheckedAt: Date | null;
  holdExpiresAt: Date;
};

/** What a check needs to know about the order it claimed. */
export interface ClaimedOrder {
  id: string;
  externalTransactionId: string;
  referenceNumber: string | null;
  amountAoa: number;
  createdAt: Date;
  /** Its stock hold had run out when it was claimed: the check ends the hold unless the service keeps it. */
  holdExpired: boolean;
}

/**
 * The one way a check claims pending orders (the status endpoint, the expiry of holds, the
 * sweep): up to `limit` of them matching `where` (SQL over `o`) whose last check is at least
 * `minIntervalMs` old, in `orderBy` order. The claim sets `status_checked_at = now()` and the
 * sweep's next step (`status_check_due_at`, lib/orders/check-schedule.ts), so a check made for a
 * page or a hold also counts as the sweep's. Rows another claim is locking at this moment are
 * skipped (`SKIP LOCKED`), and a row another claim has just committed no longer qualifies, so of
 * any number of concurrent claimers — requests, instances, sweeps — exactly one gets each order
 * per window: nobody can turn page polls into traffic that pushes the shop into the service's
 * rate limit.
 */
export function claimChecks(
  db: Database,
  claim: {
    where: Prisma.Sql;
    orderBy: Prisma.Sql;
    minIntervalMs: number;
    limit: number;
    /** PEN by default; CAN for the orders the shop cancelled whose payment may still come (lib/orders/reconcile.ts). */
    status?: "PEN" | "CAN";
  },
): Promise<ClaimedOrder[]> {
  if (claim.limit < 1) return Promise.resolve([]);
  return db.$queryRaw<ClaimedOrder[]>(Prisma.sql`
WITH due AS (
  SELECT o.id AS due_id FROM orders o
  WHERE o.status = ${claim.status ?? "PEN"}::"OrderStatus" AND ${claim.where}
    AND (o.status_checked_at IS NULL
         OR o.status_checked_at <= now() - ${Math.round(claim.minIntervalMs)}::int * interval '1 millisecond')
  ORDER BY ${claim.orderBy}
  LIMIT ${claim.limit}::int
  FOR UPDATE SKIP LOCKED
)
UPDATE orders SET status_checked_at = now(), status_check_due_at = ${nextCheckDueSql()}
FROM due WHERE orders.id = due.due_id
RETURNING id, external_transaction_id AS "externalTransactionId", reference_number AS "referenceNumber",
          amount_aoa AS "amountAoa", created_at AS "createdAt",
          orders.status = 'PEN' AND hold_expires_at <= now() AS "holdExpired"`);
}

function toView(order: OrderRow): OrderStatusView {
  const payBy = referencePayBy(order);
  return {
    externalTransactionId: order.externalTransactionId,
    status: order.status,
    referenceNumber: order.referenceNumber,
    amountAoa: order.amountAoa,
    ...(order.paymentReference ? { paymentReference: order.paymentReference } : {}),
    ...(order.entityNumber ? { entityNumber: order.entityNumber } : {}),
    ...(payBy ? { payBy: payBy.toISOString() } : {}),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/** The order's status, refreshed from the service first when it is pending and stale (or asked to). */
export async function orderStatus(
  externalTransactionId: string,
  options: { refresh: boolean },
  deps: StatusDeps,
): Promise<{ view: OrderStatusView; refresh: RefreshOutcome } | null> {
  const order = await deps.db.order.findUnique({ where: { externalTransactionId }, select: viewFields });
  if (!order) return null;
  const window = checkWindow(order, options, deps);
  if (!window) return { view: toView(order), refresh: "skipped" };

  const [claimed] = await claimChecks(deps.db, {
    where: Prisma.sql`o.id = ${order.id}::uuid
      AND (o.hold_expires_at <= now() OR o.updated_at <= now() - ${window.quietMs}::int * interval '1 millisecond')`,
    orderBy: Prisma.sql`o.id`,
    minIntervalMs: window.minIntervalMs,
    limit: 1,
  });
  if (!claimed) return { view: toView(order), refresh: "skipped" };
  const { outcome: refresh } = await refreshFromService(claimed, deps);
  const current = await deps.db.order.findUniqueOrThrow({ where: { id: order.id }, select: viewFields });
  return { view: toView(current), refresh };
}

interface CheckWindow {
  /** The last check must be at least this old. */
  minIntervalMs: number;
  /** And the order without news for at least this long. */
  quietMs: number;
}

/**
 * Whether this request may ask the service, by the app's clock: a quick filter that spares a
 * database write on most polls. The claim decides, by the database's clock.
 */
function checkWindow(order: OrderRow, options: { refresh: boolean }, deps: StatusDeps): CheckWindow | null {
  if (order.status !== "PEN") return null;
  const now = (deps.now ?? Date.now)();
  const staleMs = deps.staleSeconds * 1000;
  const sinceCheck = order.statusCheckedAt ? now - order.statusCheckedAt.getTime() : Infinity;
  // A refresh, or a hold that ran out, is worth a check every MIN_REFRESH_INTERVAL_MS.
  if (options.refresh || order.holdExpiresAt.getTime() <= now)
    return sinceCheck >= MIN_REFRESH_INTERVAL_MS ? { minIntervalMs: MIN_REFRESH_INTERVAL_MS, quietMs: 0 } : null;
  const quiet = now - order.updatedAt.getTime() >= staleMs && sinceCheck >= staleMs;
  return quiet ? { minIntervalMs: staleMs, quietMs: staleMs } : null;
}

export interface RefreshOptions {
  /** Overrides of {@link STATUS_QUERY_RETRY}, e.g. the shorter deadline of a shopper's request. */
  retry?: Partial<RetryPolicy>;
}

export interface CheckResult {
  outcome: RefreshOutcome;
  /** The service answered (found or not); false when the call failed, which tells a sweep the service may be down. */
  serviceAnswered: boolean;
}

/**
 * Asks the service about one pending order whose check the caller has claimed, and applies the
 * answer through the state machine; then, if the order's hold has run out and it is still
 * pending, cancels it (see the module comment).
 */
export async function refreshFromService(
  order: ClaimedOrder,
  deps: CheckDeps,
  options: RefreshOptions = {},
): Promise<CheckResult> {
  const answered = (outcome: RefreshOutcome): CheckResult => ({ outcome, serviceAnswered: true });
  const lookup = { externalTransactionId: order.externalTransactionId };
  let answer;
  try {
    answer = await deps.pay.paymentByExternalTransaction(order.externalTransactionId, {
      retry: { ...STATUS_QUERY_RETRY, ...options.retry },
      expectedAmountAoa: order.amountAoa,
    });
  } catch (error) {
    if (!(error instanceof PayServiceError)) throw error;
    deps.log(error.kind === "invalid_response" ? "error" : "warn", "order.status_check_failed", {
      externalTransactionId: order.externalTransactionId,
      kind: error.kind,
      requestId: error.requestId,
    });
    // The claim already counts as this window's check. No answer ends an expired hold too.
    return { outcome: (await expireHold(order, deps)) ? "hold_expired" : "service_failed", serviceAnswered: false };
  }

  if (!answer.found) {
    const age = (deps.now ?? Date.now)() - order.createdAt.getTime();
    if (!order.referenceNumber && age >= ABANDONED_AFTER_MS) {
      // Created here but never at the service (the process stopped in between): nobody can pay it.
      await applyPaymentUpdate(deps.db, lookup, { status: "CAN", cancelReason: "abandoned" });
      return answered("abandoned");
    }
    return answered((await expireHold(order, deps)) ? "hold_expired" : "not_at_service");
  }
  // The service knows it, so we missed its reference (we stopped before storing it): store it now.
  if (!order.referenceNumber && answer.referenceNumber)
    await deps.db.order.updateMany({
      where: { id: order.id, referenceNumber: null },
      data: { referenceNumber: answer.referenceNumber },
    });
  const update = {
    // An answer without a recognisable status changes nothing (docs/contract-decisions.md).
    status: answer.status ?? "PEN",
    paymentReference: answer.paymentReference,
    entityNumber: answer.entityNumber,
  };
  // A new bank reference stretches the order's hold only under the cap on such holds.
  const result = await applyWithReferenceHoldCap(deps.db, lookup, update, (client, capped) =>
    applyPaymentUpdate(client, lookup, capped),
  );
  if (result.outcome === "transitioned")
    deps.log("info", "order.status_fallback_applied", {
      externalTransactionId: order.externalTransactionId,
      status: result.order?.status,
    });
  if (result.outcome === "paid_after_cancel")
    deps.log("error", "order.paid_after_cancel", { externalTransactionId: order.externalTransactionId });
  if (result.order?.status === "PEN" && (await expireHold(order, deps))) return answered("hold_expired");
  return answered(result.outcome);
}

/**
 * The shop's own cancellation of a pending order whose hold had run out when it was claimed
 * (and still has: a new payment reference, or a webhook that arrived meanwhile, keeps it), when
 * the service brought no CON or CAN (still PEN, not known, no answer): `cancel_reason =
 * 'hold_expired'`, and the usual CAN jobs release its stock and reopen its cart.
 * True when it cancelled. An order whose hold still runs costs no statement here.
 */
async function expireHold(order: ClaimedOrder, deps: CheckDeps): Promise<boolean> {
  if (!order.holdExpired) return false;
  const result = await applyPaymentUpdate(
    deps.db,
    { externalTransactionId: order.externalTransactionId },
    { status: "CAN", cancelReason: "hold_expired", onlyIfHoldExpired: true },
  );
  if (result.outcome !== "transitioned") return false;
  deps.log("info", "order.hold_expired", { externalTransactionId: order.externalTransactionId });
  return true;
}
