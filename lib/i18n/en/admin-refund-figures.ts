import type { adminRefundFiguresTexts as pt } from "../pt/admin-refund-figures";

/** The refunds in the owner's figures, in English; mirrors ../pt/admin-refund-figures.ts. */

export const adminRefundFiguresTexts: typeof pt = {
  refundFigures: {
    refunds: "Refunds",
    netRevenue: "Net revenue (gross less refunds)",
    outsideRevenue: (amount: string) =>
      `Includes ${amount} of payments after a cancellation, which never counted as revenue and are not taken from it.`,
    chart: "Refunds per day",
    chartByWeek: "Refunds per week",
    chartSeries: "Refunded",
    columns: { refunds: "Refunded", revenue: "Gross revenue", netRevenue: "Net revenue" },
    exportPeriod: "Export the refunds of this period (CSV)",
    exportTitle: "Export refunds (CSV)",
    exportHint: "The refunds made between the two dates (included), Luanda time: one per row, corrections included.",
    from: "From",
    to: "To",
    download: "Download refunds",
  },
};
