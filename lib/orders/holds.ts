import "server-only";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { jobsForTransition } from "../jobs/job-types";
import { jobsOfOrders } from "../jobs/queue";
import {
  claimChecks,
  MIN_REFRESH_INTERVAL_MS,
  refreshFromService,
  type CheckDeps,
  type ClaimedOrder,
  type RefreshOptions,
} from "./status";

/**
 * Stock holds that run out (docs/contract-decisions.md, "stock holds"). An unpaid order keeps its
 * units until `hold_expires_at` (ORDER_HOLD_SECONDS, longer once it holds a bank reference); when
 * a hold runs out the shop asks the service first and applies a CON or CAN, otherwise it cancels
 * the order itself (lib/orders/status.ts), and the CAN jobs put the units back and reopen the cart.
 */

/** A shopper is waiting: at most this many orders per request, asked all at once. */
export const ON_REQUEST_LIMIT = 10;
/** A shopper is waiting: one attempt of 1.5 s per order (token included), then the shop decides alone. */
export const ON_REQUEST_RETRY: RefreshOptions["retry"] = { maxAttempts: 1, timeoutMs: 1_500 };

/**
 * Claims up to `limit` pending orders whose hold has run out (only those holding units of one of
 * `variantIds`, when given), soonest expired first, each at most once per
 * MIN_REFRESH_INTERVAL_MS (lib/orders/status.ts, `claimChecks`).
 */
export function claimExpiredHolds(
  db: Database,
  options: { limit: number; variantIds?: readonly string[] },
): Promise<ClaimedOrder[]> {
  const variantIds = options.variantIds ? [...options.variantIds] : null;
  return claimChecks(db, {
    where: Prisma.sql`o.hold_expires_at <= now() AND (${variantIds}::uuid[] IS NULL OR EXISTS (
      SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.variant_id = ANY(${variantIds}::uuid[])))`,
    orderBy: Prisma.sql`o.hold_expires_at, o.id`,
    minIntervalMs: MIN_REFRESH_INTERVAL_MS,
    limit: options.limit,
  });
}

export interface ReleaseDeps extends CheckDeps {
  /** Runs these jobs now (the cancelled orders' stock release and cart reopening). */
  runJobsNow: (jobIds: string[]) => Promise<unknown>;
}

/**
 * On a shopper's request: ends the expired holds on `variantIds` (at most ON_REQUEST_LIMIT, each
 * service call within ON_REQUEST_RETRY) and puts the units of those that ended CAN back on the
 * shelf before returning. Returns how many orders ended CAN; the caller tries its reservation
 * again when that is more than 0. So expired holds never make a checkout or an add to cart wait
 * for the reconcile sweep (the worker, the cron route, `npm run reconcile`), which ends the rest.
 */
export async function releaseExpiredHolds(variantIds: readonly string[], deps: ReleaseDeps): Promise<number> {
  const claimed = await claimExpiredHolds(deps.db, { limit: ON_REQUEST_LIMIT, variantIds });
  if (claimed.length === 0) return 0;
  await Promise.all(claimed.map((order) => refreshFromService(order, deps, { retry: ON_REQUEST_RETRY })));
  // Only the orders that ended CAN (the shop's expiry, or the service's CAN) have these jobs.
  const jobs = await jobsOfOrders(
    deps.db,
    jobsForTransition("CAN"),
    claimed.map((order) => order.externalTransactionId),
  );
  if (jobs.length === 0) return 0;
  await deps.runJobsNow(jobs.map((job) => job.id));
  return new Set(jobs.map((job) => job.externalTransactionId)).size;
}
