import "server-only";
import { getEnv } from "../env";
import { Prisma } from "../generated/prisma/client";
import { phoneKey } from "../phone";
import { REFERENCE_HOLD_MINUTES, type OrderLookup, type PaymentUpdate } from "./state-machine";
import type { SqlRunner } from "../db/sql-runner";

/**
 * Day-long holds one client cannot multiply. A bank reference, which anyone gets for free by
 * choosing that method in the popup, keeps an order's units for the reference's life span instead
 * of ORDER_HOLD_SECONDS, so the orders holding one (pending, a payment reference stored, hold
 * running) count against MAX_REFERENCE_HOLDS per client address and per phone (lib/phone.ts'
 * phoneKey, whatever form it was typed in).
 */

/** What {@link applyWithReferenceHoldCap} runs on: the app's Prisma client, or a client with only `$queryRaw` (the bench's) for updates that bring no reference. */
export type UpdateRunner = SqlRunner & { $transaction?: <T>(work: (tx: SqlRunner) => Promise<T>) => Promise<T> };

/** Whose day-long holds are counted: the order's client address key and checkout phone. */
export interface ReferenceHolder {
  address: string | null;
  phone: string | null;
}

/** The address or phone at the cap, and the seconds until enough of its holds end to be under it. */
export interface ReferenceHoldsFull {
  by: "address" | "phone";
  count: number;
  retryAfterSeconds: number;
}

/**
 * When a pending order with a bank reference must be paid by, if that is before the reference
 * itself runs out: its hold was not stretched (the cap) and ends first, then the shop cancels it.
 * A stretched hold always ends after created_at + REFERENCE_HOLD_MINUTES (the reference came
 * later), so an earlier end means the ordinary hold. Null otherwise.
 */
export function referencePayBy(order: {
  status: string;
  paymentReference: string | null;
  createdAt: Date;
  holdExpiresAt: Date;
}): Date | null {
  if (order.status !== "PEN" || !order.paymentReference) return null;
  const referenceDay = order.createdAt.getTime() + REFERENCE_HOLD_MINUTES * 60_000;
  return order.holdExpiresAt.getTime() < referenceDay ? order.holdExpiresAt : null;
}

/** MAX_REFERENCE_HOLDS: day-long holds per address and per phone; 0: no cap. */
export const maxReferenceHolds = () => getEnv().orders.maxReferenceHolds;

/**
 * Takes the holder's locks for the rest of the transaction, the address's then the phone's, and
 * returns the first of the two that already has `max` orders holding a reference (`exceptOrderId`
 * not counted), or null. The checkout refuses a new order at the cap before anything is held (429
 * with Retry-After, lib/checkout/open-order-caps.ts), taking these locks after the shopper's, as
 * every checkout does, so concurrent checkouts and references count each other.
 */
export async function referenceHoldsFull(
  tx: SqlRunner,
  holder: ReferenceHolder,
  max: number,
  exceptOrderId: string | null = null,
): Promise<ReferenceHoldsFull | null> {
  const locks = referenceHoldLocks(holder);
  if (locks.length === 0) return null;
  await takeLocks(tx, locks);
  const [holds] = await tx.$queryRaw<ReferenceHoldCounts[]>(
    Prisma.sql`SELECT ${referenceHoldColumns(holder, exceptOrderId)}`,
  );
  return referenceHoldsAtCap(holder, holds, max);
}

/**
 * The advisory locks a holder's reference holds are counted under, in the order every caller
 * takes them: the address's (the one the cap on its open orders takes, lib/checkout/open-order-caps.ts,
 * so a checkout that holds it already takes it again without waiting), then the phone's.
 */
export function referenceHoldLocks(holder: ReferenceHolder): string[] {
  const key = holder.phone ? phoneKey(holder.phone) : "";
  return [...(holder.address ? [addressLock(holder.address)] : []), ...(key ? [`reference-holds-phone:${key}`] : [])];
}

/** The lock of a client address's open orders and reference holds. */
export const addressLock = (address: string) => `open-orders-address:${address}`;

/**
 * Takes `keys`' transaction-scoped advisory locks, in the array's order, in one statement (a
 * function scan yields the array's elements in order). Counting what they guard must be a later
 * statement: one that began before a lock was granted would not see what its holder committed.
 */
export async function takeLocks(tx: SqlRunner, keys: readonly string[]): Promise<void> {
  if (keys.length > 0)
    await tx.$queryRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(k))::text FROM unnest(${keys}::text[]) AS k`);
}

/** What {@link referenceHoldColumns} reads: the seconds left of each hold of the address, and the phones' candidates. */
export interface ReferenceHoldCounts {
  address: number[];
  phones: { phone: string; seconds: number }[];
}

/** The columns `address` and `phones` ({@link ReferenceHoldCounts}) of a SELECT, under the holder's locks. */
export function referenceHoldColumns(holder: ReferenceHolder, exceptOrderId: string | null = null): Prisma.Sql {
  const key = holder.phone ? phoneKey(holder.phone) : "";
  const held = Prisma.sql`status = 'PEN' AND hold_expires_at > now() AND payment_reference IS NOT NULL
    AND id IS DISTINCT FROM ${exceptOrderId}::uuid`;
  const secondsLeft = Prisma.sql`ceil(extract(epoch FROM hold_expires_at - now()))::int`;
  // The phone's candidates are narrowed by their last digits, which every form of one phone
  // shares; phoneKey then decides which of them are this phone.
  return Prisma.sql`COALESCE((SELECT array_agg(${secondsLeft}) FROM orders WHERE client_address = ${holder.address} AND ${held}), '{}') AS address,
       COALESCE((SELECT json_agg(json_build_object('phone', customer_phone, 'seconds', ${secondsLeft}))
                 FROM orders WHERE ${key} <> '' AND ${held}
                   AND regexp_replace(customer_phone, '[^0-9]', '', 'g') LIKE '%' || right(${key}, 6)), '[]') AS phones`;
}

/** From {@link ReferenceHoldCounts}: the first of the address and the phone that is at `max`, or null. */
export function referenceHoldsAtCap(
  holder: ReferenceHolder,
  holds: ReferenceHoldCounts | undefined,
  max: number,
): ReferenceHoldsFull | null {
  const key = holder.phone ? phoneKey(holder.phone) : "";
  const byAddress = holds?.address ?? [];
  const byPhone = (holds?.phones ?? []).filter((order) => phoneKey(order.phone) === key).map((order) => order.seconds);
  for (const [by, seconds] of [
    ["address", byAddress],
    ["phone", byPhone],
  ] as const)
    if (seconds.length >= max)
      return { by, count: seconds.length, retryAfterSeconds: Math.max(1, secondsUntilUnder(seconds, max)) };
  return null;
}

/** When fewer than `max` of these holds will be left: once the (count − max + 1)th soonest has ended. */
function secondsUntilUnder(seconds: readonly number[], max: number): number {
  return [...seconds].sort((a, b) => a - b)[seconds.length - max]!;
}

/**
 * Runs `apply` (a state-machine update of the order `lookup` finds) so that a new payment
 * reference stretches its hold only while the order's address and phone are under
 * MAX_REFERENCE_HOLDS: inside a transaction holding their locks when the update brings a
 * reference, as it is otherwise. `apply` receives the client to run on and the update to apply.
 * Past the cap the order keeps its ordinary hold: the rule a client cannot get around by placing
 * its orders first and taking their references afterwards.
 */
export async function applyWithReferenceHoldCap<T>(
  db: UpdateRunner,
  lookup: OrderLookup,
  update: PaymentUpdate,
  apply: (client: SqlRunner, update: PaymentUpdate) => Promise<T>,
  /** Default: MAX_REFERENCE_HOLDS. */
  max?: number,
): Promise<T> {
  if (update.status !== "PEN" || !update.paymentReference) return apply(db, update);
  const cap = max ?? maxReferenceHolds();
  if (!(cap > 0)) return apply(db, update);
  if (!db.$transaction) throw new Error("a payment reference is applied in a transaction, and this client has none");
  return db.$transaction(async (tx) => {
    // Found as the state machine finds it: by our id, else by the service's reference number.
    const [order] = await tx.$queryRaw<
      { id: string; status: string; paymentReference: string | null; address: string | null; phone: string | null }[]
    >(Prisma.sql`
SELECT id, status::text, payment_reference AS "paymentReference", client_address AS address, customer_phone AS phone
FROM (
  SELECT id, status, payment_reference, client_address, customer_phone, 0 AS rank FROM orders
    WHERE external_transaction_id = ${lookup.externalTransactionId ?? null}
  UNION ALL
  SELECT id, status, payment_reference, client_address, customer_phone, 1 AS rank FROM orders
    WHERE reference_number = ${lookup.referenceNumber ?? null}
) found ORDER BY rank LIMIT 1`);
    // Nothing to stretch: unknown, final, or the same reference again.
    if (!order || order.status !== "PEN" || order.paymentReference === update.paymentReference)
      return apply(tx, update);
    const full = await referenceHoldsFull(tx, order, cap, order.id);
    return apply(tx, { ...update, referenceHold: full === null });
  });
}
