import "server-only";
import { Prisma } from "../generated/prisma/client";
import { claimExpiredHolds } from "./holds";
import { checkDueSql, MIN_SWEEP_INTERVAL_MS } from "./check-schedule";
import { REFERENCE_HOLD_MINUTES } from "./state-machine";
import {
  changedTheOrder,
  claimChecks,
  refreshFromService,
  type CheckDeps,
  type CheckResult,
  type ClaimedOrder,
} from "./status";

/**
 * The reconcile sweep (`npm run reconcile`, the worker every minute, `/api/cron/reconcile`): it
 * ends pending orders whose stock hold has run out, then asks the service (lib/orders/status.ts)
 * about pending orders whose webhook may be late or lost, and about orders the shop cancelled
 * itself while a bank reference of theirs could still be paid (REFERENCE_HOLD_MINUTES after the
 * cancellation): a CON found then is recorded as paid after cancel.
 */

export interface SweepOptions {
  /** At most this many checks per sweep; default 100. */
  limit?: number;
  /** No new batch after this instant (ms since the epoch); default 25 s from the start. */
  deadline?: number;
  /** Checks at a time; default 4. */
  concurrency?: number;
}

export interface ReconcileSummary {
  checked: number;
  /** Checks that changed an order (lib/orders/status.ts CHANGING_OUTCOMES): its jobs are waiting. */
  changed: number;
  transitioned: number;
  abandoned: number;
  /** Orders the shop cancelled because their hold ran out. */
  holdsExpired: number;
  /** Orders the shop had cancelled that the service says were paid (recorded for attention). */
  paidAfterCancel: number;
  failed: number;
  /** Why the sweep stopped before it ran out of orders to check, if it did. */
  stoppedEarly: "limit" | "deadline" | "service_unavailable" | null;
}

export const DEFAULT_SWEEP_LIMIT = 100;
export const DEFAULT_SWEEP_BUDGET_MS = 25_000;

type Claimer = (batch: number) => Promise<ClaimedOrder[]>;

/**
 * - **A budget**: an order is asked about only when its step of the back-off has come
 *   (lib/orders/check-schedule.ts), never within a minute of any other check, so an abandoned
 *   order costs about ten queries a day, not one a minute.
 * - **Fair**: among the due orders the least recently asked go first (never asked first), and a
 *   check moves the order to the back. After the expired holds (their units are waiting for
 *   shoppers), pending and shop-cancelled orders take turns a batch at a time, so each kind has
 *   at least half of what is left of the sweep whenever both have orders due: neither starves.
 * - **Bounded**: at most `limit` orders and nothing new after `deadline`, so a serverless
 *   function is not cut off mid-sweep (each check is itself bounded by STATUS_QUERY_RETRY).
 * - **Stops early** when a whole batch of calls failed: the service is down, and waiting on
 *   every order would only fill the sweep with timeouts. The next sweep tries again.
 * - **Concurrent sweeps never ask about the same order**: orders are claimed in batches with
 *   `FOR UPDATE SKIP LOCKED`, and a claim moves the order's next step, so another sweep (another
 *   instance, the cron and the worker) neither waits for them nor takes them.
 */
export async function reconcilePendingOrders(deps: CheckDeps & SweepOptions): Promise<ReconcileSummary> {
  const now = deps.now ?? Date.now;
  const limit = deps.limit ?? DEFAULT_SWEEP_LIMIT;
  const deadline = deps.deadline ?? now() + DEFAULT_SWEEP_BUDGET_MS;
  const concurrency = Math.max(1, deps.concurrency ?? 4);
  const summary: ReconcileSummary = {
    checked: 0,
    changed: 0,
    transitioned: 0,
    abandoned: 0,
    holdsExpired: 0,
    paidAfterCancel: 0,
    failed: 0,
    stoppedEarly: null,
  };

  // Expired holds first, alone; then the quiet pending and the shop-cancelled orders in turns.
  const stages: Claimer[][] = [
    [(batch) => claimExpiredHolds(deps.db, { limit: batch })],
    [(batch) => claimQuietOrders(deps, batch), (batch) => claimShopCancelledOrders(deps, batch)],
  ];
  for (const stage of stages) {
    const withOrdersDue = [...stage];
    while (withOrdersDue.length > 0) {
      for (const claim of [...withOrdersDue]) {
        if (summary.checked >= limit) return { ...summary, stoppedEarly: "limit" };
        if (now() >= deadline) return { ...summary, stoppedEarly: "deadline" };
        const orders = await claim(Math.min(concurrency, limit - summary.checked));
        if (orders.length === 0) {
          withOrdersDue.splice(withOrdersDue.indexOf(claim), 1);
          continue;
        }
        const results = await Promise.all(orders.map((order) => refreshFromService(order, deps)));
        for (const result of results) tally(summary, result);
        if (results.every((result) => !result.serviceAnswered))
          return { ...summary, stoppedEarly: "service_unavailable" };
      }
    }
  }
  return summary;
}

function tally(summary: ReconcileSummary, result: CheckResult): void {
  summary.checked += 1;
  if (changedTheOrder(result.outcome)) summary.changed += 1;
  if (result.outcome === "transitioned") summary.transitioned += 1;
  if (result.outcome === "abandoned") summary.abandoned += 1;
  if (result.outcome === "hold_expired") summary.holdsExpired += 1;
  if (result.outcome === "paid_after_cancel") summary.paidAfterCancel += 1;
  if (!result.serviceAnswered) summary.failed += 1;
}

/** Claims up to `batch` pending orders whose hold still runs and whose check is due, least recently asked first. */
function claimQuietOrders(deps: CheckDeps, batch: number): Promise<ClaimedOrder[]> {
  return claimChecks(deps.db, {
    where: Prisma.sql`o.hold_expires_at > now() AND ${checkDueSql()}`,
    orderBy: Prisma.sql`o.status_checked_at ASC NULLS FIRST, o.created_at, o.id`,
    minIntervalMs: MIN_SWEEP_INTERVAL_MS,
    limit: batch,
  });
}

/**
 * Claims up to `batch` orders the shop cancelled because their hold ran out, within the last
 * REFERENCE_HOLD_MINUTES, not yet known to be paid, whose check is due, least recently asked
 * first: the service has them, a payment of theirs may still arrive, and its webhook may be lost.
 * The shop's other cancellations cannot be paid and are left alone: an `abandoned` order never
 * reached the service, a failed creation never gave the shopper a reference, and an order the
 * service cancelled is cancelled there.
 */
function claimShopCancelledOrders(deps: CheckDeps, batch: number): Promise<ClaimedOrder[]> {
  return claimChecks(deps.db, {
    status: "CAN",
    where: Prisma.sql`o.cancel_reason = 'hold_expired' AND o.reference_number IS NOT NULL AND o.paid_after_cancel_at IS NULL
      AND o.finalized_at > now() - ${REFERENCE_HOLD_MINUTES}::int * interval '1 minute' AND ${checkDueSql()}`,
    orderBy: Prisma.sql`o.status_checked_at ASC NULLS FIRST, o.finalized_at, o.id`,
    minIntervalMs: MIN_SWEEP_INTERVAL_MS,
    limit: batch,
  });
}
