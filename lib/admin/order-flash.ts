/**
 * The order page's flash messages (/admin/orders/<externalTransactionId>?done=… or ?error=…), set
 * by the actions of ./order-actions.ts. Apart from them so the page does not import the actions'
 * service client and job runner.
 */

/** Why an action did nothing; the order page has a sentence for each. */
export const ORDER_ACTION_ERRORS = ["not_pending", "checked_recently", "not_parked", "service_failed"] as const;
export type OrderActionError = (typeof ORDER_ACTION_ERRORS)[number];
/** What an action did; the order page has a sentence for each. */
export const ORDER_ACTION_DONE = ["refreshed", "retried"] as const;
export type OrderActionDone = (typeof ORDER_ACTION_DONE)[number];

/** The order page's address, with the outcome for its flash message. */
export const orderPagePath = (externalTransactionId: string) =>
  `/admin/orders/${encodeURIComponent(externalTransactionId)}`;
