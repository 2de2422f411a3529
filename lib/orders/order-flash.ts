/**
 * The outcomes of the back office's buttons on an order's page (/admin/orders/<externalTransactionId>)
 * and a webhook delivery's (/admin/webhooks/<id>), `?done=…` or `?error=…`, and those pages'
 * addresses. Apart from the actions so that the pages do not load the service client and the job runner.
 */

/** Why an action did nothing; the order page has a sentence for each. */
export const ORDER_ACTION_ERRORS = [
  "not_pending",
  "checked_recently",
  "not_parked",
  "service_failed",
  "invalid_note",
  "nothing_to_resolve",
  "order_not_paid",
  "invalid_transition",
  "invalid_fulfilment_state",
  "invalid_fulfilment_note",
  // "Cumprir" an order paid after it was cancelled (lib/orders/fulfil-after-cancel-admin.ts).
  "not_paid_after_cancel",
  "already_fulfilled",
  "already_refunded",
  "stock_short",
  "busy",
] as const;
export type OrderActionError = (typeof ORDER_ACTION_ERRORS)[number];
/** What an action did; the order page has a sentence for each. */
export const ORDER_ACTION_DONE = ["refreshed", "retried", "resolved", "fulfilment", "fulfilled_after_cancel"] as const;
export type OrderActionDone = (typeof ORDER_ACTION_DONE)[number];

/** The order page's address, with the outcome for its flash message. */
export const orderPagePath = (externalTransactionId: string) =>
  `/admin/orders/${encodeURIComponent(externalTransactionId)}`;

/** A webhook delivery's page in the back office (one that matched no order has no other). */
export const webhookEventPagePath = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;
