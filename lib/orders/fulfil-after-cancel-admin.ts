import "server-only";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import { lockProducts, takeUnits } from "../catalog/stock";
import { lineName } from "../catalog/variants";
import { retakePromoUse } from "../promotions/promo-codes";
import { rolledBack, Rollback } from "../refusal";
import { closePaidAfterCancel, fulfilledNote } from "./attention-admin";
import { EXTERNAL_TRANSACTION_ID, orderSubject } from "./order-number";
import { isBusy, lockOrder } from "./refunds-admin";
import { canFulfilAfterCancel, fulfilAfterCancelUpdate, type OrderStatus } from "./state-machine";

/**
 * "Cumprir": the owner fulfils an order the shopper paid after the shop had cancelled it, instead
 * of refunding it. Under the order's row lock (the one every refund takes, so the two never
 * cross), in one transaction: its units are taken from stock again when its cancellation had
 * given them back (all of them, or none and a 409 naming what is short), its promo code's use is
 * counted again, the order moves CAN → CON through the state machine (which enqueues the jobs of
 * any payment: the receipt, the mails, the cart), its attention item closes, and the owner's
 * `order.fulfil_after_cancel` event is recorded. An order with any refund recorded is not
 * fulfilled: the shop has started giving the money back, so more refunds finish that instead.
 */

export type FulfilAfterCancelError =
  "not_paid_after_cancel" | "already_fulfilled" | "already_refunded" | "stock_short" | "busy";

/** A variant the order needs more units of than it has. */
export interface ShortLine {
  productName: string;
  variantTitle: string;
  needed: number;
  /** Null: the line's variant is no longer in the catalogue. */
  inStock: number | null;
}

export interface FulfilAfterCancelRefusal {
  ok: false;
  status: 404 | 409 | 503;
  code: FulfilAfterCancelError | "not_found";
  message: string;
}

export type FulfilAfterCancelResult =
  | {
      ok: true;
      done: "fulfilled_after_cancel";
      details: { stockTaken: boolean; promoRetaken: boolean; jobIds: string[] };
    }
  | FulfilAfterCancelRefusal;

const refuse = (status: 404 | 409 | 503, code: FulfilAfterCancelRefusal["code"], message: string) =>
  ({ ok: false, status, code, message }) as const satisfies FulfilAfterCancelRefusal;

const notFound = refuse(404, "not_found", "no such order");

/** The order's units by variant, with each variant's stock now. */
interface NeededLine {
  productId: string;
  variantId: string | null;
  productName: string;
  variantTitle: string;
  quantity: number;
  inStock: number | null;
}

const neededLines = (tx: SqlRunner, orderId: string) =>
  tx.$queryRaw<NeededLine[]>(Prisma.sql`
SELECT ol.product_id::text AS "productId", ol.variant_id::text AS "variantId",
       min(ol.product_name) AS "productName", min(ol.variant_title) AS "variantTitle",
       sum(ol.quantity)::int AS quantity, min(v.stock)::int AS "inStock"
FROM order_lines ol LEFT JOIN product_variants v ON v.id = ol.variant_id
WHERE ol.order_id = ${orderId}::uuid
GROUP BY ol.product_id, ol.variant_id
ORDER BY 3, 4`);

const shortOf = (lines: NeededLine[]): ShortLine[] =>
  lines
    .filter((line) => line.variantId === null || line.inStock === null || line.inStock < line.quantity)
    .map(({ productName, variantTitle, quantity, inStock }) => ({
      productName,
      variantTitle,
      needed: quantity,
      inStock: inStock ?? null,
    }));

const nameOf = (line: ShortLine) => lineName(line.productName, line.variantTitle);

/** What the refusal says is short: every such variant, with what it needs and what it has. */
const shortMessage = (short: ShortLine[]) =>
  "not enough stock to fulfil the order; nothing was changed: " +
  short
    .map((line) =>
      line.inStock === null
        ? `${nameOf(line)} is no longer in the catalogue`
        : `${nameOf(line)} needs ${line.needed}, ${line.inStock} in stock`,
    )
    .join("; ");

/**
 * What would stop "Cumprir" for lack of stock now, for the order's page (read without locks: the
 * action decides again under them). Empty when nothing is short, or when the units were never
 * given back (the order's release had not run, so they are still set aside for it).
 */
export async function fulfilAfterCancelShortfall(db: Database, externalTransactionId: string): Promise<ShortLine[]> {
  const order = await db.order.findUnique({
    where: { externalTransactionId },
    select: { id: true, stockReleasedAt: true },
  });
  if (!order?.stockReleasedAt) return [];
  return shortOf(await neededLines(db, order.id));
}

/** "Cumprir" the order `externalTransactionId`, by `actor`; see the module's comment. */
export async function fulfilAfterCancel(
  db: Database,
  externalTransactionId: string,
  actor: Pick<Actor, "id" | "name">,
): Promise<FulfilAfterCancelResult> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return notFound;
  try {
    // READ COMMITTED, as a refund's: each statement after the lock reads what committed before it.
    return await db.$transaction((tx) => fulfilLocked(tx, externalTransactionId, actor), {
      isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted,
    });
  } catch (error) {
    const refused = rolledBack<FulfilAfterCancelRefusal>(error);
    if (refused) return refused;
    if (isBusy(error))
      return refuse(503, "busy", "the order or its products were held by another change for too long; try again");
    throw error;
  }
}

async function fulfilLocked(
  tx: Prisma.TransactionClient,
  externalTransactionId: string,
  actor: Pick<Actor, "id" | "name">,
): Promise<FulfilAfterCancelResult> {
  // The refunds' lock (lib/orders/refunds-admin.ts): a refund of this order waits for this, or this for it.
  const order = await lockOrder(tx, externalTransactionId);
  if (!order) return notFound;
  if (!canFulfilAfterCancel({ status: order.status as OrderStatus, paidAfterCancel: order.paidAfterCancel }))
    return order.status === "CON" && order.paidAfterCancel
      ? refuse(409, "already_fulfilled", "the order was fulfilled after its cancellation already: nothing to do")
      : refuse(409, "not_paid_after_cancel", `the order is ${order.status} and was not paid after a cancellation`);
  const [state] = await tx.$queryRaw<{ stockReleased: boolean; refundedAoa: number }[]>(Prisma.sql`
SELECT o.stock_released_at IS NOT NULL AS "stockReleased",
       COALESCE((SELECT sum(r.amount_aoa) FROM refunds r WHERE r.order_id = o.id), 0)::int AS "refundedAoa"
FROM orders o WHERE o.id = ${order.id}::uuid`);
  // Net of corrections: a refund wholly corrected gave nothing back.
  if (state!.refundedAoa > 0)
    return refuse(
      409,
      "already_refunded",
      `${state!.refundedAoa} AOA of the order's payment has been refunded: finish the refund instead`,
    );

  // Units its cancellation gave back are taken again; units its release never returned (the job
  // had not run) are still set aside for it, and the release, finding the order CON, skips.
  const stockTaken = state!.stockReleased;
  let promoRetaken = false;
  if (stockTaken) {
    const lines = await neededLines(tx, order.id);
    // lib/catalog/stock.ts' lock order; the stock read under these locks is what takeUnits finds.
    await lockProducts(
      tx,
      lines.map((line) => line.productId),
    );
    const short = shortOf(await neededLines(tx, order.id));
    if (short.length > 0) return refuse(409, "stock_short", shortMessage(short));
    const refused = await takeUnits(
      tx,
      lines.map((line) => ({ productId: line.productId, variantId: line.variantId!, quantity: line.quantity })),
    );
    if (refused) throw new Rollback(refuse(409, "stock_short", "not enough stock to fulfil the order; try again"));
    // Its promo code's use went back with its units (lib/jobs/handlers.ts): counted again with them.
    promoRetaken = await retakePromoUse(tx, order.id);
  }

  const moved = await fulfilAfterCancelUpdate(tx, order.id);
  if (!moved.transitioned) throw new Error(`order ${order.id} did not move CAN → CON under its own lock`);
  await closePaidAfterCancel(tx, order.id, fulfilledNote(stockTaken));
  await recordStaffEvent(tx, actor, {
    kind: "order.fulfil_after_cancel",
    subject: orderSubject(externalTransactionId),
    details: { amountAoa: order.amountAoa, stockTaken, promoRetaken },
  });
  return { ok: true, done: "fulfilled_after_cancel", details: { stockTaken, promoRetaken, jobIds: moved.jobIds } };
}
