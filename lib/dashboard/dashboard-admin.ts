import "server-only";
import { Prisma } from "../generated/prisma/client";
import type { Database } from "../db/client";
import { isPaid, paidBetween } from "../orders/paid";
import { periodDates, type Period } from "./period";

/**
 * The owner's dashboard (the back office's home): how a period of Luanda days went, each figure
 * beside the previous period of the same length. Computed in SQL from the orders, their lines and
 * the variants as they are, four statements in all, run at once, reading the indexes made for
 * them (migrations 20261219000000 to 20261219000200):
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

/** How a checkout (an order created in the period) ended, or that it has not yet. */
export const OUTCOMES = ["paid", "serviceCancelled", "expired", "pending", "other"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface Compared {
  current: number;
  previous: number;
}

export interface DayRevenue {
  date: string;
  /** The day of the previous period at the same place. */
  previousDate: string;
  revenueAoa: number;
  previousRevenueAoa: number;
  orders: number;
}

export type DayCheckouts = { date: string } & Record<Outcome, number>;

export interface ProductSales {
  /** The variant sold (the product's, for lines without one). */
  key: string;
  productName: string;
  /** Its option values as sold ("M, Azul"); empty for a product without options. */
  variantTitle: string;
  units: number;
  /** What its lines brought in, after their share of promo discounts. */
  revenueAoa: number;
}

export interface DeliverySplit {
  /** `pickup`, `delivery`, or `unknown` for orders from before the shop stored it. */
  method: "pickup" | "delivery" | "unknown";
  /** The zone's name as the order snapshotted it; empty for pickup. */
  zone: string;
  orders: number;
  revenueAoa: number;
  deliveryFeesAoa: number;
}

export interface PromoCodeCost {
  code: string;
  orders: number;
  discountAoa: number;
  revenueAoa: number;
}

export interface StockRow {
  variantId: string;
  productName: string;
  variantTitle: string;
  sku: string | null;
  stock: number;
  unitsSold: number;
  /** Units sold per day over the period. */
  perDay: number;
  /** Days of stock left at that rate: 0 when sold out, null when nothing sold. */
  daysLeft: number | null;
}

export interface Dashboard {
  period: Period;
  figures: {
    revenueAoa: Compared;
    paidOrders: Compared;
    /** Revenue ÷ paid orders, rounded to the kwanza; 0 without paid orders. */
    averageOrderAoa: Compared;
    checkouts: Compared;
    outcomes: Record<Outcome, Compared>;
    /** Checkouts given a bank reference, and those of them paid (before the hold expired). */
    references: Compared;
    referencesPaid: Compared;
    discountsAoa: Compared;
    deliveryFeesAoa: Compared;
  };
  /** Paid after cancel and not yet resolved, whenever they happened. */
  paidAfterCancel: { orders: number; amountAoa: number };
  revenueByDay: DayRevenue[];
  checkoutsByDay: DayCheckouts[];
  topProducts: { byRevenue: ProductSales[]; byUnits: ProductSales[] };
  delivery: DeliverySplit[];
  /** Paid orders of the period by the Luanda hour they were placed, 0 to 23. */
  byHour: { hour: number; orders: number; revenueAoa: number }[];
  promoCodes: PromoCodeCost[];
  stock: { threshold: number; lowStock: StockRow[]; soldOut: StockRow[]; lowStockTotal: number; soldOutTotal: number };
}

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

type SqlRunner = Pick<Database, "$queryRaw">;

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

/** The dashboard of `period`, read from `db`. */
export async function adminDashboard(
  db: SqlRunner,
  period: Period,
  options: { lowStockThreshold: number },
): Promise<Dashboard> {
  const rows = await dashboardRows(db, dashboardStatements(period, options.lowStockThreshold));
  return readDashboard(period, options.lowStockThreshold, rows);
}

/**
 * What the dashboard reads, in one cheap statement: the latest change of the orders of each
 * status (an index probe each: every insert and status change sets updated_at, and so does a
 * resolution), and of the catalogue's products and variants with the variants' stock together
 * (a stock change in SQL need not touch updated_at). Equal versions, equal dashboards.
 */
const DATA_VERSION = Prisma.sql`
SELECT concat_ws('|',
  (SELECT max(updated_at) FROM orders WHERE status = 'PEN'),
  (SELECT max(updated_at) FROM orders WHERE status = 'CON'),
  (SELECT max(updated_at) FROM orders WHERE status = 'CAN'),
  (SELECT max(updated_at) FROM products),
  (SELECT max(updated_at)::text || ':' || sum(stock) FROM product_variants)) AS version`;

/** Dashboards kept, by period and threshold: a few periods are asked for again and again. */
const MEMO_SIZE = 32;
const memo = new Map<string, { version: string; dashboard: Promise<Dashboard> }>();

/**
 * {@link adminDashboard}, computed again only when something it reads has changed since it was
 * last computed for the same period in this process ({@link DATA_VERSION}): an owner coming back
 * to the home, or several tabs, cost one small statement instead of the four aggregates, and
 * never see a figure the database no longer agrees with. Simultaneous requests share one run.
 */
export async function currentDashboard(
  db: SqlRunner,
  period: Period,
  options: { lowStockThreshold: number },
): Promise<Dashboard> {
  const [{ version } = { version: "" }] = await db.$queryRaw<{ version: string }[]>(DATA_VERSION);
  const key = `${period.kind}|${period.from}|${period.to}|${options.lowStockThreshold}`;
  const kept = memo.get(key);
  if (kept?.version === version) return kept.dashboard;
  const dashboard = adminDashboard(db, period, options);
  memo.delete(key);
  memo.set(key, { version, dashboard });
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  dashboard.catch(() => {
    if (memo.get(key)?.dashboard === dashboard) memo.delete(key);
  });
  return dashboard;
}

const compared = (current: number, previous: number): Compared => ({ current, previous });
const average = (amount: number, count: number) => (count > 0 ? Math.round(amount / count) : 0);

/** The dashboard from its statements' rows: every series has a point for every day, zeros included. */
export function readDashboard(period: Period, lowStockThreshold: number, rows: DashboardRows): Dashboard {
  const dates = periodDates(period.from, period.days);
  const previousDates = periodDates(period.previousFrom, period.days);
  const isCurrent = (date: string) => date >= period.from;

  const paidDays = new Map(rows.paid.filter((row) => row.panel === "day").map((row) => [row.key, row]));
  const sumPaid = (current: boolean, field: "orders" | "amount" | "discount" | "fees") =>
    [...paidDays.values()].filter((row) => isCurrent(row.key) === current).reduce((sum, row) => sum + row[field], 0);
  const paidFigure = (field: "orders" | "amount" | "discount" | "fees") =>
    compared(sumPaid(true, field), sumPaid(false, field));

  const checkoutDays = new Map(rows.checkouts.map((row) => [row.day, row]));
  const sumCheckouts = (current: boolean, field: keyof Omit<CheckoutRow, "day">) =>
    rows.checkouts.filter((row) => isCurrent(row.day) === current).reduce((sum, row) => sum + row[field], 0);
  const checkoutFigure = (field: keyof Omit<CheckoutRow, "day">) =>
    compared(sumCheckouts(true, field), sumCheckouts(false, field));
  const other = (current: boolean) =>
    sumCheckouts(current, "checkouts") -
    (["paid", "serviceCancelled", "expired", "pending"] as const).reduce(
      (sum, field) => sum + sumCheckouts(current, field),
      0,
    );

  const revenue = paidFigure("amount");
  const paidOrders = paidFigure("orders");

  const stockRows = rows.sales
    .filter((row) => row.panel === "stock")
    .map((row) => {
      const stock = row.stock ?? 0;
      const perDay = row.units / period.days;
      const listed: StockRow & { total: number } = {
        variantId: row.key,
        productName: row.productName,
        variantTitle: row.variantTitle,
        sku: row.sku,
        stock,
        unitsSold: row.units,
        perDay,
        daysLeft: stock <= 0 ? 0 : perDay > 0 ? stock / perDay : null,
        total: row.total ?? 0,
      };
      return listed;
    });
  const soldOut = stockRows.filter((row) => row.stock <= 0);
  const lowStock = stockRows.filter((row) => row.stock > 0);
  const withoutTotal = ({ total: _total, ...row }: StockRow & { total: number }): StockRow => row;

  const top = rows.sales.filter((row) => row.panel === "top");
  const byRank = (rank: "revenueRank" | "unitsRank") =>
    top
      .filter((row) => (row[rank] ?? Infinity) <= TOP_PRODUCTS)
      .sort((a, b) => a[rank]! - b[rank]!)
      .map((row): ProductSales => ({
        key: row.key,
        productName: row.productName,
        variantTitle: row.variantTitle,
        units: row.units,
        revenueAoa: row.revenue,
      }));

  const hours = new Map(rows.paid.filter((row) => row.panel === "hour").map((row) => [Number(row.key), row]));
  const paidAfterCancel = rows.paidAfterCancel[0] ?? { orders: 0, amount: 0 };

  return {
    period,
    figures: {
      revenueAoa: revenue,
      paidOrders,
      averageOrderAoa: compared(
        average(revenue.current, paidOrders.current),
        average(revenue.previous, paidOrders.previous),
      ),
      checkouts: checkoutFigure("checkouts"),
      outcomes: {
        paid: checkoutFigure("paid"),
        serviceCancelled: checkoutFigure("serviceCancelled"),
        expired: checkoutFigure("expired"),
        pending: checkoutFigure("pending"),
        other: compared(other(true), other(false)),
      },
      references: checkoutFigure("references"),
      referencesPaid: checkoutFigure("referencesPaid"),
      discountsAoa: paidFigure("discount"),
      deliveryFeesAoa: paidFigure("fees"),
    },
    paidAfterCancel: { orders: paidAfterCancel.orders, amountAoa: paidAfterCancel.amount },
    revenueByDay: dates.map((date, index) => {
      const previousDate = previousDates[index]!;
      return {
        date,
        previousDate,
        revenueAoa: paidDays.get(date)?.amount ?? 0,
        previousRevenueAoa: paidDays.get(previousDate)?.amount ?? 0,
        orders: paidDays.get(date)?.orders ?? 0,
      };
    }),
    checkoutsByDay: dates.map((date) => {
      const row = checkoutDays.get(date);
      const counts = {
        paid: row?.paid ?? 0,
        serviceCancelled: row?.serviceCancelled ?? 0,
        expired: row?.expired ?? 0,
        pending: row?.pending ?? 0,
      };
      const known = counts.paid + counts.serviceCancelled + counts.expired + counts.pending;
      return { date, ...counts, other: (row?.checkouts ?? 0) - known };
    }),
    topProducts: { byRevenue: byRank("revenueRank"), byUnits: byRank("unitsRank") },
    delivery: rows.paid
      .filter((row) => row.panel === "delivery")
      .map((row) => ({
        method: row.key as DeliverySplit["method"],
        zone: row.detail ?? "",
        orders: row.orders,
        revenueAoa: row.amount,
        deliveryFeesAoa: row.fees,
      }))
      .sort((a, b) => b.revenueAoa - a.revenueAoa || a.method.localeCompare(b.method) || a.zone.localeCompare(b.zone)),
    byHour: Array.from({ length: 24 }, (_, hour) => ({
      hour,
      orders: hours.get(hour)?.orders ?? 0,
      revenueAoa: hours.get(hour)?.amount ?? 0,
    })),
    promoCodes: rows.paid
      .filter((row) => row.panel === "promo")
      .map((row) => ({ code: row.key, orders: row.orders, discountAoa: row.discount, revenueAoa: row.amount }))
      .sort((a, b) => b.discountAoa - a.discountAoa || a.code.localeCompare(b.code)),
    stock: {
      threshold: lowStockThreshold,
      lowStock: lowStock.map(withoutTotal),
      soldOut: soldOut.map(withoutTotal),
      lowStockTotal: lowStock[0]?.total ?? 0,
      soldOutTotal: soldOut[0]?.total ?? 0,
    },
  };
}
