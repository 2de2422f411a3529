import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { getEnv } from "../env";
import { shopperPaidMail, fulfilmentMail, shopperReferenceMail, type ShopperMailOrder } from "../mail/shopper-mails";
import { orderConfirmationMail, paidAfterCancelMail, type PaidAfterCancelOrder } from "../mail/order-confirmation";
import type { Mailer } from "../mail/types";
import { appRecipientLimit, type RecipientLimit } from "../mail/recipient-limit";
import { consoleLogger, orderLogRef, throttledLogger, type Logger } from "../log";
import { orderDelivery } from "../orders/delivery-details";
import { FULFILMENT_STATES } from "../orders/fulfilment-states";
import { referencePayBy } from "../orders/reference-holds";
import { referenceValidUntil } from "../orders/reference-slip";
import { releasePromoUse } from "../promotions/promo-codes";
import { returnUnits } from "../catalog/stock";
import { JOB_TYPES, type JobType } from "./job-types";
import { sendRefundMail } from "./refund-mail";
import { PermanentJobError, type ClaimedJob } from "./queue";

/**
 * What each job does (lib/jobs/job-types.ts lists them). Every handler is idempotent: a job can
 * run again after a crash between its work and being marked DONE, or after a timeout while its
 * first run was still going, and the second run changes nothing ({@link JobHandler} says how).
 */

export type { Database };

export interface JobContext {
  db: Database;
  /**
   * The same database for statements written as SQL: through `pg` itself in the app (Prisma's path
   * costs more than a payment's one-statement jobs), the test's client in tests.
   */
  sql: SqlRunner;
  /** The mailer and the shop's orders mailbox (MAIL_TO), resolved on first use. */
  mail(): { mailer: Mailer; to: string };
  /** Aborted when the job times out. The job will run again, so stopping early is always safe. */
  signal: AbortSignal;
  /** Where a handler says what it did not do and why; default: the console (lib/log.ts). */
  log?: Logger;
  /** The allowance of mails about unpaid orders per recipient; default: the app's (lib/mail/recipient-limit.ts). */
  recipients?: RecipientLimit;
}

/** Nothing, or why there was nothing to do (logged with the job's outcome). */
export type JobResult = void | { skipped: string };

/**
 * One kind of job. To be idempotent, each one:
 *
 * - re-reads the order and does nothing unless it is still in the status that enqueued the job
 *   (CON jobs need CON, CAN jobs need CAN; the shopper's mails need CON and an email) —
 *   defensive, since final states never change;
 * - guards its writes with a condition that only the first run satisfies (an `emails` row with
 *   the job's key, the invoice's unique order id, `stock_released_at IS NULL`, the cart's status),
 *   checked in the same transaction as the writes.
 */
export type JobHandler = (job: ClaimedJob, context: JobContext) => Promise<JobResult>;

const orderPayload = z.object({ orderId: z.uuid(), externalTransactionId: z.string().min(1) });

function orderIdOf(job: ClaimedJob): string {
  const parsed = orderPayload.safeParse(job.payload);
  // Retrying cannot fix a payload: park the job so someone looks at it.
  if (!parsed.success) throw new PermanentJobError(`payload is not { orderId, externalTransactionId }`);
  return parsed.data.orderId;
}

const skipped = (reason: string): JobResult => ({ skipped: reason });

/** Orders are never deleted: a job whose order is missing is an anomaly, retried and then parked for a person. */
const orderNotFound = (orderId: string) => new Error(`order ${orderId} not found`);

type OrderWithLines = NonNullable<Awaited<ReturnType<typeof findOrderWithLines>>>;

const findOrderWithLines = (db: Database, orderId: string) =>
  db.order.findUnique({
    where: { id: orderId },
    include: { lines: { orderBy: [{ productName: "asc" }, { id: "asc" }] } },
  });

/** What the orders mailbox's mails show of an order, with its status and whether the job's mail is already sent. */
type MailboxOrder = PaidAfterCancelOrder & { status: string; mailed: boolean };

/**
 * The order, its lines and whether an `emails` row has the job's key, in one statement: a
 * payment's confirmation runs for every payment, where Prisma's path read them in three.
 */
async function findMailboxOrder(sql: SqlRunner, orderId: string, jobKey: string): Promise<MailboxOrder | undefined> {
  const [order] = await sql.$queryRaw<MailboxOrder[]>(Prisma.sql`
SELECT o.id, o.external_transaction_id AS "externalTransactionId", o.reference_number AS "referenceNumber",
       o.payment_reference AS "paymentReference", o.entity_number AS "entityNumber", o.amount_aoa AS "amountAoa",
       o.customer_name AS "customerName", o.customer_phone AS "customerPhone", o.finalized_at AS "finalizedAt",
       o.status::text AS status, o.paid_after_cancel_at AS "paidAfterCancelAt", o.cancel_reason AS "cancelReason",
       COALESCE((SELECT json_agg(json_build_object('productName', l.product_name, 'variantTitle', l.variant_title,
                                                   'sku', l.sku, 'quantity', l.quantity, 'unitPriceAoa', l.unit_price_aoa)
                                 ORDER BY l.product_name, l.id)
                 FROM order_lines l WHERE l.order_id = o.id), '[]') AS lines,
       EXISTS (SELECT 1 FROM emails e WHERE e.job_key = ${jobKey}) AS mailed
FROM orders o WHERE o.id = ${orderId}::uuid`);
  return order;
}

/**
 * A mail to the shop's orders mailbox about the job's order, once: `skipReason` says why the
 * order no longer calls for it, and an `emails` row with the job's key means an earlier run
 * sent it and crashed (or timed out) before the job was marked DONE.
 */
async function mailAboutOrder(
  job: ClaimedJob,
  { sql, mail }: JobContext,
  compose: {
    skipReason: (order: MailboxOrder) => string | undefined;
    message: (order: MailboxOrder) => { subject: string; text: string };
  },
): Promise<JobResult> {
  const orderId = orderIdOf(job);
  const order = await findMailboxOrder(sql, orderId, job.dedupeKey);
  if (!order) throw orderNotFound(orderId);
  const reason = compose.skipReason(order);
  if (reason) return skipped(reason);
  if (order.mailed) return skipped("already mailed");
  const { mailer, to } = mail();
  await mailer.send({ to, jobKey: job.dedupeKey, ...compose.message(order) });
}

/** CON: mail the shop's orders mailbox what was paid and what to ship. */
const sendConfirmationMail: JobHandler = (job, context) =>
  mailAboutOrder(job, context, {
    skipReason: (order) => (order.status === "CON" ? undefined : `order is ${order.status}, not CON`),
    message: orderConfirmationMail,
  });

/**
 * CON after CAN: mail the orders mailbox that a cancelled order was paid, so a person fulfils or
 * refunds it. The order was marked for attention by the statement that recorded the payment.
 */
const sendPaidAfterCancelMail: JobHandler = (job, context) =>
  mailAboutOrder(job, context, {
    skipReason: (order) => (order.paidAfterCancelAt ? undefined : "the order has no payment after cancel"),
    message: paidAfterCancelMail,
  });

/** The order as the shopper's mails show it, with its page at the shop. */
const shopperOrderOf = (order: OrderWithLines): ShopperMailOrder => ({
  externalTransactionId: order.externalTransactionId,
  amountAoa: order.amountAoa,
  customerName: order.customerName,
  finalizedAt: order.finalizedAt,
  lines: order.lines,
  delivery: orderDelivery(order),
  pageUrl: new URL(`/orders/${encodeURIComponent(order.externalTransactionId)}`, getEnv().appUrl).toString(),
});

/** Over-allowance lines, at most a minute's worth per logger: a flood of free mails is no flood of lines. */
const throttledLogs = new WeakMap<Logger, Logger>();
const throttledOf = (log: Logger) => {
  let throttled = throttledLogs.get(log);
  if (!throttled) throttledLogs.set(log, (throttled = throttledLogger(log)));
  return throttled;
};

/** Why a mail over its recipient's allowance was skipped (the job's outcome and the log line say it). */
export const OVER_RECIPIENT_ALLOWANCE = "the recipient has had its mails about unpaid orders for the day";

/**
 * A mail to the shopper (the order's `customer_email`), once, under the job's key: skipped with
 * a reason when the order has no email, is not in the status the mail is about (CON, unless
 * `status` says PEN), when `skipReason` says so, or when an earlier run sent it.
 *
 * A mail about an unpaid order (`status` PEN: the bank reference's) is one anyone can have the
 * shop send to any address, for free: it spends one of that address's mails for the day
 * (SHOPPER_MAILS_PER_ADDRESS_PER_DAY), and past them it is skipped and logged without the
 * address, and not retried. When the counters cannot be reached it throws: the job is retried
 * later, and the mail never goes out uncounted. Mails about a paid order (the payment's, each
 * fulfilment step's) always go and spend nothing: someone paid for that order, and they are its
 * receipt.
 */
async function mailShopper(
  job: ClaimedJob,
  context: JobContext,
  compose: {
    status?: "PEN" | "CON";
    skipReason: (order: OrderWithLines) => Promise<string | undefined> | string | undefined;
    message: (order: OrderWithLines) => Promise<{ subject: string; text: string }> | { subject: string; text: string };
  },
): Promise<JobResult> {
  const { db, mail } = context;
  const orderId = orderIdOf(job);
  const order = await findOrderWithLines(db, orderId);
  if (!order) throw orderNotFound(orderId);
  if (!order.customerEmail) return skipped("the order has no customer email");
  const status = compose.status ?? "CON";
  if (order.status !== status) return skipped(`order is ${order.status}, not ${status}`);
  const reason = await compose.skipReason(order);
  if (reason) return skipped(reason);
  if (await db.email.findFirst({ where: { jobKey: job.dedupeKey }, select: { id: true } }))
    return skipped("already mailed");
  if (status === "PEN" && !(await (context.recipients ?? appRecipientLimit()).spend(order.customerEmail))) {
    // Never the address, nor the job's key (it carries the payment reference): the job's type and the order's hash.
    throttledOf(context.log ?? consoleLogger)("warn", "mail.over_allowance", {
      type: job.type,
      order: orderLogRef(order.externalTransactionId),
      reason: "recipient_allowance",
    });
    return skipped(OVER_RECIPIENT_ALLOWANCE);
  }
  const { mailer } = mail();
  await mailer.send({ to: order.customerEmail, jobKey: job.dedupeKey, ...(await compose.message(order)) });
}

/** CON: tell the shopper the payment is confirmed, with the order's lines, amount and delivery. */
const sendShopperPaidMail: JobHandler = (job, context) =>
  mailShopper(job, context, {
    skipReason: () => undefined,
    message: (order) => shopperPaidMail(shopperOrderOf(order)),
  });

const referencePayload = z.object({ paymentReference: z.string().min(1) });

/**
 * PEN with a bank reference: mail the shopper what to pay and until when. Only while the order
 * waits for that very reference: paid or cancelled meanwhile, the mail would mislead, and a newer
 * reference has its own job.
 */
const sendShopperReferenceMail: JobHandler = (job, context) => {
  const parsed = referencePayload.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("payload has no paymentReference");
  const { paymentReference } = parsed.data;
  return mailShopper(job, context, {
    status: "PEN",
    skipReason: (order) =>
      order.paymentReference === paymentReference ? undefined : "the order has another payment reference",
    message: (order) =>
      shopperReferenceMail(shopperOrderOf(order), {
        entityNumber: order.entityNumber,
        paymentReference,
        validUntil: referenceValidUntil(order.createdAt, referencePayBy(order)?.toISOString()),
      }),
  });
};

const fulfilmentPayload = z.object({ state: z.enum(FULFILMENT_STATES) });

/**
 * A fulfilment step (lib/orders/fulfilment.ts): tell the shopper, with the step's time and note
 * as its event records them. The job's payload names the step; its event must exist.
 */
const sendFulfilmentMail: JobHandler = (job, context) => {
  const parsed = fulfilmentPayload.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("payload has no fulfilment state");
  const { state } = parsed.data;
  const eventOf = (order: OrderWithLines) =>
    context.db.fulfilmentEvent.findFirst({
      where: { orderId: order.id, state },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { createdAt: true, note: true },
    });
  return mailShopper(job, context, {
    skipReason: async (order) => ((await eventOf(order)) ? undefined : `the order has no ${state} event`),
    message: async (order) => {
      const event = (await eventOf(order))!;
      return fulfilmentMail(shopperOrderOf(order), { state, at: event.createdAt, note: event.note });
    },
  });
};

/**
 * CON: issue the invoice, once, numbered without gaps, in one statement (the counter's row is
 * locked only while it runs, where a transaction of four round trips held it across all of them):
 * lock the counter row (concurrent issuers queue here, and each reads the number the one before
 * it left), insert the invoice with the next number unless the order already has one (`ON
 * CONFLICT` on its unique order id sees invoices committed after the statement began), and move
 * the counter to the number inserted. A failure anywhere undoes all of it, so no number is ever
 * drawn and lost, as a sequence would lose it (fiscal rules want consecutive invoice numbers).
 */
async function recordInvoice(job: ClaimedJob, { sql }: JobContext): Promise<JobResult> {
  const orderId = orderIdOf(job);
  const [found] = await sql.$queryRaw<{ status: string | null; number: number | null }[]>(Prisma.sql`
WITH next AS (SELECT last_number + 1 AS number FROM invoice_counter WHERE id = 1 FOR UPDATE),
invoiced AS (
  INSERT INTO invoices (order_id, amount_aoa, number)
  SELECT o.id, o.amount_aoa, next.number FROM orders o, next
  WHERE o.id = ${orderId}::uuid AND o.status = 'CON'
  ON CONFLICT (order_id) DO NOTHING
  RETURNING number
), counted AS (
  UPDATE invoice_counter SET last_number = invoiced.number FROM invoiced WHERE invoice_counter.id = 1
  RETURNING last_number
)
SELECT (SELECT status::text FROM orders WHERE id = ${orderId}::uuid) AS status,
       (SELECT last_number FROM counted) AS number`);
  if (found?.number != null) return;
  if (!found?.status) throw orderNotFound(orderId);
  return skipped(found.status === "CON" ? "invoice already issued" : `order is ${found.status}, not CON`);
}

/**
 * Lets go of the cart an order holds, in one statement (it runs for every final order, right
 * after the webhook's reply). It locks the cart and changes it only when the order is in
 * `orderStatus`, the cart is LOCKED and this order holds it: the newest order made from it
 * (create-order locks a cart OPEN → LOCKED for one checkout at a time) and, when reopening,
 * with no other order on it still PEN. What it found explains a skip.
 */
async function releaseHeldCart(
  db: SqlRunner,
  orderId: string,
  release: { orderStatus: "CON" | "CAN"; cartStatus: "CHECKED_OUT" | "OPEN"; emptyItems: boolean },
): Promise<JobResult> {
  const reopening = release.cartStatus === "OPEN";
  const [found] = await db.$queryRaw<
    { orderStatus: string | null; cartId: string | null; cartStatus: string | null; held: boolean | null }[]
  >(Prisma.sql`
WITH ord AS (
  SELECT id, status::text AS status, cart_id FROM orders WHERE id = ${orderId}::uuid
), cart AS (
  SELECT c.id, c.status::text AS status FROM carts c JOIN ord ON c.id = ord.cart_id
  WHERE ord.status = ${release.orderStatus}
  FOR UPDATE OF c
), holder AS (
  SELECT (SELECT o.id FROM orders o WHERE o.cart_id = cart.id ORDER BY o.created_at DESC, o.id DESC LIMIT 1)
           = ${orderId}::uuid
         AND NOT (${reopening} AND EXISTS (
           SELECT 1 FROM orders p WHERE p.cart_id = cart.id AND p.status = 'PEN' AND p.id <> ${orderId}::uuid
         )) AS held
  FROM cart
), released AS (
  UPDATE carts c SET status = ${release.cartStatus}::"CartStatus", updated_at = now()
  FROM cart, holder
  WHERE c.id = cart.id AND cart.status = 'LOCKED' AND holder.held
  RETURNING c.id
), emptied AS (
  DELETE FROM cart_lines i USING released WHERE ${release.emptyItems} AND i.cart_id = released.id
)
SELECT ord.status AS "orderStatus", ord.cart_id AS "cartId", cart.status AS "cartStatus", holder.held
FROM (SELECT 1) AS one LEFT JOIN ord ON true LEFT JOIN cart ON true LEFT JOIN holder ON true`);
  if (!found?.orderStatus) throw orderNotFound(orderId);
  if (found.orderStatus !== release.orderStatus)
    return skipped(`order is ${found.orderStatus}, not ${release.orderStatus}`);
  if (!found.cartId || !found.cartStatus) return skipped("the order has no cart");
  if (found.cartStatus !== "LOCKED") return skipped(`cart is ${found.cartStatus}`);
  if (!found.held) return skipped("another order holds the cart");
}

/** CON: empty the cart the order was paid from and mark it checked out. */
const clearCart: JobHandler = (job, { sql }) =>
  releaseHeldCart(sql, orderIdOf(job), { orderStatus: "CON", cartStatus: "CHECKED_OUT", emptyItems: true });

/** CAN: put the order's units back on the shelf, and give its promo code's use back, exactly once. */
async function releaseStock(job: ClaimedJob, { db }: JobContext): Promise<JobResult> {
  const orderId = orderIdOf(job);
  return db.$transaction(async (tx) => {
    // The marker and the stock change commit together: of any number of runs, concurrent or
    // not, one sets stock_released_at and the rest find it set (a concurrent one waits on the
    // row lock, then re-checks the condition) and change nothing.
    const marked = await tx.$executeRaw(Prisma.sql`
UPDATE orders SET stock_released_at = now()
WHERE id = ${orderId}::uuid AND status = 'CAN' AND stock_released_at IS NULL`);
    if (marked === 0) {
      const order = await tx.order.findUnique({ where: { id: orderId }, select: { status: true } });
      if (!order) throw orderNotFound(orderId);
      return skipped(order.status === "CAN" ? "stock already released" : `order is ${order.status}, not CAN`);
    }
    const lines = await tx.orderLine.findMany({
      where: { orderId },
      select: { productId: true, variantId: true, quantity: true },
    });
    // Every line has its variant (a migration gave lines older than variants their default one).
    const missing = lines.find((line) => !line.variantId);
    if (missing) throw new Error(`order ${orderId} has a line of product ${missing.productId} without a variant`);
    // lib/catalog/stock.ts' lock order, as create-order reserves, so the two never deadlock.
    await returnUnits(
      tx,
      lines.map((line) => ({ productId: line.productId, variantId: line.variantId!, quantity: line.quantity })),
    );
    // Its promo code's use goes back with its units, once (lib/promotions/promo-codes.ts), after them in lock order.
    await releasePromoUse(tx, orderId);
  });
}

/** CAN: unlock the cart (items kept) so the shopper can change it and pay again. */
const reopenCart: JobHandler = (job, { sql }) =>
  releaseHeldCart(sql, orderIdOf(job), { orderStatus: "CAN", cartStatus: "OPEN", emptyItems: false });

export const jobHandlers: Record<JobType, JobHandler> = {
  [JOB_TYPES.confirmationMail]: sendConfirmationMail,
  [JOB_TYPES.clearCart]: clearCart,
  [JOB_TYPES.recordInvoice]: recordInvoice,
  [JOB_TYPES.releaseStock]: releaseStock,
  [JOB_TYPES.reopenCart]: reopenCart,
  [JOB_TYPES.paidAfterCancelMail]: sendPaidAfterCancelMail,
  [JOB_TYPES.shopperPaidMail]: sendShopperPaidMail,
  [JOB_TYPES.fulfilmentMail]: sendFulfilmentMail,
  [JOB_TYPES.shopperReferenceMail]: sendShopperReferenceMail,
  [JOB_TYPES.refundMail]: sendRefundMail,
};
