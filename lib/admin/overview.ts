import "server-only";
import type { Database } from "../db/client";

/**
 * The back office's home figures. "Today" and "this month" are the shop's calendar in Luanda
 * (Africa/Luanda, West Africa Time: UTC+1 all year, no daylight saving), whatever the server's
 * or the database's zone (UTC): an order paid at 00:30 in Luanda on the 1st counts for the 1st.
 * A paid order counts on the day the shop learnt it was paid (`finalized_at`).
 */

/** Luanda's offset from UTC; Angola has kept it all year round since 1979. */
const LUANDA_OFFSET_MS = 3600_000;

export interface AdminOverview {
  /** Integer AOA of the orders paid (CON) today, Luanda time. */
  paidTodayAoa: number;
  /** The same since the 1st of this month. */
  paidThisMonthAoa: number;
  /** Orders waiting for payment (PEN). */
  pendingOrders: number;
}

/** The start of `now`'s day and month in Luanda, as instants. */
export function luandaPeriods(now: Date): { dayStart: Date; monthStart: Date } {
  const local = new Date(now.getTime() + LUANDA_OFFSET_MS);
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  return {
    dayStart: new Date(Date.UTC(year, month, day) - LUANDA_OFFSET_MS),
    monthStart: new Date(Date.UTC(year, month, 1) - LUANDA_OFFSET_MS),
  };
}

export async function adminOverview(db: Pick<Database, "order">, now = new Date()): Promise<AdminOverview> {
  const { dayStart, monthStart } = luandaPeriods(now);
  const paidSince = async (start: Date) =>
    (
      await db.order.aggregate({
        _sum: { amountAoa: true },
        where: { status: "CON", finalizedAt: { gte: start, lte: now } },
      })
    )._sum.amountAoa ?? 0;
  const [paidTodayAoa, paidThisMonthAoa, pendingOrders] = await Promise.all([
    paidSince(dayStart),
    paidSince(monthStart),
    db.order.count({ where: { status: "PEN" } }),
  ]);
  return { paidTodayAoa, paidThisMonthAoa, pendingOrders };
}
