import "server-only";
import type { Database } from "../db/client";
import { luandaPeriods } from "../luanda-time";

/**
 * The back office's home figures. "Today" and "this month" are the shop's calendar in Luanda
 * (lib/luanda-time.ts): an order paid at 00:30 in Luanda on the 1st counts for the 1st.
 * A paid order counts on the day the shop learnt it was paid (`finalized_at`).
 */

export interface AdminOverview {
  /** Integer AOA of the orders paid (CON) today, Luanda time. */
  paidTodayAoa: number;
  /** The same since the 1st of this month. */
  paidThisMonthAoa: number;
  /** Orders waiting for payment (PEN). */
  pendingOrders: number;
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
