/**
 * An order's id as the shop issues it, and its number as people read it ("7CDAC2DD"): the
 * shopper's pages and the messages to the customer. Pure, so the browser (and the
 * service worker) may load it.
 */

/** `order_` + a lower-case UUID v4: the only form we issue (and the database accepts). */
export const EXTERNAL_TRANSACTION_ID = /^order_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The first block of the UUID, enough for a person to tell orders apart. */
export function shortOrderId(externalTransactionId: string): string {
  return externalTransactionId.slice("order_".length, "order_".length + 8).toUpperCase();
}

/** The order as the back office's record of who did what names it (staff_events.subject). */
export const orderSubject = (externalTransactionId: string) => `order:${externalTransactionId}`;
