import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import {
  addressLock,
  referenceHoldColumns,
  referenceHoldLocks,
  referenceHoldsAtCap,
  takeLocks,
  type ReferenceHoldCounts,
} from "../orders/reference-holds";
import { refused } from "./checkout-refusal";

/**
 * The caps that keep one client from holding most of the stock through unpaid orders: open
 * orders per shopper and per client address, and orders holding a day-long bank reference per
 * address and per phone. Each refusal is a 429 saying when to try again.
 */

export interface OpenOrderCaps {
  /** Open orders per shopper (the cookie's `client_id`); 0: no cap. */
  maxOpenPerShopper: number;
  /** Open orders per client address; 0: no cap. */
  maxOpenPerAddress: number;
  /** Orders holding a bank reference per address and per phone (MAX_REFERENCE_HOLDS); 0 or absent: no cap. */
  maxReferenceHolds?: number;
}

/** Who is checking out, as the caps count: the shopper's id, the client address's key, the phone typed. */
export interface CheckoutClient {
  clientId: string;
  address: string | null;
  phone: string | null;
}

/**
 * Refuses a checkout over any of the caps, each counted under a lock on its id held for the rest
 * of the transaction, so concurrent checkouts of one shopper, from one address or for one phone
 * count each other. Two statements whatever the caps: every lock, in the order every checkout
 * (and a webhook bringing a reference, lib/orders/reference-holds.ts) takes them (shopper,
 * address, phone), then every count, in a statement of its own that sees what the locks' previous
 * holders committed. Open orders are pending with their hold running (one range of an index each:
 * orders_client_id_created_at_idx, the partial orders_open_client_address_idx); a refusal says when
 * the soonest of their holds runs out. The shopper's cap is said first, then the address's, then
 * the reference holds'.
 */
export async function refuseOverOpenOrderCaps(
  tx: SqlRunner,
  client: CheckoutClient,
  caps: OpenOrderCaps,
): Promise<void> {
  const byShopper = caps.maxOpenPerShopper > 0;
  const byAddress = caps.maxOpenPerAddress > 0 && client.address !== null;
  const holder = { address: client.address, phone: client.phone };
  const maxReferenceHolds = caps.maxReferenceHolds ?? 0;
  const referenceLocks = maxReferenceHolds > 0 ? referenceHoldLocks(holder) : [];
  // A key named twice (the address's, by its cap and by the reference holds') is taken once, first.
  const locks = [
    ...new Set([
      ...(byShopper ? [`open-orders:${client.clientId}`] : []),
      ...(byAddress && client.address ? [addressLock(client.address)] : []),
      ...referenceLocks,
    ]),
  ];
  if (locks.length === 0) return;
  await takeLocks(tx, locks);

  const open = (column: "client_id" | "client_address", value: string | null) => Prisma.sql`(
  SELECT json_build_object('count', count(*)::int,
                           'soonestSeconds', ceil(extract(epoch FROM min(hold_expires_at) - now()))::int)
  FROM orders WHERE ${Prisma.raw(column)} = ${value} AND status = 'PEN' AND hold_expires_at > now())`;
  type Open = { count: number; soonestSeconds: number | null };
  const [counts] = await tx.$queryRaw<({ shopper: Open | null; addressOpen: Open | null } & ReferenceHoldCounts)[]>(
    Prisma.sql`
SELECT ${byShopper ? open("client_id", client.clientId) : Prisma.sql`NULL::json`} AS shopper,
       ${byAddress ? open("client_address", client.address) : Prisma.sql`NULL::json`} AS "addressOpen",
       ${referenceLocks.length > 0 ? referenceHoldColumns(holder) : Prisma.sql`'{}'::int[] AS address, '[]'::json AS phones`}`,
  );
  const shopper = counts?.shopper;
  const address = counts?.addressOpen;
  if (shopper && shopper.count >= caps.maxOpenPerShopper)
    throw refused(
      429,
      "too_many_open_orders",
      `there are already ${shopper.count} unpaid orders waiting for payment; pay or cancel one, or wait until one expires`,
      { retryAfterSeconds: Math.max(1, shopper.soonestSeconds ?? 1) },
    );
  if (address && address.count >= caps.maxOpenPerAddress)
    throw refused(
      429,
      "too_many_open_orders_from_address",
      `${address.count} unpaid orders placed from this network are waiting for payment; try again when one is paid or expires`,
      { retryAfterSeconds: Math.max(1, address.soonestSeconds ?? 1) },
    );
  const full = referenceLocks.length > 0 ? referenceHoldsAtCap(holder, counts, maxReferenceHolds) : null;
  if (!full) return;
  const whose = full.by === "address" ? "placed from this network" : "for this phone";
  throw refused(
    429,
    full.by === "address" ? "too_many_reference_holds_from_address" : "too_many_reference_holds_for_phone",
    `${full.count} orders ${whose} are waiting to be paid with a bank reference; pay one of them, or try again when one expires`,
    { retryAfterSeconds: full.retryAfterSeconds },
  );
}
