import "server-only";
import type { Database } from "../db/client";
import type { Logger } from "../log";
import { PayServiceError, type PayClient } from "../pay";
import type { RetryPolicy } from "../pay/retry";
import { applyPaymentUpdate, type OrderStatus, type UpdateOutcome } from "./state-machine";

/**
 * Endpoint C and the reconcile sweep (contract 4.2 C, 4.1): the order's status as we know it,
 * and — when a pending order has gone quiet — what the service says, applied through the same
 * state machine as the webhook, so the two can never disagree. The webhook stays the primary
 * source; this is the safety net for a notification that is late or lost.
 */

/** `order_` + a lower-case UUID v4: the only form we issue (and the database accepts). */
export const EXTERNAL_TRANSACTION_ID = /^order_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** `?refresh=1` asks the service at most this often per order, however often it is called. */
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
  updatedAt: string;
}

export interface StatusDeps {
  db: Database;
  pay: PayClient;
  /** A pending order without news for this long is checked with the service. */
  staleSeconds: number;
  log: Logger;
  now?: () => number;
}

export type RefreshOutcome = UpdateOutcome | "not_at_service" | "abandoned" | "service_failed" | "skipped";

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
};

function toView(order: OrderRow): OrderStatusView {
  return {
    externalTransactionId: order.externalTransactionId,
    status: order.status,
    referenceNumber: order.referenceNumber,
    amountAoa: order.amountAoa,
    ...(order.paymentReference ? { paymentReference: order.paymentReference } : {}),
    ...(order.entityNumber ? { entityNumber: order.entityNumber } : {}),
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
  const now = (deps.now ?? Date.now)();
  const lastNews = Math.max(order.updatedAt.getTime(), order.statusCheckedAt?.getTime() ?? 0);
  const stale = now - lastNews >= deps.staleSeconds * 1000;
  const refreshAllowed = !order.statusCheckedAt || now - order.statusCheckedAt.getTime() >= MIN_REFRESH_INTERVAL_MS;
  if (order.status !== "PEN" || !(stale || (options.refresh && refreshAllowed)))
    return { view: toView(order), refresh: "skipped" };

  const refresh = await refreshFromService(order, deps);
  const current = await deps.db.order.findUniqueOrThrow({ where: { id: order.id }, select: viewFields });
  return { view: toView(current), refresh };
}

/** Asks the service about one pending order and applies the answer through the state machine. */
export async function refreshFromService(
  order: Pick<OrderRow, "id" | "externalTransactionId" | "referenceNumber" | "createdAt">,
  deps: StatusDeps,
): Promise<RefreshOutcome> {
  const lookup = { externalTransactionId: order.externalTransactionId };
  let answer;
  try {
    answer = await deps.pay.paymentByExternalTransaction(order.externalTransactionId, { retry: STATUS_QUERY_RETRY });
  } catch (error) {
    if (!(error instanceof PayServiceError)) throw error;
    deps.log("warn", "order.status_check_failed", {
      externalTransactionId: order.externalTransactionId,
      kind: error.kind,
      requestId: error.requestId,
    });
    // A failed check counts as a check: during an outage each order is asked once per staleness
    // window, not on every poll and every sweep.
    await applyPaymentUpdate(deps.db, lookup, { status: "PEN", markStatusChecked: true });
    return "service_failed";
  }

  if (!answer.found) {
    const age = (deps.now ?? Date.now)() - order.createdAt.getTime();
    if (!order.referenceNumber && age >= ABANDONED_AFTER_MS) {
      // Created here but never at the service (the process stopped in between): nobody can pay it.
      await applyPaymentUpdate(deps.db, lookup, {
        status: "CAN",
        cancelReason: "abandoned",
        markStatusChecked: true,
      });
      return "abandoned";
    }
    await applyPaymentUpdate(deps.db, lookup, { status: "PEN", markStatusChecked: true });
    return "not_at_service";
  }
  // The service knows it, so we missed its reference (we stopped before storing it): store it now.
  if (!order.referenceNumber && answer.referenceNumber)
    await deps.db.order.updateMany({
      where: { id: order.id, referenceNumber: null },
      data: { referenceNumber: answer.referenceNumber },
    });
  const result = await applyPaymentUpdate(deps.db, lookup, {
    // An answer without a recognisable status changes nothing (docs/contract-decisions.md).
    status: answer.status ?? "PEN",
    paymentReference: answer.paymentReference,
    entityNumber: answer.entityNumber,
    markStatusChecked: true,
  });
  if (result.outcome === "transitioned")
    deps.log("info", "order.status_fallback_applied", {
      externalTransactionId: order.externalTransactionId,
      status: result.order?.status,
    });
  return result.outcome;
}

export interface ReconcileSummary {
  checked: number;
  transitioned: number;
  abandoned: number;
  failed: number;
}

/** The sweep: every pending order without news for `staleSeconds`, oldest first, at most `limit`. */
export async function reconcilePendingOrders(deps: StatusDeps & { limit?: number }): Promise<ReconcileSummary> {
  const now = (deps.now ?? Date.now)();
  const quietSince = new Date(now - deps.staleSeconds * 1000);
  const orders = await deps.db.order.findMany({
    where: {
      status: "PEN",
      updatedAt: { lte: quietSince },
      OR: [{ statusCheckedAt: null }, { statusCheckedAt: { lte: quietSince } }],
    },
    orderBy: { updatedAt: "asc" },
    take: deps.limit ?? 100,
    select: { id: true, externalTransactionId: true, referenceNumber: true, createdAt: true },
  });
  const summary: ReconcileSummary = { checked: 0, transitioned: 0, abandoned: 0, failed: 0 };
  for (const order of orders) {
    const outcome = await refreshFromService(order, deps);
    summary.checked += 1;
    if (outcome === "transitioned") summary.transitioned += 1;
    if (outcome === "abandoned") summary.abandoned += 1;
    if (outcome === "service_failed") summary.failed += 1;
  }
  return summary;
}
