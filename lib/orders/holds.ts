import "server-only";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { dedupeKeyOf, jobsForTransition } from "../jobs/catalog";
import {
  CLAIMED_ORDER_COLUMNS,
  MIN_REFRESH_INTERVAL_MS,
  refreshFromService,
  type CheckDeps,
  type CheckResult,
  type ClaimedOrder,
  type RefreshOptions,
} from "./status";

/**
 * Stock holds that run out (docs/contract-decisions.md, "stock holds"). An unpaid order keeps
 * its units until `hold_expires_at`: ORDER_HOLD_SECONDS from its creation, or a payment
 * reference's life span plus a margin once the service has issued one (the state machine
 * extends it). When a hold runs out the shop asks the service first and applies a CON or CAN;
 * otherwise it cancels the order itself (lib/orders/status.ts), and the CAN jobs put the units
 * back and reopen the cart.
 *
 * Expired holds never wait for a cron or a worker: a checkout (or an add to cart) that needs
 * units held by expired orders ends those holds on the spot with {@link releaseExpiredHolds} —
 * bounded work, one short service call per order — and the reconcile sweep (the worker, the
 * cron route, `npm run reconcile`) ends the rest.
 */

/** A shopper is waiting: at most this many orders per request, asked all at once. */
export const ON_REQUEST_LIMIT = 10;
/** A shopper is waiting: one attempt of 1.5 s per order (token included), then the shop decides alone. */
export const ON_REQUEST_RETRY: RefreshOptions["retry"] = { maxAttempts: 1, timeoutMs: 1_500 };

/**
 * Claims up to `limit` pending orders whose hold has run out (only those holding one of
 * `productIds`, when given), soonest expired first. A claim sets `status_checked_at`; orders
 * another check claimed in the last MIN_REFRESH_INTERVAL_MS, or that another claim is locking
 * right now, are skipped, so two instances never ask about the same order at once.
 */
export async function claimExpiredHolds(
  db: Database,
  options: { limit: number; productIds?: readonly string[] },
): Promise<ClaimedOrder[]> {
  if (options.limit < 1) return [];
  const productIds = options.productIds ? [...options.productIds] : null;
  return db.$queryRaw<ClaimedOrder[]>(Prisma.sql`
WITH due AS (
  SELECT o.id AS due_id FROM orders o
  WHERE o.status = 'PEN' AND o.hold_expires_at <= now()
    AND (o.status_checked_at IS NULL
         OR o.status_checked_at <= now() - ${MIN_REFRESH_INTERVAL_MS}::int * interval '1 millisecond')
    AND (${productIds}::uuid[] IS NULL OR EXISTS (
      SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.product_id = ANY(${productIds}::uuid[])))
  ORDER BY o.hold_expires_at, o.id
  LIMIT ${options.limit}::int
  FOR UPDATE SKIP LOCKED
)
UPDATE orders SET status_checked_at = now() FROM due WHERE orders.id = due.due_id
RETURNING ${CLAIMED_ORDER_COLUMNS}`);
}

export interface ReleaseDeps extends CheckDeps {
  /** Runs these jobs now (the cancelled orders' stock release and cart reopening). */
  runJobsNow: (jobIds: string[]) => Promise<unknown>;
}

/**
 * On a shopper's request: ends the expired holds on `productIds` (at most ON_REQUEST_LIMIT, each
 * service call within ON_REQUEST_RETRY) and puts the units of those that ended CAN back on the
 * shelf before returning. Returns how many orders it cancelled or saw cancelled; the caller
 * tries its reservation again when that is more than 0.
 */
export async function releaseExpiredHolds(productIds: readonly string[], deps: ReleaseDeps): Promise<number> {
  const claimed = await claimExpiredHolds(deps.db, { limit: ON_REQUEST_LIMIT, productIds });
  if (claimed.length === 0) return 0;
  const results = await Promise.all(
    claimed.map((order) => refreshFromService(order, deps, { retry: ON_REQUEST_RETRY })),
  );
  const ended = claimed.filter((_, i) => endedCancelled(results[i]!));
  if (ended.length === 0) return 0;
  const jobs = await deps.db.job.findMany({
    where: {
      status: "QUEUED",
      dedupeKey: {
        in: ended.flatMap((order) =>
          jobsForTransition("CAN").map((type) => dedupeKeyOf(type, order.externalTransactionId)),
        ),
      },
    },
    select: { id: true },
  });
  await deps.runJobsNow(jobs.map((job) => job.id));
  return ended.length;
}

/** The check left the order CAN: the shop's own expiry, or the service's CAN applied. */
const endedCancelled = (result: CheckResult) =>
  result.outcome === "hold_expired" || (result.outcome === "transitioned" && result.serviceAnswered);
