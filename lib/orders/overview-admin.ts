import "server-only";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { luandaPeriods } from "../luanda-time";
import { paidBetween } from "./paid";

/**
 * The back office's home figures. "Today" and "this month" are the shop's calendar in Luanda
 * (lib/luanda-time.ts): an order paid at 00:30 in Luanda on the 1st counts for the 1st.
 * Paid is lib/orders/paid.ts's definition, the dashboard's: CON, on the day the shop learnt it was
 * paid (`finalized_at`), up to `now`.
 */

export interface AdminOverview {
  /** Integer AOA of the orders paid (CON) today, Luanda time. */
  paidTodayAoa: number;
  /** The same since the 1st of this month. */
  paidThisMonthAoa: number;
  /** Orders waiting for payment (PEN). */
  pendingOrders: number;
}

export async function adminOverview(db: SqlRunner, now = new Date()): Promise<AdminOverview> {
  const { dayStart, monthStart } = luandaPeriods(now);
  const [row] = await db.$queryRaw<{ today: number; month: number; pending: number }[]>(Prisma.sql`
    SELECT COALESCE(sum(o.amount_aoa) FILTER (WHERE o.finalized_at >= ${dayStart}), 0)::float8 AS today,
           COALESCE(sum(o.amount_aoa), 0)::float8 AS month,
           (SELECT count(*) FROM orders WHERE status = 'PEN')::int AS pending
    FROM orders o WHERE ${paidBetween(monthStart, now)}`);
  return { paidTodayAoa: row?.today ?? 0, paidThisMonthAoa: row?.month ?? 0, pendingOrders: row?.pending ?? 0 };
}

/** The orders waiting for payment (PEN) alone: the home of a person who does not see the money (lib/admin/roles.ts, seesMoney). */
export async function pendingOrderCount(db: SqlRunner): Promise<number> {
  const [row] = await db.$queryRaw<{ pending: number }[]>(
    Prisma.sql`SELECT count(*)::int AS pending FROM orders WHERE status = 'PEN'`,
  );
  return row?.pending ?? 0;
}
