import "server-only";
import { Prisma } from "../generated/prisma/client";
import {
  dashboardRows,
  dashboardStatements,
  keptDays,
  TOP_PRODUCTS,
  type CheckoutRow,
  type DashboardRows,
  type DashboardRunner,
} from "./dashboard-sql-admin";
import { luandaDate, luandaPeriods } from "../luanda-time";
import { adminOverview, type AdminOverview } from "../orders/overview-admin";
import { keepDashboardDays, runnerTransaction } from "./dashboard-days-admin";
import { periodDates, type Period } from "./period";

/**
 * The owner's dashboard (the back office's home): how a period of Luanda days went, each figure
 * beside the previous period of the same length. Its shape ({@link Dashboard}), read from the
 * answers of its five statements (lib/dashboard/dashboard-sql-admin.ts) over the days kept
 * (lib/dashboard/dashboard-days-admin.ts) and today's orders, every series with a point for every
 * day; and the same dashboard reused while nothing it reads has changed.
 */

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
  /** What went back that day, whatever the order (signed: net of correcting entries). */
  refundsAoa: number;
  /** The day's revenue less that day's refunds of orders counted as paid. */
  netRevenueAoa: number;
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
    /** Gross: what the paid orders of the period paid ({@link netRevenueAoa} is what stayed). */
    revenueAoa: Compared;
    /**
     * What went back to shoppers in the period (by refunded_at), whatever the order: signed, so a
     * correcting entry's negative amount takes back what it corrects.
     */
    refundsAoa: Compared;
    /**
     * Of {@link refundsAoa}, what gave back payments after a cancellation (orders not counted as
     * paid): never revenue, so not taken from {@link netRevenueAoa}.
     */
    refundsOutsideRevenueAoa: Compared;
    /** Net: revenue less the period's refunds of orders counted as paid, whenever those were paid. */
    netRevenueAoa: Compared;
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

/**
 * The dashboard of `period`, read from `db` on the day of `now`: the closed days it reads kept
 * first (lib/dashboard/dashboard-days-admin.ts), then its statements.
 */
export async function adminDashboard(
  db: DashboardRunner,
  period: Period,
  options: { lowStockThreshold: number; now?: Date },
): Promise<Dashboard> {
  const today = luandaDate(options.now ?? new Date());
  await keepDashboardDays(runnerTransaction(db), keptDays(period, today));
  const rows = await dashboardRows(db, dashboardStatements(period, options.lowStockThreshold, today));
  return readDashboard(period, options.lowStockThreshold, rows);
}

/**
 * What the home's figures and the dashboard read, in one cheap statement: the latest change of
 * the orders of each status (an index probe each: every insert and status change sets
 * updated_at, and so does a resolution), the latest refund, how many are pending (an order whose transaction
 * committed after a later one's has an updated_at the maximum does not show, but it was created
 * pending, and every way out of pending changes this count), and the latest change of the
 * catalogue's products and variants with the variants' stock together (a stock change in SQL need
 * not touch updated_at). Equal versions, equal figures.
 */
const DATA_VERSION = Prisma.sql`
SELECT concat_ws('|',
  -- Refunds are only ever added, and their number comes from one counter in the adding
  -- transaction: the highest number moves with every one committed (an index probe).
  (SELECT max(number) FROM refunds),
  (SELECT max(updated_at) FROM orders WHERE status = 'PEN'),
  (SELECT count(*) FROM orders WHERE status = 'PEN'),
  (SELECT max(updated_at) FROM orders WHERE status = 'CON'),
  (SELECT max(updated_at) FROM orders WHERE status = 'CAN'),
  (SELECT max(updated_at) FROM products),
  (SELECT max(updated_at)::text || ':' || sum(stock) FROM product_variants)) AS version`;

/** Figures kept, by what they are for (a period and threshold, or the home's day): a few are asked for again and again. */
const MEMO_SIZE = 32;
const memo = new Map<string, { version: string; value: Promise<unknown> }>();

/**
 * `compute()`, or what it gave for `key` in this process while the data version was the same
 * ({@link DATA_VERSION}). Simultaneous requests share one run; a failed run is not kept.
 */
function remembered<T>(key: string, version: string, compute: () => Promise<T>): Promise<T> {
  const kept = memo.get(key);
  if (kept?.version === version) return kept.value as Promise<T>;
  const value = compute();
  memo.delete(key);
  memo.set(key, { version, value });
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  value.catch(() => {
    if (memo.get(key)?.value === value) memo.delete(key);
  });
  return value;
}

const dataVersion = async (db: DashboardRunner) =>
  (await db.$queryRaw<{ version: string }[]>(DATA_VERSION))[0]?.version ?? "";

const dashboardKey = (period: Period, lowStockThreshold: number) =>
  `dashboard|${period.kind}|${period.from}|${period.to}|${lowStockThreshold}`;

/**
 * {@link adminDashboard}, computed again only when something it reads has changed since it was
 * last computed for the same period in this process ({@link DATA_VERSION}): an owner coming back
 * to the home, or several tabs, cost one small statement instead of the keeping and the five, and
 * never see a figure the database no longer agrees with.
 */
export async function currentDashboard(
  db: DashboardRunner,
  period: Period,
  options: { lowStockThreshold: number; now?: Date },
): Promise<Dashboard> {
  return remembered(dashboardKey(period, options.lowStockThreshold), await dataVersion(db), () =>
    adminDashboard(db, period, options),
  );
}

/**
 * The home's figures (lib/orders/overview-admin.ts) and the dashboard of `period`, under one read
 * of the data version: each is computed again only when the orders or the catalogue changed (or,
 * for the figures, the Luanda day did).
 */
export async function currentHome(
  db: DashboardRunner,
  period: Period,
  options: { lowStockThreshold: number; now?: Date },
): Promise<{ overview: AdminOverview; dashboard: Dashboard }> {
  const version = await dataVersion(db);
  const now = options.now ?? new Date();
  const [overview, dashboard] = await Promise.all([
    remembered(`overview|${luandaPeriods(now).dayStart.toISOString()}`, version, () => adminOverview(db, now)),
    remembered(dashboardKey(period, options.lowStockThreshold), version, () => adminDashboard(db, period, options)),
  ]);
  return { overview, dashboard };
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
  const refundDays = new Map(rows.refunds.map((row) => [row.day, row]));
  const sumRefunds = (current: boolean, field: "amount" | "ofPaid") =>
    rows.refunds.filter((row) => isCurrent(row.day) === current).reduce((sum, row) => sum + row[field], 0);
  const refunds = compared(sumRefunds(true, "amount"), sumRefunds(false, "amount"));
  const refundsOfPaid = compared(sumRefunds(true, "ofPaid"), sumRefunds(false, "ofPaid"));

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
      refundsAoa: refunds,
      refundsOutsideRevenueAoa: compared(
        refunds.current - refundsOfPaid.current,
        refunds.previous - refundsOfPaid.previous,
      ),
      netRevenueAoa: compared(revenue.current - refundsOfPaid.current, revenue.previous - refundsOfPaid.previous),
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
        refundsAoa: refundDays.get(date)?.amount ?? 0,
        netRevenueAoa: (paidDays.get(date)?.amount ?? 0) - (refundDays.get(date)?.ofPaid ?? 0),
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
