import type { PaymentStatus } from "../pay/api/payment-status";

/**
 * The kinds of job, their payload and their dedupe keys: the side effects of an order's final
 * transition (contract 3), enqueued by the same statement that makes the transition
 * (lib/orders/state-machine.ts), of a paid order's fulfilment changes (lib/orders/fulfilment.ts),
 * and of its refunds (lib/orders/refund-note.ts).
 */
export const JOB_TYPES = {
  /** CON: mail the shop's orders mailbox that the order is paid and what to ship. */
  confirmationMail: "confirmation-mail",
  /** CON: empty the cart the order came from and mark it checked out. */
  clearCart: "clear-cart",
  /** CON: issue the invoice (and so record the order for fulfilment). */
  recordInvoice: "record-invoice",
  /** CAN: put the reserved units back in stock. */
  releaseStock: "release-stock",
  /** CAN: unlock the cart so the shopper can change it and pay again. */
  reopenCart: "reopen-cart",
  /** CON for a CAN order: mail the orders mailbox that a cancelled order was paid (fulfil or refund). */
  paidAfterCancelMail: "paid-after-cancel-mail",
  /** CON: mail the shopper that the order is paid; enqueued only for an order with a customer_email. */
  shopperPaidMail: "shopper-paid-mail",
  /** A fulfilment change (shipped, ready for pickup, delivered, collected): mail the shopper, when there is an email. */
  fulfilmentMail: "fulfilment-mail",
  /**
   * PEN with a new bank reference, for an order with an email: mail the shopper the entity,
   * reference, amount and until when, so the reference survives a closed tab. Payload adds
   * `paymentReference`; key `shopper-reference-mail:<reference>:<externalTransactionId>`.
   */
  shopperReferenceMail: "shopper-reference-mail",
  /**
   * A refund or a correcting entry recorded (lib/orders/refunds-admin.ts), for an order with an
   * email: mail the shopper what went back and the refund note's address. Payload adds
   * `refundNumber`; key `refund-mail:<number>:<externalTransactionId>`, once per refund.
   */
  refundMail: "refund-mail",
} as const;

export type JobType = (typeof JOB_TYPES)[keyof typeof JOB_TYPES];

/**
 * The jobs whose work changes what the cached catalogue pages show: a cancelled order's units back
 * on the shelf. A run of one that did its work (not skipped) has the pages marked stale.
 */
export const CATALOGUE_JOB_TYPES: ReadonlySet<string> = new Set<JobType>([JOB_TYPES.releaseStock]);

/**
 * Payload of every job (a fulfilment mail's adds `state`, a reference mail's `paymentReference`, a refund mail's `refundNumber`). Every job names its order in
 * `jobs.order_id` too, set by the statement that enqueues it, which is how the back office and
 * `jobsOfOrders` find an order's jobs (an index, not the keys read one by one).
 */
export interface OrderJobPayload {
  orderId: string;
  externalTransactionId: string;
}

/**
 * The jobs a transition to `to` enqueues for an order: all of these for an order with the
 * shopper's email, and without the shopper's paid mail for one without (a job that could only be
 * skipped would be a row and a run for nothing, on every payment).
 */
export function jobsForTransition(to: Exclude<PaymentStatus, "PEN">, shopperEmail = true): JobType[] {
  if (to !== "CON") return [JOB_TYPES.releaseStock, JOB_TYPES.reopenCart];
  const jobs = [JOB_TYPES.confirmationMail, JOB_TYPES.clearCart, JOB_TYPES.recordInvoice];
  return shopperEmail ? [...jobs, JOB_TYPES.shopperPaidMail] : jobs;
}

/**
 * `<type>:<externalTransactionId>`, so a job is enqueued once per order; a fulfilment mail's is
 * `fulfilment-mail:<state>:<externalTransactionId>`, once per order and state, a reference mail's
 * `shopper-reference-mail:<reference>:<externalTransactionId>`, once per reference, a refund
 * mail's `refund-mail:<number>:<externalTransactionId>`, once per refund. Every key ends with the
 * order's id (what finds an order's jobs by key, and filled jobs.order_id for the older ones). A
 * mail's `emails.job_key` is its job's key.
 */
export const dedupeKeyOf = (type: JobType, externalTransactionId: string) => `${type}:${externalTransactionId}`;
