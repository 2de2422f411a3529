import "server-only";
import type { Database } from "../db/client";
import { pgRunner, type ConnectionPool } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { getEnv } from "../env";
import { jobsForTransition } from "../jobs/job-types";
import { jobsOfOrders } from "../jobs/queue";
import { errorKind, type Logger } from "../log";
import { creationFailureReason } from "../orders/cancel-reasons";
import { releaseExpiredHolds } from "../orders/holds";
import { PayServiceError, type PayClient } from "../orders/pay-client";
import { applyPaymentUpdate } from "../orders/state-machine";
import { rolledBack, type Refusal } from "../refusal";
import type { CheckoutRefusal, CheckoutRefusalCode } from "./checkout-refusal";
import { answerForLockedCart } from "./locked-cart";
import { additionalInfo, createdOrder, orderImage, paymentOrderName, type CreatedOrder } from "./payment-order";
import { reserveOrder, type CreateOrderInput, type OrderPolicy, type ReservedOrder } from "./reserve";

/**
 * Endpoint A (contract 4.2): turn a cart (or a list of items) into an order at the payment
 * service. The order is reserved in one transaction (lib/checkout/reserve.ts), then created at
 * the service outside it; a service that fails gets the order cancelled, its stock and cart given
 * back before the answer. A cart already being checked out answers with that checkout's order.
 */

export type { CheckoutSource, CreateOrderInput, OrderPolicy } from "./reserve";
export type { CreatedOrder } from "./payment-order";

export type CreateOrderResult =
  | ({ ok: true; replayed: boolean } & CreatedOrder)
  | (Refusal<CheckoutRefusalCode | "checkout_in_progress" | ServiceFailureCode> & {
      /** With 429: when the shopper may try again. */
      retryAfterSeconds?: number;
    });

type ServiceFailureCode = "payment_service_unavailable" | "payment_service_error";

export interface CreateOrderDeps {
  db: Database;
  /** The pool under `db` (dbPool()): the reservation and the reference number go through `pg` itself on it. */
  pool: ConnectionPool;
  pay: PayClient;
  /** The shop's public address, for the absolute image URL sent to the service. */
  appUrl: string;
  /** Runs these jobs now (the cancelled order's stock release and cart reopening). */
  runJobsNow: (jobIds: string[]) => Promise<unknown>;
  log: Logger;
  /** How long a second submission of a cart waits for the first one's reference. */
  concurrentCheckoutWaitMs?: number;
  /** Default: ORDER_HOLD_SECONDS, the MAX_OPEN_ORDERS_* and MAX_UNITS_* caps from the environment. */
  orders?: OrderPolicy;
}

/** Tries at storing the service's referenceNumber, 100 ms, then 200 ms apart. */
const REFERENCE_STORE_ATTEMPTS = 3;

export async function createOrder(input: CreateOrderInput, deps: CreateOrderDeps): Promise<CreateOrderResult> {
  const policy = deps.orders ?? getEnv().orders;
  let order: ReservedOrder;
  try {
    order = await reserveOrder(input, deps.pool, policy).catch(async (error: unknown) => {
      // Short because expired holds still keep the units: end them now (bounded, with a short
      // service deadline), then try once more, so a shopper never waits for a sweep.
      const refused = rolledBack<CheckoutRefusal>(error);
      if (refused?.code !== "out_of_stock" || !refused.variantIds) throw error;
      const released = await releaseExpiredHolds(refused.variantIds, deps);
      if (released === 0) throw error;
      deps.log("info", "order.holds_released_for_checkout", { orders: released });
      return reserveOrder(input, deps.pool, policy);
    });
  } catch (error) {
    const refused = rolledBack<CheckoutRefusal>(error);
    if (!refused) throw error;
    if (refused.code === "cart_locked" && input.source.kind === "cart" && input.source.cartId)
      return answerForLockedCart(input.source.cartId, deps.db, deps.concurrentCheckoutWaitMs ?? 10_000);
    return {
      ok: false,
      status: refused.status,
      code: refused.code,
      message: refused.message,
      ...(refused.retryAfterSeconds ? { retryAfterSeconds: refused.retryAfterSeconds } : {}),
    };
  }

  // Outside the transaction: none is held across the network.
  let referenceNumber: string;
  try {
    ({ referenceNumber } = await deps.pay.createPaymentOrder({
      externalTransactionId: order.externalTransactionId,
      clientId: input.clientId,
      name: paymentOrderName(order.lines),
      amountAoa: order.amountAoa,
      image: orderImage(order.lines, deps.appUrl),
      additionalInfo: additionalInfo(order),
    }));
  } catch (error) {
    // The service has no order: cancel ours (cancelReason says why) and give back its stock and
    // cart before answering, so the shopper can try again at once and nothing is left dangling.
    await cancelUnpaidOrder(order.externalTransactionId, error, deps);
    if (error instanceof PayServiceError) {
      return {
        ok: false,
        status: error.httpStatus,
        code: error.kind === "unavailable" ? "payment_service_unavailable" : "payment_service_error",
        message:
          error.kind === "unavailable"
            ? "the payment service is not answering; nothing was charged, please try again in a moment"
            : "the payment service refused the order; nothing was charged",
      };
    }
    throw error;
  }

  await storeReferenceNumber(order, referenceNumber, deps);
  deps.log("info", "order.created", {
    externalTransactionId: order.externalTransactionId,
    amountAoa: order.amountAoa,
    lines: order.lines.length,
  });
  return { ok: true, replayed: false, ...createdOrder(order, referenceNumber) };
}

/**
 * Once the service has the order, a database hiccup must not turn into "nothing was charged":
 * the order is payable at the service whatever we answer, and cancelling it here would not
 * cancel it there. So retry briefly, and if the database still fails, answer with the reference
 * anyway; the order stays PEN (stock reserved, cart locked) as it should while it is payable,
 * the webhook finds it by externalTransactionId, and the reconcile sweep stores the reference.
 */
async function storeReferenceNumber(order: ReservedOrder, referenceNumber: string, deps: CreateOrderDeps) {
  for (let attempt = 1; attempt <= REFERENCE_STORE_ATTEMPTS; attempt++) {
    try {
      await pgRunner(deps.pool).$executeRaw(Prisma.sql`
UPDATE orders SET reference_number = ${referenceNumber}, updated_at = now() WHERE id = ${order.id}::uuid`);
      return;
    } catch (error) {
      deps.log(attempt < REFERENCE_STORE_ATTEMPTS ? "warn" : "error", "order.reference_not_stored", {
        externalTransactionId: order.externalTransactionId,
        attempt,
        error: errorKind(error),
      });
      if (attempt < REFERENCE_STORE_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

async function cancelUnpaidOrder(externalTransactionId: string, error: unknown, deps: CreateOrderDeps): Promise<void> {
  const reason = creationFailureReason(error);
  deps.log("warn", "order.creation_failed", { externalTransactionId, reason });
  await applyPaymentUpdate(deps.db, { externalTransactionId }, { status: "CAN", cancelReason: reason });
  const jobs = await jobsOfOrders(deps.db, jobsForTransition("CAN"), [externalTransactionId]);
  await deps.runJobsNow(jobs.map((job) => job.id));
}
