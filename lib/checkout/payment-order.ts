import { shownImage } from "../catalog/gallery";
import { formatAoa } from "../money";
import { paymentReferenceItems } from "../pay/sdk/payment-references";
import type { PaymentReferenceItem } from "../pay/sdk/types";
import type { ReservedOrder } from "./reserve";

/**
 * What the payment service and the shopper are told about a reserved order: the name, image and
 * additional information createPaymentOrder sends, and the answer endpoint A gives with the
 * service's reference.
 */

export interface CreatedOrder {
  externalTransactionId: string;
  referenceNumber: string;
  /** subtotalAoa − discountAoa + deliveryFeeAoa: what the service charges. */
  amountAoa: number;
  subtotalAoa: number;
  discountAoa: number;
  deliveryFeeAoa: number;
  /** The code applied, as stored (upper case); null without one. */
  promoCode: string | null;
  /** For the SDK's addAllPaymentReferences (lib/pay/sdk/payment-references.ts); they add up to amountAoa. */
  paymentReferences: PaymentReferenceItem[];
}

export function createdOrder(order: ReservedOrder, referenceNumber: string): CreatedOrder {
  return {
    externalTransactionId: order.externalTransactionId,
    referenceNumber,
    amountAoa: order.amountAoa,
    subtotalAoa: order.subtotalAoa,
    discountAoa: order.discountAoa,
    deliveryFeeAoa: order.deliveryFeeAoa,
    promoCode: order.promoCode,
    paymentReferences: paymentReferenceItems({ referenceNumber, ...order }),
  };
}

/** "1× Café do Amboim; 2× Camisola…, M, Preta; Desconto BEMVINDO10: −1 000 Kz; Entrega: Talatona 2 000 Kz". */
export function additionalInfo(order: ReservedOrder): string {
  return [
    ...order.lines.map((line) => `${line.quantity}× ${line.name}`),
    ...(order.promoCode ? [`Desconto ${order.promoCode}: −${formatAoa(order.discountAoa)}`] : []),
    ...(order.deliveryDescription
      ? [`${order.deliveryDescription}${order.deliveryFeeAoa > 0 ? ` ${formatAoa(order.deliveryFeeAoa)}` : ""}`]
      : []),
  ]
    .join("; ")
    .slice(0, 500);
}

/**
 * The image createPaymentOrder sends (docs/contract-decisions.md, 2.2): the first line's that has
 * one, else the shop's icon (app/icon.svg), so the field always holds the address of an image.
 */
export function orderImage(lines: readonly { imagePath: string }[], appUrl: string): string {
  const path = lines.map((line) => shownImage(line.imagePath)).find((image) => image !== null) ?? SHOP_ICON_PATH;
  return new URL(path, `${appUrl}/`).href;
}

/** app/icon.svg, which Next serves at this address. */
const SHOP_ICON_PATH = "/icon.svg";

/** "Café do Amboim", "Café do Amboim (2)" or "Café do Amboim e mais 2 artigos". */
export function paymentOrderName(lines: ReservedOrder["lines"]): string {
  const [first, ...rest] = lines;
  if (rest.length === 0) return first!.quantity > 1 ? `${first!.name} (${first!.quantity})` : first!.name;
  return `${first!.name} e mais ${rest.length} ${rest.length === 1 ? "artigo" : "artigos"}`;
}
