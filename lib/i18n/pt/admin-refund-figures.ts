/**
 * The refunds in the owner's figures: the dashboard's refunds, net revenue and their picture, and
 * the refunds' CSV beside the orders export (lib/dashboard, lib/orders/refund-export-admin.ts). In
 * Portuguese (Angola); composed into ./admin-dashboard.ts, and so ../back-office.ts.
 */

export const adminRefundFiguresTexts = {
  refundFigures: {
    refunds: "Reembolsos",
    netRevenue: "Receita líquida (bruta menos reembolsos)",
    /** Under the refunds' figure, when some gave back payments after a cancellation. */
    outsideRevenue: (amount: string) =>
      `Inclui ${amount} de pagamentos depois de cancelar, que não contaram como receita nem se descontam dela.`,
    chart: "Reembolsos por dia",
    chartByWeek: "Reembolsos por semana",
    chartSeries: "Reembolsado",
    columns: { refunds: "Reembolsado", revenue: "Receita bruta", netRevenue: "Receita líquida" },
    exportPeriod: "Exportar os reembolsos deste período (CSV)",
    /** The orders list's form, beside the orders' export. */
    exportTitle: "Exportar reembolsos (CSV)",
    exportHint:
      "Os reembolsos feitos entre as duas datas (incluídas), na hora de Luanda: um por linha, com as correcções.",
    from: "De",
    to: "Até",
    download: "Descarregar reembolsos",
  },
};
