import { luandaFormatter } from "../luanda-time";
import { formatAoa } from "../money";
import { lineName } from "../catalog/variants";

/**
 * The mail the shop's orders mailbox (MAIL_TO) receives for every paid order: what was paid,
 * by whom, and what to ship. Portuguese, plain text.
 */
export interface PaidOrder {
  id: string;
  externalTransactionId: string;
  referenceNumber: string | null;
  paymentReference: string | null;
  entityNumber: string | null;
  amountAoa: number;
  customerName: string | null;
  customerPhone: string | null;
  finalizedAt: Date | null;
  lines: { productName: string; variantTitle: string; sku: string | null; quantity: number; unitPriceAoa: number }[];
}

/** An instant as the mails write it: "23 de novembro de 2026 às 21:30", Luanda time. */
export const luanda = luandaFormatter("pt-AO", { dateStyle: "long", timeStyle: "short" });

/** Customer-typed text on one line, so it cannot forge lines of the mail. */
export const oneLine = (value: string | null) => value?.replace(/\s+/g, " ").trim() || "—";

/**
 * A shopper's name as the mails show it: on one line, between « and » (any of those in it made
 * ‹ and ›, so it cannot close the quote early), after a label. Never as part of the shop's own
 * sentences: whatever the name says, it reads as what somebody typed, not as the shop speaking.
 */
export const quotedName = (value: string | null) =>
  value?.trim() ? `«${oneLine(value).replace(/«/g, "‹").replace(/»/g, "›")}»` : "—";

export function orderConfirmationMail(order: PaidOrder): { subject: string; text: string } {
  const text = [
    "Nova encomenda paga. O pagamento foi confirmado pelo serviço de pagamentos; a encomenda pode ser preparada.",
    "",
    ...orderDetails(order),
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return { subject: `Encomenda paga: ${formatAoa(order.amountAoa)} — ${order.externalTransactionId}`, text };
}

export interface PaidAfterCancelOrder extends PaidOrder {
  paidAfterCancelAt: Date | null;
  /** Why the shop cancelled it (null: the service cancelled it). */
  cancelReason: string | null;
}

const CANCELLED_BECAUSE: Record<string, string> = {
  hold_expired: "a reserva de stock expirou sem pagamento",
  abandoned: "a criação do pagamento ficou por concluir",
};

/**
 * The mail for a payment the service confirmed after the order was cancelled: a customer paid,
 * the goods were put back on the shelf, and a person must decide to fulfil or refund.
 */
export function paidAfterCancelMail(order: PaidAfterCancelOrder): { subject: string; text: string } {
  const why = order.cancelReason
    ? (CANCELLED_BECAUSE[order.cancelReason] ?? `a criação do pagamento falhou (${order.cancelReason})`)
    : "o serviço de pagamentos cancelou-a";
  const text = [
    "ATENÇÃO: uma encomenda cancelada foi paga. Cumpra-a ou reembolse o cliente.",
    "",
    `A encomenda foi cancelada porque ${why}, e o stock reservado voltou às prateleiras.`,
    ...(order.paidAfterCancelAt
      ? [`O serviço de pagamentos confirmou o pagamento em ${luanda.format(order.paidAfterCancelAt)} (hora de Luanda).`]
      : []),
    "A loja não voltou a reservar stock: confirme que há unidades antes de enviar, ou reembolse.",
    "",
    ...orderDetails(order),
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return {
    subject: `Pago depois de cancelado — cumprir ou reembolsar: ${formatAoa(order.amountAoa)} — ${order.externalTransactionId}`,
    text,
  };
}

/** The order's ids, payment, customer and lines, as both mails show them. */
function orderDetails(order: PaidOrder): string[] {
  const lines = order.lines.map(
    (line) =>
      `  ${line.quantity} × ${oneLine(lineName(line.productName, line.variantTitle))}` +
      `${line.sku ? ` (ref. ${oneLine(line.sku)})` : ""} — ${formatAoa(line.unitPriceAoa)} cada — ` +
      formatAoa(line.unitPriceAoa * line.quantity),
  );
  const payment = [
    `Referência: ${oneLine(order.referenceNumber)}`,
    ...(order.paymentReference || order.entityNumber
      ? [`Pagamento por referência: ${oneLine(order.paymentReference)} (entidade ${oneLine(order.entityNumber)})`]
      : []),
  ];
  return [
    `Encomenda: ${order.externalTransactionId}`,
    `Identificador interno: ${order.id}`,
    ...payment,
    `Valor: ${formatAoa(order.amountAoa)}`,
    ...(order.finalizedAt ? [`Pago em: ${luanda.format(order.finalizedAt)} (hora de Luanda)`] : []),
    "",
    `Cliente: ${quotedName(order.customerName)}`,
    `Telefone: ${oneLine(order.customerPhone)}`,
    "",
    "Artigos:",
    ...lines,
    "",
    `Total: ${formatAoa(order.amountAoa)}`,
  ];
}
