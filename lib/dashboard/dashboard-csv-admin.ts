import "server-only";
import { csvRecords } from "../orders/export-admin";
import type { Dashboard } from "./dashboard-admin";

/**
 * Each series of the dashboard as a CSV file (GET /api/admin/dashboard/export?series=…): the same
 * numbers as its chart and table, amounts in whole kwanza, escaped as the orders export is
 * (csvRecords: quoting, and text that a spreadsheet would take for a formula made harmless, which
 * matters for product names, zones and promo codes typed in the back office).
 */

export const DASHBOARD_SERIES = [
  "revenue",
  "refunds",
  "checkouts",
  "products",
  "zones",
  "hours",
  "promo-codes",
  "stock",
] as const;
export type DashboardSeries = (typeof DASHBOARD_SERIES)[number];

function records(data: Dashboard, series: DashboardSeries): unknown[][] {
  switch (series) {
    case "revenue":
      return [
        ["date", "revenue_aoa", "paid_orders", "previous_date", "previous_revenue_aoa"],
        ...data.revenueByDay.map((day) => [
          day.date,
          day.revenueAoa,
          day.orders,
          day.previousDate,
          day.previousRevenueAoa,
        ]),
      ];
    case "refunds":
      // Net revenue takes off only the refunds of orders counted as paid (lib/dashboard/dashboard-admin.ts).
      return [
        ["date", "refunds_aoa", "revenue_aoa", "net_revenue_aoa"],
        ...data.revenueByDay.map((day) => [day.date, day.refundsAoa, day.revenueAoa, day.netRevenueAoa]),
      ];
    case "checkouts":
      return [
        ["date", "paid", "cancelled_by_service", "expired_unpaid", "pending", "other_cancelled"],
        ...data.checkoutsByDay.map((day) => [
          day.date,
          day.paid,
          day.serviceCancelled,
          day.expired,
          day.pending,
          day.other,
        ]),
      ];
    case "products": {
      // Both top tens in one file: a product in both is written once.
      const rows = new Map(
        [...data.topProducts.byRevenue, ...data.topProducts.byUnits].map((row) => [row.key, row] as const),
      );
      return [
        ["product", "variant", "units", "revenue_aoa"],
        ...[...rows.values()]
          .sort((a, b) => b.revenueAoa - a.revenueAoa)
          .map((row) => [row.productName, row.variantTitle, row.units, row.revenueAoa]),
      ];
    }
    case "zones":
      return [
        ["method", "zone", "paid_orders", "revenue_aoa", "delivery_fees_aoa"],
        ...data.delivery.map((row) => [row.method, row.zone, row.orders, row.revenueAoa, row.deliveryFeesAoa]),
      ];
    case "hours":
      return [
        ["hour_luanda", "paid_orders", "revenue_aoa"],
        ...data.byHour.map((row) => [row.hour, row.orders, row.revenueAoa]),
      ];
    case "promo-codes":
      return [
        ["promo_code", "paid_orders", "discount_aoa", "revenue_aoa"],
        ...data.promoCodes.map((row) => [row.code, row.orders, row.discountAoa, row.revenueAoa]),
      ];
    case "stock":
      return [
        ["product", "variant", "sku", "stock", "units_sold", "units_per_day", "days_left"],
        ...[...data.stock.soldOut, ...data.stock.lowStock].map((row) => [
          row.productName,
          row.variantTitle,
          row.sku ?? "",
          row.stock,
          row.unitsSold,
          Math.round(row.perDay * 100) / 100,
          row.daysLeft === null ? "" : Math.floor(row.daysLeft),
        ]),
      ];
  }
}

/** The series as CSV text, a BOM first so that Excel reads it as UTF-8 (as the orders export). */
export function dashboardCsv(data: Dashboard, series: DashboardSeries): string {
  return `\uFEFF${csvRecords(records(data, series))}`;
}
