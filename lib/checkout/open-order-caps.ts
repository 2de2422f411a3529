import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { referenceHoldsFull, type ReferenceHolder } from "../orders/reference-holds";
import { refused } from "./checkout-refusal";

/**
 * The caps that keep one client from holding most of the stock through unpaid orders: open
 * orders per shopper and per client address, and orders holding a day-long bank reference per
 * address and per phone. Each refusal is a 429 saying when to try again.
 */

/**
 * A cap on open orders (pending, hold still running) of one shopper (`client_id`, the cookie) or
 * of one client address (`client_address`): checked under a lock on that id for the rest of the
 * transaction, so concurrent checkouts of one shopper, or from one address, count each other.
 * The refusal says when the soonest of their holds runs out. Both counts are one range of an
 * index (orders_client_id_created_at_idx; the partial orders_open_client_address_idx).
 */
export async function refuseTooManyOpenOrders(
  tx: SqlRunner,
  of: { column: "client_id" | "client_address"; value: string },
  max: number,
): Promise<void> {
  const byAddress = of.column === "client_address";
  const lockKey = byAddress ? `open-orders-address:${of.value}` : `open-orders:${of.value}`;
  await tx.$queryRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))::text`);
  const [open] = await tx.$queryRaw<{ count: number; soonestSeconds: number | null }[]>(Prisma.sql`
SELECT count(*)::int AS count,
       ceil(extract(epoch FROM min(hold_expires_at) - now()))::int AS "soonestSeconds"
FROM orders WHERE ${Prisma.raw(of.column)} = ${of.value} AND status = 'PEN' AND hold_expires_at > now()`);
  if (!open || open.count < max) return;
  const retryAfterSeconds = Math.max(1, open.soonestSeconds ?? 1);
  if (byAddress)
    throw refused(
      429,
      "too_many_open_orders_from_address",
      `${open.count} unpaid orders placed from this network are waiting for payment; try again when one is paid or expires`,
      { retryAfterSeconds },
    );
  throw refused(
    429,
    "too_many_open_orders",
    `there are already ${open.count} unpaid orders waiting for payment; pay or cancel one, or wait until one expires`,
    { retryAfterSeconds },
  );
}

/**
 * The cap on day-long holds (MAX_REFERENCE_HOLDS): an address or a phone whose orders already
 * hold that many bank references places no more until one is paid or ends, for its next
 * reference would keep nothing (lib/orders/reference-holds.ts). Said before anything is held.
 */
export async function refuseOverReferenceHolds(tx: SqlRunner, holder: ReferenceHolder, max: number): Promise<void> {
  const full = await referenceHoldsFull(tx, holder, max);
  if (!full) return;
  const whose = full.by === "address" ? "placed from this network" : "for this phone";
  throw refused(
    429,
    full.by === "address" ? "too_many_reference_holds_from_address" : "too_many_reference_holds_for_phone",
    `${full.count} orders ${whose} are waiting to be paid with a bank reference; pay one of them, or try again when one expires`,
    { retryAfterSeconds: full.retryAfterSeconds },
  );
}
