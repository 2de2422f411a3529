/** The owner's dashboard on the back office's home (lib/dashboard). In English; composed into ../en.ts. */

import { SHOP_CALENDAR } from "../../luanda-time";
import type { adminDashboardTexts as pt } from "../pt/admin-dashboard";
import { adminRefundFiguresTexts } from "./admin-refund-figures";

const against = (count: number) => (count === 1 ? "against the day before" : `against the ${count} days before`);
const inPrevious = (count: number) => (count === 1 ? "in the day before" : `in the ${count} days before`);
const signed = (percent: number) => `${percent > 0 ? "+" : percent < 0 ? "−" : ""}${Math.abs(percent)}%`;

export const adminDashboardTexts: typeof pt = {
  ...adminRefundFiguresTexts,
  dashboard: {
    title: "How it went",
    period: "Period",
    periods: {
      today: "Today",
      "7d": "Last 7 days",
      "30d": "Last 30 days",
      "90d": "Last 90 days",
      month: "This month",
      "last-month": "Last month",
      custom: "Custom",
    },
    from: "From",
    to: "To",
    show: "Show",
    customHint: "For another range, choose “Custom” and both dates (366 days at most).",
    invalidPeriod: "That period is not valid: showing the last 30 days.",
    periodProblem: (reason, field) =>
      ({
        "unknown-period": `“${field}” is not one of the listed periods.`,
        "not-a-date": `“${field}” must be a date from ${SHOP_CALENDAR.first} to ${SHOP_CALENDAR.last}.`,
        backwards: "The “To” date cannot be before the “From” date.",
        "too-long": "A period is 366 days at most.",
      })[reason],
    range: (from, to, count) =>
      `From ${from} to ${to} (${count === 1 ? "1 day" : `${count} days`}, Luanda time), ${against(count)}.`,
    change: (percent) => (percent === null ? "no comparison" : signed(percent)),
    previousValue: (value) => `Before: ${value}`,
    summary: (label, value, percent, previous, count) =>
      percent === null
        ? `${label}: ${value}, against ${previous} ${inPrevious(count)}`
        : `${label}: ${value}, ${signed(percent)} ${against(count)}`,
    share: (share, count) => `${share} (${count})`,
    figures: {
      revenue: "Gross revenue",
      paidOrders: "Paid orders",
      average: "Average paid order",
      checkouts: "Checkouts started",
      paid: "Ended paid",
      serviceCancelled: "Cancelled by the service",
      expired: "Expired unpaid",
      pending: "Still pending",
      other: "Failed or abandoned",
      references: "Bank references issued",
      referencesPaid: "References paid before expiry",
      discounts: "Promo code discounts",
      fees: "Delivery fees charged",
      paidAfterCancel: "Paid after cancel, awaiting a decision",
    },
    seeOrders: "See these orders",
    paidAfterCancelHint: (orders, amount) =>
      orders === 0
        ? "None."
        : `${orders === 1 ? "1 order" : `${orders} orders`}, ${amount}: not revenue until you decide.`,
    exportPaid: "Export the orders paid in this period (CSV)",
    tableOf: (title) => `Table: ${title}`,
    showTable: "Show the table",
    download: "Download CSV",
    charts: {
      revenue: "Gross revenue per day",
      revenueSeries: { current: "This period", previous: "Previous period" },
      checkouts: "Checkouts per day, by outcome",
      revenueByWeek: "Gross revenue per week",
      checkoutsByWeek: "Checkouts per week, by outcome",
      weeks: (days) => `A period of ${days} days is shown by weeks (7 days from its first); the CSV has every day.`,
      checkoutsSummary: (total, paid, expired) =>
        total === 0
          ? "No checkout in this period."
          : `${total === 1 ? "1 checkout" : `${total} checkouts`}: ${paid} ended paid, ${expired} expired unpaid.`,
      topRevenue: "Top 10 products by revenue",
      topUnits: "Top 10 products by units sold",
      topSummary: (name, value) => (name === null ? "No product sold in this period." : `Ahead: ${name}, ${value}.`),
      delivery: "Pickup and delivery: revenue by zone",
      deliverySummary: (pickup, delivery, zone, value) =>
        `${delivery} deliveries and ${pickup} pickups paid.` +
        (zone ? ` Zone with most revenue: ${zone}, ${value}.` : ""),
      hours: "Paid orders by the hour they were placed (Luanda)",
      hoursSummary: (hour, orders) =>
        hour === null ? "No paid order in this period." : `Busiest hour: ${hour}h (${orders}).`,
      promoCodes: "Discounts by promo code",
      promoSummary: (count, total) =>
        count === 0
          ? "No code used on paid orders."
          : `${count === 1 ? "1 code" : `${count} codes`}, ${total} in discounts.`,
      stock: "Low and sold-out stock",
      stockSummary: (low, soldOut, threshold) =>
        `${low === 1 ? "1 variant" : `${low} variants`} with ${threshold} units or fewer, ${soldOut} sold out.`,
      stockRate: "At this period's rate of sale.",
      soldOut: "Sold out",
      lowStock: "Low stock",
      more: (count) => `and ${count} more (the CSV has the first 50 of each).`,
    },
    columns: {
      date: "Day",
      previousDate: "Day before",
      week: "Week",
      previousWeek: "Week before",
      revenue: "Revenue",
      previous: "Previous period",
      orders: "Orders",
      product: "Product",
      units: "Units",
      hour: "Hour",
      method: "Method",
      zone: "Zone",
      fees: "Delivery fees",
      code: "Code",
      discount: "Discount",
      sku: "SKU",
      stock: "Stock",
      sold: "Sold",
      perDay: "Per day",
      daysLeft: "Days of stock",
    },
    methods: { pickup: "Pickup", delivery: "Delivery", unknown: "Not recorded" },
    none: "—",
  },
  paidOrders: {
    exportBasis: "Orders",
    basisCreated: "Created on those dates",
    basisPaid: "Paid on those dates",
    basisHint: "Paid: those whose payment was confirmed on those dates, as the dashboard counts them.",
    paidFilter: (from, to) => `Paid from ${from} to ${to} (Luanda time)`,
    paidTotal: (count, amount) => `${count}, ${amount} in all`,
    clearPaidFilter: "See every order",
  },
};
