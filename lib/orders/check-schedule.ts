import "server-only";
import { Prisma } from "../generated/prisma/client";

/**
 * When the reconcile sweep asks the service about an order it has heard nothing from: the one
 * schedule, counted from the order's last change. Every claim of a check (lib/orders/status.ts
 * `claimChecks`) stores the next step in `status_check_due_at`; a change of the order clears it
 * (lib/orders/state-machine.ts), which starts the schedule again.
 */

/**
 * Minutes after the order's last change at which the sweep asks about it: often while a payment is
 * likely and a lost webhook costs the most, for the contract makes the webhook the news and the
 * status query only its fallback, and publishes no rate limits for the query.
 */
export const STATUS_CHECK_STEPS_MINUTES: readonly number[] = [
  // A webhook follows a payment within seconds: a minute of silence means it is late or lost,
  // while the shopper may still be looking at the order's page.
  1,
  // Card and mobile-money payments in the popup are done within a few minutes.
  5,
  // The slow end of those, before the default 30-minute hold runs out (then the hold's own check asks).
  15,
  // A shopper who came back to pay later in the hour.
  60,
];
/**
 * Then every this many minutes (at 4 h, 8 h, … after the change) for as long as the order can
 * still be paid: its hold, or REFERENCE_HOLD_MINUTES after the shop cancelled it. A bank
 * reference can be paid at any moment of its day, so a payment whose webhook was lost is found
 * within 4 hours, with 6 queries a day.
 */
export const STATUS_CHECK_REPEAT_MINUTES = 240;

/** The instant the schedule counts from, as SQL over the orders row `alias`. */
export function scheduleAnchorSql(alias: "o" | "orders"): Prisma.Sql {
  return Prisma.raw(
    `CASE WHEN ${alias}.status = 'CAN' THEN COALESCE(${alias}.finalized_at, ${alias}.updated_at) ELSE ${alias}.updated_at END`,
  );
}

/**
 * Whether the row `o` is due: its stored step has come, or it has none yet (never asked since it
 * last changed, or written by a release before this schedule) and the first step has passed.
 * Both arms are ranges of an index on `status_check_due_at`.
 */
export function checkDueSql(): Prisma.Sql {
  return Prisma.sql`(o.status_check_due_at <= now()
    OR (o.status_check_due_at IS NULL
        AND ${scheduleAnchorSql("o")} <= now() - ${STATUS_CHECK_STEPS_MINUTES[0]}::int * interval '1 minute'))`;
}

/** The next step after now for the row `orders`, as SQL: what a claim stores in `status_check_due_at`. */
export function nextCheckDueSql(): Prisma.Sql {
  const anchor = scheduleAnchorSql("orders");
  const steps = [...STATUS_CHECK_STEPS_MINUTES];
  return Prisma.sql`${anchor} + interval '1 minute' * COALESCE(
    (SELECT min(step) FROM unnest(${steps}::int[]) AS step WHERE ${anchor} + step * interval '1 minute' > now()),
    (floor(EXTRACT(epoch FROM now() - ${anchor}) / 60 / ${STATUS_CHECK_REPEAT_MINUTES}::int) + 1)
      * ${STATUS_CHECK_REPEAT_MINUTES}::int)`;
}

/** The smallest gap the sweep leaves after any check of an order (a page's poll included). */
export const MIN_SWEEP_INTERVAL_MS = STATUS_CHECK_STEPS_MINUTES[0]! * 60_000;
