import "server-only";
import { Prisma } from "../generated/prisma/client";
import type { Database } from "../db/client";
import { isPaid, paidBetween } from "../orders/paid";
import type { Period } from "./period";

/**
 * What the owner's dashboard asks the database (lib/dashboard/dashboard-admin.ts reads the
 * answers): four statements, run at once, computed in SQL from the orders, their lines and the
 * variants as they are, reading the indexes made for them (migrations 20261219000000 to
 * 20261219000200):
 *
 * - paid: the paid orders of both periods (lib/orders/paid.ts), by Luanda day, and of this one
 *   by hour placed, delivery method and zone, and promo code;
 * - checkouts: the orders created in both periods, by Luanda day and how each ended;
 * - sales: this period's paid lines by variant: the top 10 by revenue and by units, and the
 *   active variants at or below the low-stock threshold with their units sold;
 * - paid after cancel: the payments for cancelled orders still waiting for a person's decision.
 *
 * Each statement is built by {@link dashboardStatements} so the bench's baseline can send the very
 * same SQL through `pg`. Amounts are whole kwanza, sums read as float8 (exact far beyond any shop).
 */

/** How many products each top list shows. */
export const TOP_PRODUCTS = 10;
/** How many low-stock or sold-out variants the stock panel lists (the rest are counted). */
export const STOCK_ROWS = 50;

/** An instant's Luanda date, in SQL: the columns hold UTC (docs/database.md), Luanda is UTC+1. */
const luandaDay = (column: string) => Prisma.raw(`to_char(${column} + interval '1 hour', 'YYYY-MM-DD')`);
const luandaHour = (column: string) => Prisma.raw(`extract(hour FROM ${column} + interval '1 hour')::int`);

export interface DashboardStatements {
  paid: Prisma.Sql;
  checkouts: Prisma.Sql;
  sales: Prisma.Sql;
  paidAfterCancel: Prisma.Sql;
}

/** The dashboard's statements for `period`; `lowStockThreshold` is LOW_STOCK_THRESHOLD. */
export function dashboardStatements(period: Period, lowStockThreshold: number): DashboardStatements {
  const { previousStart, start, end } = period;
  return {
    // One pass over both periods' paid orders (the partial index on finalized_at, read alone), grouped four ways.
    paid: Prisma.sql`
WITH paid AS MATERIALIZED (
  SELECT ${luandaDay("o.finalized_at")} AS day, o.finalized_at >= ${start} AS current,
         o.amount_aoa, o.discount_aoa, o.delivery_fee_aoa, o.delivery_method, o.delivery_zone_name, o.promo_code,
         ${luandaHour("o.created_at")} AS hour
  FROM orders o
  WHERE ${paidBetween(previousStart, end)}
)
SELECT 'day' AS panel, day AS key, NULL::text AS detail, count(*)::int AS orders,
       sum(amount_aoa)::float8 AS amount, sum(discount_aoa)::float8 AS discount, sum(delivery_fee_aoa)::float8 AS fees
FROM paid GROUP BY day
UNION ALL
SELECT 'hour', hour::text, NULL, count(*)::int, sum(amount_aoa)::float8, 0, 0
FROM paid WHERE current GROUP BY hour
UNION ALL
SELECT 'delivery', COALESCE(delivery_method, 'unknown'), COALESCE(delivery_zone_name, ''), count(*)::int,
       sum(amount_aoa)::float8, 0, sum(delivery_fee_aoa)::float8
FROM paid WHERE current GROUP BY delivery_method, delivery_zone_name
UNION ALL
SELECT 'promo', promo_code, NULL, count(*)::int, sum(amount_aoa)::float8, sum(discount_aoa)::float8, 0
FROM paid WHERE current AND promo_code IS NOT NULL GROUP BY promo_code`,
    // The orders created in both periods, by day and by how they ended. Cancelled by the service:
    // CAN without a reason of the shop's own (lib/orders/state-machine.ts); expired: the shop's
    // `hold_expired`; other: a failed creation or `abandoned`.
    checkouts: Prisma.sql`
SELECT ${luandaDay("o.created_at")} AS day,
       count(*)::int AS checkouts,
       count(*) FILTER (WHERE ${isPaid()})::int AS paid,
       count(*) FILTER (WHERE o.status = 'CAN' AND o.cancel_reason IS NULL)::int AS "serviceCancelled",
       count(*) FILTER (WHERE o.status = 'CAN' AND o.cancel_reason = 'hold_expired')::int AS expired,
       count(*) FILTER (WHERE o.status = 'PEN')::int AS pending,
       count(*) FILTER (WHERE o.payment_reference IS NOT NULL)::int AS "references",
       count(*) FILTER (WHERE o.payment_reference IS NOT NULL AND ${isPaid()})::int AS "referencesPaid"
FROM orders o
WHERE o.created_at >= ${previousStart} AND o.created_at < ${end}
GROUP BY 1`,
    // This period's paid lines by variant (the paid orders' index, then the lines' covering index on
    // order_id, neither visiting a table), once for both panels: the top 10 by revenue and by units,
    // and the units sold of the variants at or below the threshold (sold out first, then the fewest
    // left). A line's revenue is what it cost less its share of the promo discount (bigint: price ×
    // quantity may pass int4). Names and titles are the variants' own now, so a renamed product
    // sells under one name; the title is the option values in the options' order.
    sales: Prisma.sql`
WITH sold AS (
  SELECT COALESCE(l.variant_id, l.product_id) AS key, sum(l.quantity)::int AS units,
         sum(l.unit_price_aoa::bigint * l.quantity - l.discount_aoa)::float8 AS revenue
  -- Each paid order's lines by the lines' covering index on order_id (OFFSET 0 keeps the planner
  -- from flattening it into a hash join over every line ever sold, which grows with the shop).
  FROM orders o CROSS JOIN LATERAL (
    SELECT l.variant_id, l.product_id, l.quantity, l.unit_price_aoa, l.discount_aoa
    FROM order_lines l WHERE l.order_id = o.id OFFSET 0
  ) l
  WHERE ${paidBetween(start, end)}
  GROUP BY 1
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

export interface DashboardRows {
  paid: PaidRow[];
  checkouts: CheckoutRow[];
  sales: SalesRow[];
  paidAfterCancel: PaidAfterCancelRow[];
}

export type SqlRunner = Pick<Database, "$queryRaw">;

/** Runs the dashboard's statements at once. */
export async function dashboardRows(db: SqlRunner, statements: DashboardStatements): Promise<DashboardRows> {
  const [paid, checkouts, sales, paidAfterCancel] = await Promise.all([
    db.$queryRaw<PaidRow[]>(statements.paid),
    db.$queryRaw<CheckoutRow[]>(statements.checkouts),
    db.$queryRaw<SalesRow[]>(statements.sales),
    db.$queryRaw<PaidAfterCancelRow[]>(statements.paidAfterCancel),
  ]);
  return { paid, checkouts, sales, paidAfterCancel };
}
