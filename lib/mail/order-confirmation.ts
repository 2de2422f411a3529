import { formatAoa } from "../money";

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
  lines: { productName: string; quantity: number; unitPriceAoa: number }[];
}

const luanda = new Intl.DateTimeFormat("pt-AO", { dateStyle: "long", timeStyle: "short", timeZone: "Africa/Luanda" });

/** Customer-typed text on one line, so it cannot forge lines of the mail. */
const oneLine = (value: string | null) => value?.replace(/\s+/g, " ").trim() || "—";

export function orderConfirmationMail(order: PaidOrder): { subject: string; text: string } {
  const lines = order.lines.map(
    (line) =>
      `  ${line.quantity} × ${oneLine(line.productName)} — ${formatAoa(line.unitPriceAoa)} cada — ` +
      formatAoa(line.unitPriceAoa * line.quantity),
  );
  const payment = [
    `Referência: ${oneLine(order.referenceNumber)}`,
    ...(order.paymentReference || order.entityNumber
      ? [`Pagamento por referência: ${oneLine(order.paymentReference)} (entidade ${oneLine(order.entityNumber)})`]
      : []),
  ];
  const text = [
    "Nova encomenda paga. O pagamento foi confirmado pelo serviço de pagamentos; a encomenda pode ser preparada.",
    "",
    `Encomenda: ${order.externalTransactionId}`,
    `Identificador interno: ${order.id}`,
    ...payment,
    `Valor: ${formatAoa(order.amountAoa)}`,
    ...(order.finalizedAt ? [`Pago em: ${luanda.format(order.finalizedAt)} (hora de Luanda)`] : []),
    "",
    `Cliente: ${oneLine(order.customerName)}`,
    `Telefone: ${oneLine(order.customerPhone)}`,
    "",
    "Artigos:",
    ...lines,
    "",
    `Total: ${formatAoa(order.amountAoa)}`,
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return { subject: `Encomenda paga: ${formatAoa(order.amountAoa)} — ${order.externalTransactionId}`, text };
}
