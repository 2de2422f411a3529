import { formatAoa } from "../money";
import { addressLine, type OrderDelivery } from "../orders/delivery-details";
import type { FulfilmentState } from "../orders/fulfilment-states";
import { lineName } from "../catalog/variants";
import { pt } from "../i18n/pt";
import { shortOrderId } from "../orders/order-number";
import { referenceSlipText } from "../orders/reference-slip";
import { luanda, oneLine, quotedName } from "./order-confirmation";

/**
 * The mails the shopper receives at the email given at checkout: the bank reference to pay,
 * when the service issues one, one when the payment is confirmed, one at each fulfilment step. Portuguese, plain text; whatever the shopper or the
 * shop typed (names, address, the step's note) is kept to one line, so it cannot forge lines of
 * the mail. The shopper's name is never in the shop's own words: the greeting is a plain "Olá,"
 * and the name is a labelled, quoted field among the order's details ("Em nome de: «…»"), since
 * whoever checks out chooses both the name and the address these go to. Each carries the order
 * page's address, where the shopper follows the order.
 */

export interface ShopperMailOrder {
  externalTransactionId: string;
  amountAoa: number;
  customerName: string | null;
  finalizedAt: Date | null;
  lines: { productName: string; variantTitle: string; quantity: number; unitPriceAoa: number }[];
  delivery: OrderDelivery;
  /** The order's page at the shop: APP_URL + /orders/<externalTransactionId>. */
  pageUrl: string;
}

/** The bank reference as the pending page shows, shares and saves it (lib/orders/reference-slip.ts). */
export interface ReferenceMailSlip {
  entityNumber: string | null;
  paymentReference: string;
  /** Until when to pay, ISO: the order's own deadline or the reference's life span. */
  validUntil: string;
}

/**
 * PEN with a bank reference: the same lines as the slip the pending page shares and saves, so a
 * shopper who closed the tab still has what the ATM asks for. It says plainly that nothing is
 * paid yet, and what happens after the deadline.
 */
export function shopperReferenceMail(
  order: ShopperMailOrder,
  slip: ReferenceMailSlip,
): { subject: string; text: string } {
  const number = shortOrderId(order.externalTransactionId);
  const text = [
    "Olá,",
    "",
    `A sua encomenda ${number} está reservada à espera do pagamento por referência.`,
    "Pague com estes dados num caixa automático ou no seu banco:",
    "",
    referenceSlipText(pt, {
      orderNumber: number,
      ...(slip.entityNumber ? { entityNumber: slip.entityNumber } : {}),
      paymentReference: slip.paymentReference,
      amountAoa: order.amountAoa,
      validUntil: slip.validUntil,
    }),
    "",
    `Pague até ${luanda.format(new Date(slip.validUntil))} (hora de Luanda): depois, a encomenda é cancelada e os artigos voltam à venda.`,
    "Este e-mail não confirma nenhum pagamento: enviamos outro quando o banco o confirmar.",
    "",
    ...details(order),
    "",
    `Acompanhe a encomenda em: ${order.pageUrl}`,
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return { subject: `Encomenda ${number}: referência para pagar ${formatAoa(order.amountAoa)}`, text };
}

export function shopperPaidMail(order: ShopperMailOrder): { subject: string; text: string } {
  const number = shortOrderId(order.externalTransactionId);
  const next =
    order.delivery.method === "pickup"
      ? "Avisamos quando a encomenda estiver pronta para levantar."
      : order.delivery.method === "delivery"
        ? "Avisamos quando a encomenda for enviada."
        : "Avisamos quando a encomenda avançar.";
  const text = [
    "Olá,",
    "",
    `Recebemos o pagamento da sua encomenda ${number}. Obrigado!`,
    next,
    "",
    ...details(order),
    "",
    `Acompanhe a encomenda em: ${order.pageUrl}`,
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return { subject: `Encomenda ${number} paga — ${formatAoa(order.amountAoa)}`, text };
}

const STEP_SENTENCE: Record<FulfilmentState, { subject: string; body: string }> = {
  shipped: { subject: "enviada", body: "A sua encomenda foi enviada e está a caminho." },
  ready_for_pickup: { subject: "pronta para levantar", body: "A sua encomenda está pronta para levantar." },
  delivered: { subject: "entregue", body: "A sua encomenda foi entregue. Obrigado pela preferência!" },
  collected: { subject: "levantada", body: "A sua encomenda foi levantada. Obrigado pela preferência!" },
};

export function fulfilmentMail(
  order: ShopperMailOrder,
  step: { state: FulfilmentState; at: Date; note: string | null },
): { subject: string; text: string } {
  const number = shortOrderId(order.externalTransactionId);
  const sentence = STEP_SENTENCE[step.state];
  const text = [
    "Olá,",
    "",
    sentence.body,
    `Em ${luanda.format(step.at)} (hora de Luanda).`,
    ...(step.note ? [`Nota da loja: ${oneLine(step.note)}`] : []),
    "",
    ...details(order),
    "",
    `Acompanhe a encomenda em: ${order.pageUrl}`,
    "",
    "Mensagem automática da loja.",
  ].join("\n");
  return { subject: `Encomenda ${number} ${sentence.subject}`, text };
}

/** The lines, the amount in parts, and how the goods reach the shopper. */
function details(order: ShopperMailOrder): string[] {
  const { delivery } = order;
  const lines = order.lines.map(
    (line) =>
      `  ${line.quantity} × ${oneLine(lineName(line.productName, line.variantTitle))} — ` +
      formatAoa(line.unitPriceAoa * line.quantity),
  );
  const breakdown = delivery.breakdown
    ? [
        `Subtotal: ${formatAoa(delivery.breakdown.subtotalAoa)}`,
        ...(delivery.breakdown.discountAoa > 0
          ? [
              `Desconto${delivery.breakdown.promoCode ? ` (${oneLine(delivery.breakdown.promoCode)})` : ""}: −${formatAoa(delivery.breakdown.discountAoa)}`,
            ]
          : []),
        ...(delivery.method === "delivery" || delivery.breakdown.deliveryFeeAoa > 0
          ? [`Entrega: ${formatAoa(delivery.breakdown.deliveryFeeAoa)}`]
          : []),
      ]
    : [];
  const how =
    delivery.method === "pickup" && delivery.pickup
      ? [
          `Levantamento em: ${oneLine(delivery.pickup.name)}`,
          `Morada: ${oneLine(delivery.pickup.address)}`,
          `Horário: ${oneLine(delivery.pickup.hours)}`,
        ]
      : delivery.method === "delivery"
        ? [
            `Entrega${delivery.zone ? ` (${oneLine(delivery.zone.name)})` : ""}: ${delivery.address ? oneLine(addressLine(delivery.address)) : "—"}`,
            ...(delivery.zone?.estimatedDays
              ? [`Prazo previsto: ${delivery.zone.estimatedDays} dia${delivery.zone.estimatedDays === 1 ? "" : "s"}`]
              : []),
          ]
        : [];
  return [
    `Encomenda: ${shortOrderId(order.externalTransactionId)} (${order.externalTransactionId})`,
    `Em nome de: ${quotedName(order.customerName)}`,
    ...(order.finalizedAt ? [`Paga em: ${luanda.format(order.finalizedAt)} (hora de Luanda)`] : []),
    "",
    "Artigos:",
    ...lines,
    "",
    ...breakdown,
    `Total: ${formatAoa(order.amountAoa)}`,
    ...(how.length ? ["", ...how] : []),
  ];
}
