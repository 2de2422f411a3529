/** The owner's dashboard on the back office's home (lib/dashboard). In Portuguese (Angola); composed into ../pt.ts. */

import { SHOP_CALENDAR } from "../../luanda-time";
import { adminRefundFiguresTexts } from "./admin-refund-figures";

const against = (count: number) => (count === 1 ? "face ao dia anterior" : `face aos ${count} dias anteriores`);
const inPrevious = (count: number) => (count === 1 ? "no dia anterior" : `nos ${count} dias anteriores`);
const signed = (percent: number) => `${percent > 0 ? "+" : percent < 0 ? "−" : ""}${Math.abs(percent)} %`;

export const adminDashboardTexts = {
  // The refunds in the figures and their CSV: a block of their own (./admin-refund-figures.ts).
  ...adminRefundFiguresTexts,
  dashboard: {
    title: "Como correu",
    period: "Período",
    periods: {
      today: "Hoje",
      "7d": "Últimos 7 dias",
      "30d": "Últimos 30 dias",
      "90d": "Últimos 90 dias",
      month: "Este mês",
      "last-month": "Mês passado",
      custom: "Personalizado",
    },
    from: "De",
    to: "Até",
    show: "Mostrar",
    customHint: "Para outro intervalo, escolha «Personalizado» e as duas datas (no máximo 366 dias).",
    invalidPeriod: "O período pedido não é válido: mostram-se os últimos 30 dias.",
    /** What was wrong with it; `field` is the form's label of the field at fault. */
    periodProblem: (reason: "unknown-period" | "not-a-date" | "backwards" | "too-long", field: string) =>
      ({
        "unknown-period": `«${field}» não é um dos períodos da lista.`,
        "not-a-date": `«${field}» tem de ser uma data entre ${SHOP_CALENDAR.first} e ${SHOP_CALENDAR.last}.`,
        backwards: "A data «Até» não pode ser anterior à data «De».",
        "too-long": "Um período tem no máximo 366 dias.",
      })[reason],
    range: (from: string, to: string, count: number) =>
      `De ${from} a ${to} (${count === 1 ? "1 dia" : `${count} dias`}, hora de Luanda), ${against(count)}.`,
    /** "+12 %", "−3 %", "0 %"; null when the previous period had nothing to compare with. */
    change: (percent: number | null) => (percent === null ? "sem comparação" : signed(percent)),
    previousValue: (value: string) => `Antes: ${value}`,
    /** "Receita: 1 234 500 Kz, +12 % face aos 30 dias anteriores". */
    summary: (label: string, value: string, percent: number | null, previous: string, count: number) =>
      percent === null
        ? `${label}: ${value}, face a ${previous} ${inPrevious(count)}`
        : `${label}: ${value}, ${signed(percent)} ${against(count)}`,
    share: (share: string, count: string) => `${share} (${count})`,
    figures: {
      revenue: "Receita bruta",
      paidOrders: "Encomendas pagas",
      average: "Valor médio pago",
      checkouts: "Checkouts iniciados",
      paid: "Terminaram pagos",
      serviceCancelled: "Cancelados pelo serviço",
      expired: "Expiraram por pagar",
      pending: "Ainda por pagar",
      other: "Falharam ou abandonados",
      references: "Referências bancárias emitidas",
      referencesPaid: "Referências pagas antes de expirar",
      discounts: "Descontos de códigos promocionais",
      fees: "Taxas de entrega cobradas",
      paidAfterCancel: "Pagas depois de canceladas, por decidir",
    },
    seeOrders: "Ver estas encomendas",
    paidAfterCancelHint: (orders: number, amount: string) =>
      orders === 0
        ? "Nenhuma."
        : `${orders === 1 ? "1 encomenda" : `${orders} encomendas`}, ${amount}: não contam como receita até decidir.`,
    exportPaid: "Exportar as encomendas pagas neste período (CSV)",
    tableOf: (title: string) => `Tabela: ${title}`,
    showTable: "Ver a tabela",
    download: "Descarregar CSV",
    charts: {
      revenue: "Receita bruta por dia",
      revenueSeries: { current: "Este período", previous: "Período anterior" },
      checkouts: "Checkouts por dia, por desfecho",
      revenueByWeek: "Receita bruta por semana",
      checkoutsByWeek: "Checkouts por semana, por desfecho",
      weeks: (days: number) =>
        `Um período de ${days} dias mostra-se por semanas (7 dias a contar do primeiro); o CSV tem todos os dias.`,
      checkoutsSummary: (total: number, paid: string, expired: string) =>
        total === 0
          ? "Nenhum checkout neste período."
          : `${total === 1 ? "1 checkout" : `${total} checkouts`}: ${paid} terminaram pagos, ${expired} expiraram por pagar.`,
      topRevenue: "Os 10 produtos com mais receita",
      topUnits: "Os 10 produtos com mais unidades vendidas",
      topSummary: (name: string | null, value: string) =>
        name === null ? "Nenhum produto vendido neste período." : `À frente: ${name}, ${value}.`,
      delivery: "Levantamento e entrega: receita por zona",
      deliverySummary: (pickup: number, delivery: number, zone: string | null, value: string) =>
        `${delivery} entregas e ${pickup} levantamentos pagos.` +
        (zone ? ` Zona com mais receita: ${zone}, ${value}.` : ""),
      hours: "Encomendas pagas por hora em que foram feitas (Luanda)",
      hoursSummary: (hour: number | null, orders: number) =>
        hour === null ? "Nenhuma encomenda paga neste período." : `Hora com mais encomendas: ${hour}h (${orders}).`,
      promoCodes: "Descontos por código promocional",
      promoSummary: (count: number, total: string) =>
        count === 0
          ? "Nenhum código usado em encomendas pagas."
          : `${count === 1 ? "1 código" : `${count} códigos`}, ${total} em descontos.`,
      stock: "Stock baixo e esgotado",
      stockSummary: (low: number, soldOut: number, threshold: number) =>
        `${low === 1 ? "1 variante" : `${low} variantes`} com ${threshold} unidades ou menos, ${soldOut === 1 ? "1 esgotada" : `${soldOut} esgotadas`}.`,
      stockRate: "Ao ritmo de venda deste período.",
      soldOut: "Esgotados",
      lowStock: "Stock baixo",
      more: (count: number) => `e mais ${count} (no CSV só os primeiros 50 de cada).`,
    },
    columns: {
      date: "Dia",
      previousDate: "Dia anterior",
      week: "Semana",
      previousWeek: "Semana anterior",
      revenue: "Receita",
      previous: "Período anterior",
      orders: "Encomendas",
      product: "Produto",
      units: "Unidades",
      hour: "Hora",
      method: "Método",
      zone: "Zona",
      fees: "Taxas de entrega",
      code: "Código",
      discount: "Desconto",
      sku: "SKU",
      stock: "Stock",
      sold: "Vendidas",
      perDay: "Por dia",
      daysLeft: "Dias de stock",
    },
    methods: { pickup: "Levantamento", delivery: "Entrega", unknown: "Sem registo" },
    none: "—",
  },
  /** The orders list's paid filter and the export's choice (lib/orders/paid.ts). */
  paidOrders: {
    exportBasis: "Encomendas",
    basisCreated: "Criadas nessas datas",
    basisPaid: "Pagas nessas datas",
    basisHint: "Pagas: as que o pagamento confirmou nessas datas, como o painel as conta.",
    paidFilter: (from: string, to: string) => `Pagas de ${from} a ${to} (hora de Luanda)`,
    paidTotal: (count: string, amount: string) => `${count}, ${amount} no total`,
    clearPaidFilter: "Ver todas as encomendas",
  },
};
