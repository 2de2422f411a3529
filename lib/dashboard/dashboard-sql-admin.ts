import "server-only";
import { Prisma } from "../generated/prisma/client";
import type { SqlRunner } from "../db/sql-runner";
import { isPaid, paidBetween } from "../orders/paid";
import { luandaDate, luandaDayStart } from "../luanda-time";
import type { Period } from "./period";

/**
 * What the owner's dashboard asks the database (lib/dashboard/dashboard-admin.ts reads the
 * answers). A period's figures are sums of days: each closed Luanda day is computed once from the
 * orders, their lines and the variants and kept (lib/dashboard/dashboard-days-admin.ts, with the
 * day statements here), and today is computed from the orders on every read. Five statements,
 * run at once, the first three summing the kept days and today's:
 *
 * - paid: the paid orders of both periods (lib/orders/paid.ts), by Luanda day, and of this one
 *   by hour placed, delivery method and zone, and promo code;
 * - checkouts: the orders created in both periods, by Luanda day and how each ended;
 * - sales: this period's paid lines by variant: the top 10 by revenue and by units, and the
 *   active variants at or below the low-stock threshold with their units sold;
 * - paid after cancel: the payments for cancelled orders still waiting for a person's decision;
 * - refunds: the refunds of both periods by the Luanda day the money went back, read from the
 *   refunds themselves (a few per hundred orders, on their index on refunded_at: nothing to keep).
 *
 * The day statements read the indexes made for them (migrations 20261219000000 to
 * 20261219000200). Each statement is built here, without running it, so the bench's baseline sends
 * the very same SQL through `pg`. Amounts are whole kwanza, sums read as float8 (exact far beyond
 * any shop).
 */

/** How many products each top list shows. */
export const TOP_PRODUCTS = 10;
/** How many low-stock or sold-out variants the stock panel lists (the rest are counted). */
export const STOCK_ROWS = 50;

/** An instant's Luanda date, in SQL: the columns hold UTC (docs/database.md), Luanda is UTC+1. */
export const luandaDay = (column: string) => Prisma.raw(`(${column} + interval '1 hour')::date`);
const luandaHour = (column: string) => Prisma.raw(`extract(hour FROM ${column} + interval '1 hour')::int`);

/**
 * The paid orders of [start, end) a day at a time (by the Luanda day they were paid): each day's
 * `total`, and the day's orders by `hour` placed, `delivery` method and zone, and `promo` code.
 * One pass (the partial index on finalized_at, read alone), grouped four ways.
 */
export function paidDaysSql(start: Date, end: Date): Prisma.Sql {
  return Prisma.sql`
WITH paid AS MATERIALIZED (
  SELECT ${luandaDay("o.finalized_at")} AS day, o.amount_aoa, o.discount_aoa, o.delivery_fee_aoa, o.delivery_method,
         o.delivery_zone_name, o.promo_code, ${luandaHour("o.created_at")} AS hour
  FROM orders o
  WHERE ${paidBetween(start, end)}
)
SELECT day, 'total' AS panel, '' AS key, '' AS detail, count(*)::int AS orders, sum(amount_aoa)::bigint AS amount_aoa,
       sum(discount_aoa)::bigint AS discount_aoa, sum(delivery_fee_aoa)::bigint AS fees_aoa
FROM paid GROUP BY day
UNION ALL
SELECT day, 'hour', hour::text, '', count(*)::int, sum(amount_aoa)::bigint, 0, 0
FROM paid GROUP BY day, hour
UNION ALL
SELECT day, 'delivery', COALESCE(delivery_method, 'unknown'), COALESCE(delivery_zone_name, ''), count(*)::int,
       sum(amount_aoa)::bigint, 0, sum(delivery_fee_aoa)::bigint
FROM paid GROUP BY day, delivery_method, delivery_zone_name
UNION ALL
SELECT day, 'promo', promo_code, '', count(*)::int, sum(amount_aoa)::bigint, sum(discount_aoa)::bigint, 0
FROM paid WHERE promo_code IS NOT NULL GROUP BY day, promo_code`;
}

/**
 * The orders created in [start, end) a day at a time, by how they ended. Cancelled by the
 * service: CAN without a reason of the shop's own (lib/orders/state-machine.ts); expired: the
 * shop's `hold_expired`; other (counted by the reader): a failed creation or `abandoned`.
 */
export function checkoutDaysSql(start: Date, end: Date): Prisma.Sql {
  return Prisma.sql`
SELECT ${luandaDay("o.created_at")} AS day,
       count(*)::int AS checkouts,
       count(*) FILTER (WHERE ${isPaid()})::int AS paid,
       count(*) FILTER (WHERE o.status = 'CAN' AND o.cancel_reason IS NULL)::int AS service_cancelled,
       count(*) FILTER (WHERE o.status = 'CAN' AND o.cancel_reason = 'hold_expired')::int AS expired,
       count(*) FILTER (WHERE o.status = 'PEN')::int AS pending,
       count(*) FILTER (WHERE o.payment_reference IS NOT NULL)::int AS "references",
       count(*) FILTER (WHERE o.payment_reference IS NOT NULL AND ${isPaid()})::int AS references_paid
FROM orders o
WHERE o.created_at >= ${start} AND o.created_at < ${end}
GROUP BY 1`;
}

/**
 * The paid lines of [start, end) a day at a time, by variant (the product, for lines without
 * one): units, and revenue, what they cost less their share of the promo discount (bigint: price
 * × quantity may pass int4).
 */
export function salesDaysSql(start: Date, end: Date): Prisma.Sql {
  return Prisma.sql`
SELECT ${luandaDay("o.finalized_at")} AS day, COALESCE(l.variant_id, l.product_id) AS key, sum(l.quantity)::int AS units,
       sum(l.unit_price_aoa::bigint * l.quantity - l.discount_aoa)::bigint AS revenue_aoa
-- Each paid order's lines by the lines' covering index on order_id (OFFSET 0 keeps the planner
-- from flattening it into a hash join over every line ever sold, which grows with the shop).
FROM orders o CROSS JOIN LATERAL (
  SELECT l.variant_id, l.product_id, l.quantity, l.unit_price_aoa, l.discount_aoa
  FROM order_lines l WHERE l.order_id = o.id OFFSET 0
) l
WHERE ${paidBetween(start, end)}
GROUP BY 1, 2`;
}

/**
 * The days of `period` and of the one before it that the dashboard reads from the days kept
 * (lib/dashboard/dashboard-days-admin.ts): those closed by `today` (a Luanda date), [from, to).
 * Today and any later day are read from the orders themselves.
 */
export function keptDays(period: Period, today: string): { from: string; to: string } {
  const from = period.previousFrom;
  const end = luandaDate(period.end);
  return { from, to: end < today ? end : today < from ? from : today };
}

export interface DashboardStatements {
  paid: Prisma.Sql;
  checkouts: Prisma.Sql;
  sales: Prisma.Sql;
  paidAfterCancel: Prisma.Sql;
  refunds: Prisma.Sql;
}

/**
 * The dashboard's statements for `period` on `today` (its Luanda date; the days before it must
 * have been kept first), each reading the days kept for the closed days and the orders for the
 * rest, and summing them as the panels want them.
 */
export function dashboardStatements(period: Period, lowStockThreshold: number, today: string): DashboardStatements {
  const kept = keptDays(period, today);
  // The first instant not kept: where the orders are read from (never before the periods' start).
  const liveStart = new Date(Math.max(luandaDayStart(kept.to), period.previousStart.getTime()));
  const live = (from: Date) => [from.getTime() > liveStart.getTime() ? from : liveStart, period.end] as const;
  return {
    paid: Prisma.sql`
WITH days AS (
  SELECT day, panel, key, detail, orders, amount_aoa, discount_aoa, fees_aoa FROM dashboard_day_paid
  WHERE day >= ${kept.from}::date AND day < ${kept.to}::date
  UNION ALL
  SELECT * FROM (${paidDaysSql(...live(period.previousStart))}) live
)
SELECT 'day' AS panel, to_char(day, 'YYYY-MM-DD') AS key, NULL::text AS detail, sum(orders)::int AS orders,
       sum(amount_aoa)::float8 AS amount, sum(discount_aoa)::float8 AS discount, sum(fees_aoa)::float8 AS fees
FROM days WHERE panel = 'total' GROUP BY day
UNION ALL
SELECT 'hour', key, NULL, sum(orders)::int, sum(amount_aoa)::float8, 0, 0
FROM days WHERE panel = 'hour' AND day >= ${period.from}::date GROUP BY key
UNION ALL
SELECT 'delivery', key, detail, sum(orders)::int, sum(amount_aoa)::float8, 0, sum(fees_aoa)::float8
FROM days WHERE panel = 'delivery' AND day >= ${period.from}::date GROUP BY key, detail
UNION ALL
SELECT 'promo', key, NULL, sum(orders)::int, sum(amount_aoa)::float8, sum(discount_aoa)::float8, 0
FROM days WHERE panel = 'promo' AND day >= ${period.from}::date GROUP BY key`,
    checkouts: Prisma.sql`
SELECT to_char(day, 'YYYY-MM-DD') AS day, checkouts, paid, service_cancelled AS "serviceCancelled", expired, pending,
       "references", references_paid AS "referencesPaid"
FROM (
  SELECT day, checkouts, paid, service_cancelled, expired, pending, "references", references_paid
  FROM dashboard_day_checkouts WHERE day >= ${kept.from}::date AND day < ${kept.to}::date
  UNION ALL
  SELECT * FROM (${checkoutDaysSql(...live(period.previousStart))}) live
) days`,
    // This period's sales by variant, once for both panels: the top 10 by revenue and by units,
    // and the units sold of the variants at or below the threshold (sold out first, then the
    // fewest left). Names and titles are the variants' own now, so a renamed product sells under
    // one name; the title is the option values in the options' order.
    sales: Prisma.sql`
WITH sold AS (
  SELECT key, sum(units)::int AS units, sum(revenue_aoa)::float8 AS revenue
  FROM (
    SELECT key, units, revenue_aoa FROM dashboard_day_sales
    WHERE day >= ${period.from}::date AND day < ${kept.to}::date
    UNION ALL
    SELECT key, units, revenue_aoa FROM (${salesDaysSql(...live(period.start))}) live
  ) days
  GROUP BY key
), ranked AS (
  SELECT sold.*,
         row_number() OVER (ORDER BY revenue DESC, key) AS "revenueRank",
         row_number() OVER (ORDER BY units DESC, key) AS "unitsRank"
  FROM sold
), top AS (
  SELECT * FROM ranked WHERE "revenueRank" <= ${TOP_PRODUCTS} OR "unitsRank" <= ${TOP_PRODUCTS}
), low AS (
  SELECT v.id, v.stock,
         row_number() OVER (PARTITION BY v.stock <= 0 ORDER BY v.stock, p.name, v.position, v.id) AS place,
         count(*) OVER (PARTITION BY v.stock <= 0)::int AS total
  FROM product_variants v JOIN products p ON p.id = v.product_id
  WHERE v.archived_at IS NULL AND p.archived_at IS NULL AND v.stock <= ${lowStockThreshold}
), listed AS (
  SELECT 'top' AS panel, top.key, top.units, top.revenue, top."revenueRank"::int AS "revenueRank",
         top."unitsRank"::int AS "unitsRank", NULL::int AS stock, NULL::int AS total, NULL::int AS place
  FROM top
  UNION ALL
  SELECT 'stock', low.id, COALESCE(sold.units, 0), COALESCE(sold.revenue, 0), NULL, NULL, low.stock, low.total,
         low.place::int
  FROM low LEFT JOIN sold ON sold.key = low.id
  WHERE low.place <= ${STOCK_ROWS}
)
SELECT listed.panel, listed.key::text AS key, listed.units, listed.revenue, listed."revenueRank", listed."unitsRank",
       listed.stock, listed.total, COALESCE(p.name, '') AS "productName", v.sku,
       COALESCE((SELECT string_agg(v.options ->> po.name, ', ' ORDER BY po.position)
                 FROM product_options po WHERE po.product_id = p.id), '') AS "variantTitle"
FROM listed
LEFT JOIN product_variants v ON v.id = listed.key
LEFT JOIN products p ON p.id = COALESCE(v.product_id, listed.key)
ORDER BY listed.panel, listed.stock, listed.place`,
    // attention_at is set with paid_after_cancel_at (lib/orders/state-machine.ts): its index finds them.
    paidAfterCancel: Prisma.sql`
SELECT count(*)::int AS orders, COALESCE(sum(o.amount_aoa), 0)::float8 AS amount
FROM orders o
WHERE o.attention_at IS NOT NULL AND o.status = 'CAN' AND o.paid_after_cancel_at IS NOT NULL
  AND o.attention_resolved_at IS NULL`,
    // Amounts are signed (a correcting entry's is negative), so the sums are net of corrections.
    // Of them, what gave back the payment of an order counted as paid (lib/orders/paid.ts): the
    // rest gave back a payment after a cancellation, which was never revenue.
    refunds: Prisma.sql`
SELECT to_char(${luandaDay("r.refunded_at")}, 'YYYY-MM-DD') AS day, sum(r.amount_aoa)::float8 AS amount,
       COALESCE(sum(r.amount_aoa) FILTER (WHERE ${isPaid()}), 0)::float8 AS "ofPaid"
FROM refunds r JOIN orders o ON o.id = r.order_id
WHERE r.refunded_at >= ${period.previousStart} AND r.refunded_at < ${period.end}
GROUP BY 1`,
  };
}

export interface PaidRow {
  panel: "day" | "hour" | "delivery" | "promo";
  key: string;
  detail: string | null;
  orders: number;
  amount: number;
  discount: number;
  fees: number;
}
export interface CheckoutRow {
  day: string;
  checkouts: number;
  paid: number;
  serviceCancelled: number;
  expired: number;
  pending: number;
  references: number;
  referencesPaid: number;
}
/** A top product (`top`), or a variant at or below the threshold with its sales (`stock`). */
export interface SalesRow {
  panel: "top" | "stock";
  key: string;
  units: number;
  revenue: number;
  revenueRank: number | null;
  unitsRank: number | null;
  stock: number | null;
  total: number | null;
  productName: string;
  variantTitle: string;
  sku: string | null;
}
export interface PaidAfterCancelRow {
  orders: number;
  amount: number;
}
/** A Luanda day's refunds: all of them, and those of orders counted as paid. */
export interface RefundRow {
  day: string;
  amount: number;
  ofPaid: number;
}

export interface DashboardRows {
  paid: PaidRow[];
  checkouts: CheckoutRow[];
  sales: SalesRow[];
  paidAfterCancel: PaidAfterCancelRow[];
  refunds: RefundRow[];
}

/**
 * What runs the dashboard's statements, and its transaction for keeping the days: `db()`, or
 * pgRunner(dbPool()) (lib/db/sql-runner.ts), the home's.
 */
export type DashboardRunner = SqlRunner & {
  $transaction<T>(work: (tx: SqlRunner) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
};

/** Runs the dashboard's statements at once. */
export async function dashboardRows(db: DashboardRunner, statements: DashboardStatements): Promise<DashboardRows> {
  const [paid, checkouts, sales, paidAfterCancel, refunds] = await Promise.all([
    db.$queryRaw<PaidRow[]>(statements.paid),
    db.$queryRaw<CheckoutRow[]>(statements.checkouts),
    db.$queryRaw<SalesRow[]>(statements.sales),
    db.$queryRaw<PaidAfterCancelRow[]>(statements.paidAfterCancel),
    db.$queryRaw<RefundRow[]>(statements.refunds),
  ]);
  return { paid, checkouts, sales, paidAfterCancel, refunds };
}
