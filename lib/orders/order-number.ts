/**
 * An order's number as people read it ("7CDAC2DD"): the shopper's pages, their lookup and the
 * messages to the customer. Pure, so the browser may load it.
 */

/** The first block of the UUID, enough for a person to tell orders apart. */
export function shortOrderId(externalTransactionId: string): string {
  return externalTransactionId.slice("order_".length, "order_".length + 8).toUpperCase();
}
