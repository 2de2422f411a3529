import type { Dictionary } from "../i18n/pt";
import { luandaDayAndTime } from "../luanda-time";
import { formatAoa } from "../money";
import { REFERENCE_PAYMENT_LIFE_SPAN_MINUTES } from "../pay/sdk/config";

/**
 * A pending bank reference as the shopper keeps it: the few lines (shop, order, entity, reference,
 * amount, until when) that the pending page shares, saves as a text file and shows. Pure, so the
 * browser may load it.
 */

export interface ReferenceSlip {
  /** The order's number as people read it (lib/orders/order-number.ts). */
  orderNumber: string;
  entityNumber?: string;
  paymentReference?: string;
  amountAoa: number;
  /** Until when to pay, ISO; absent when not known. */
  validUntil?: string;
}

/**
 * Until when the shopper should pay: the order's own deadline when its hold ends first (endpoint
 * C's `payBy`), else the reference's life span from the order's creation. The service gives no
 * expiry and issues the reference after the order exists, so this is never later than the real one.
 */
export function referenceValidUntil(createdAt: Date, payBy?: string): string {
  return payBy ?? new Date(createdAt.getTime() + REFERENCE_PAYMENT_LIFE_SPAN_MINUTES * 60_000).toISOString();
}

/** The slip as plain text, one fact a line, in the page's language. */
export function referenceSlipText(t: Dictionary, slip: ReferenceSlip): string {
  const s = t.order.slip;
  return [
    s.heading(t.shop.name),
    t.order.title(slip.orderNumber),
    ...(slip.entityNumber ? [`${t.order.entityNumber}: ${slip.entityNumber}`] : []),
    ...(slip.paymentReference ? [`${t.order.paymentReference}: ${slip.paymentReference}`] : []),
    `${t.order.amount}: ${formatAoa(slip.amountAoa)}`,
    ...(slip.validUntil ? [`${s.validUntil}: ${s.luandaTime(luandaDayAndTime(slip.validUntil, t.locale))}`] : []),
  ].join("\n");
}

/** The saved file's contents as a link the browser downloads, with no script and no request to the shop. */
export const referenceFileHref = (text: string): string => `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;

/** "referencia-7CDAC2DD.txt". */
export const referenceFileName = (orderNumber: string): string => `referencia-${orderNumber}.txt`;
