import "server-only";
import type { Database } from "../db/client";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import { returnUnits, type UnitsLine } from "../catalog/stock";
import { closePaidAfterCancel, refundedNote } from "./attention-admin";
import { refusal, rolledBack, Rollback, type Refusal } from "../refusal";
import { invalidInput } from "../text-input";
import { EXTERNAL_TRANSACTION_ID, shortOrderId } from "./order-number";
import { enqueueRefundMail } from "./refund-note";
import { linesOf, type LineState, type RefundView } from "./refund-views-admin";
import {
  paidOf,
  REFUND_FIELDS,
  REFUND_LIMITS,
  refundFields,
  refundInputSchema,
  returnedValue,
  type RefundDone,
  type RefundError,
  type RefundField,
  type RefundInput,
} from "./refund-rules";

/**
 * Refunds and returns, as the owner records them in the back office: money given back to a
 * shopper outside the payment service (it has no refund call), by whom, how, when and against
 * which proof, and the units that came back with it, each restocked or damaged. Only an order that
 * was paid has anything to give back: a CON order, or one paid after the shop had cancelled it.
 * What this module guarantees, whoever records at the same time:
 *
 * - the refunds of an order never add up to more than it paid;
 * - a line's returned units, across every refund, never pass what was bought;
 * - refund numbers are consecutive across the shop, with no gaps;
 * - the refund, its lines, the units back in stock with their stock adjustment, and the
 *   `order.refund` event, and the shopper's mail's job, are one transaction: all of them or none.
 *
 * A refund is never edited (the database refuses): a mistake is followed by a correcting entry
 * (./refund-corrections-admin.ts), which takes this module's order lock.
 */

export type RefundRefusal = Refusal<RefundError | "not_found", RefundField>;
/** `mailJobId`: the shopper's mail about it, when the order has an email (run it once the refund is answered). */
export type RefundResult = { ok: true; done: RefundDone; refund: RefundView; mailJobId?: string } | RefundRefusal;

const notFound: RefundRefusal = refusal(404, "not_found", "no such order");

/** The order a refund is for, as its row lock found it. */
export interface LockedOrder {
  id: string;
  status: string;
  amountAoa: number;
  deliveryFeeAoa: number;
  paidAfterCancel: boolean;
  createdAt: Date;
}

/** What an order paid and what went back, as one row of sums. */
interface Refunded {
  amountAoa: number;
  deliveryFeeAoa: number;
}

/** A return's entries by order line, each line's restocked and damaged units apart. */
interface WantedLine {
  line: LineState;
  quantity: number;
  restock: boolean;
}

/**
 * Locks the order's row until the transaction ends: every refund and every correction of the
 * order (./refund-corrections-admin.ts) takes this lock before it reads what went back already, so
 * two of them on one order run one after the other.
 * FOR NO KEY UPDATE rather than FOR UPDATE: it excludes the other refunds (and any change of the
 * order's row) just the same, without blocking the inserts elsewhere whose foreign keys point at
 * the order (a job, a fulfilment event), which only take FOR KEY SHARE.
 */
export async function lockOrder(tx: SqlRunner, externalTransactionId: string): Promise<LockedOrder | undefined> {
  const [order] = await tx.$queryRaw<LockedOrder[]>(Prisma.sql`
SELECT id::text, status::text, amount_aoa AS "amountAoa", delivery_fee_aoa AS "deliveryFeeAoa",
       paid_after_cancel_at IS NOT NULL AS "paidAfterCancel", created_at AS "createdAt"
FROM orders WHERE external_transaction_id = ${externalTransactionId}
FOR NO KEY UPDATE`);
  return order;
}

async function refundedOf(tx: SqlRunner, orderId: string): Promise<Refunded> {
  const [sums] = await tx.$queryRaw<Refunded[]>(Prisma.sql`
SELECT COALESCE(sum(amount_aoa), 0)::int AS "amountAoa", COALESCE(sum(delivery_fee_aoa), 0)::int AS "deliveryFeeAoa"
FROM refunds WHERE order_id = ${orderId}::uuid`);
  return sums ?? { amountAoa: 0, deliveryFeeAoa: 0 };
}

/**
 * The return's entries matched to the order's lines (a variant the order did not sell is refused),
 * an entry given twice for the same line and state added up.
 */
function wantedLines(
  returns: RefundInput["returns"],
  lines: LineState[],
): { ok: true; wanted: WantedLine[] } | RefundRefusal {
  const wanted = new Map<string, WantedLine>();
  for (const [index, entry] of returns.entries()) {
    const line = lines.find((candidate) => candidate.variantId === entry.variantId);
    if (!line)
      return refusal(
        400,
        "invalid_input",
        `returns.${index}.variantId ${entry.variantId} is not a variant this order sold`,
        "returns",
      );
    const key = `${line.id}:${entry.restock}`;
    const seen = wanted.get(key);
    wanted.set(key, { line, restock: entry.restock, quantity: (seen?.quantity ?? 0) + entry.quantity });
  }
  return { ok: true, wanted: [...wanted.values()] };
}

/** Units of each line in this return, restocked and damaged together. */
function unitsByLine(wanted: WantedLine[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const entry of wanted) units.set(entry.line.id, (units.get(entry.line.id) ?? 0) + entry.quantity);
  return units;
}

/**
 * Records a refund of the order `externalTransactionId` (and the return that came with it, if
 * any) by `actor`. `fields` is a JSON client's body or the order page's form (lib/orders/refund-rules.ts).
 *
 * Refused, with nothing written: an unknown order (404); a bad field (400, naming it); an order
 * never paid (409 `order_not_paid`); units returned from an order that is not CON (409
 * `nothing_to_return`: a cancelled order's units went back to stock when it was cancelled, so a
 * payment after the cancellation is refunded in money alone); an amount that would take the
 * order's refunds past what it paid (409 `exceeds_paid`, saying what remains); units past what a
 * line bought, counting earlier returns (409 `exceeds_bought`).
 */
export async function recordRefund(
  db: Database,
  externalTransactionId: string,
  fields: unknown,
  actor: Pick<Actor, "id" | "name">,
): Promise<RefundResult> {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return notFound;
  const body = typeof fields === "object" && fields !== null ? refundFields(fields as Record<string, unknown>) : fields;
  const parsed = refundInputSchema.safeParse(body);
  if (!parsed.success) return invalidInput(parsed.error, REFUND_FIELDS);
  const input = parsed.data;
  const now = new Date();
  if (input.refundedAt && input.refundedAt.getTime() > now.getTime() + REFUND_LIMITS.futureSkewMs)
    return refusal(400, "invalid_input", "refundedAt must not be in the future", "refundedAt");

  try {
    // READ COMMITTED whatever the database's default: the cap relies on each statement reading
    // what committed before it began (see the refund's INSERT), where REPEATABLE READ would read
    // every statement as of the first, the lock's, from before it waited.
    return await db.$transaction((tx) => recordLocked(tx, externalTransactionId, input, actor, now), {
      isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted,
    });
  } catch (error) {
    const refused = rolledBack<RefundRefusal>(error);
    if (refused) return refused;
    if (isBusy(error))
      return refusal(503, "busy", "the order was held by another change for too long; nothing was recorded: try again");
    throw error;
  }
}

/**
 * The order's row, or a product's, kept locked by another transaction past the session's
 * lock_timeout (DATABASE_LOCK_TIMEOUT_MS), a deadlock, or Prisma's transaction timing out while it
 * waited: nothing was written, and the same request may be sent again. Prisma reports a raw
 * statement's error as P2010 with the driver's SQLSTATE.
 */
export function isBusy(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2028" || error.code === "P2034") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string } } | undefined)?.cause;
  return ["40P01", "40001", "55P03"].includes(cause?.originalCode ?? "");
}

async function recordLocked(
  tx: Prisma.TransactionClient,
  externalTransactionId: string,
  input: RefundInput,
  actor: Pick<Actor, "id" | "name">,
  now: Date,
): Promise<RefundResult> {
  // Nothing before this lock reads what went back: see lockOrder.
  const order = await lockOrder(tx, externalTransactionId);
  if (!order) return notFound;
  const paid = paidOf(order);
  if (paid === 0)
    return refusal(409, "order_not_paid", `the order is ${order.status} and was never paid: nothing to refund`);
  if (input.returns.length > 0 && order.status !== "CON")
    return refusal(
      409,
      "nothing_to_return",
      "the order was cancelled and its units went back to stock then: refund the payment without a return",
      "returns",
    );
  const refundedAt = input.refundedAt ?? now;
  if (refundedAt < order.createdAt)
    return refusal(400, "invalid_input", "refundedAt must not be before the order was placed", "refundedAt");

  const [lines, before] = [await linesOf(tx, order.id), await refundedOf(tx, order.id)];
  const matched = wantedLines(input.returns, lines);
  if (!matched.ok) return matched;
  const { wanted } = matched;
  const units = unitsByLine(wanted);

  // What of the delivery fee this refund gives back: what earlier refunds left of it, when asked.
  const feeLeft = Math.max(0, order.deliveryFeeAoa - before.deliveryFeeAoa);
  const linesValue = [...units].reduce((sum, [lineId, count]) => {
    const line = lines.find((candidate) => candidate.id === lineId)!;
    return sum + returnedValue(line, line.returned, Math.min(count, Math.max(0, line.quantity - line.returned)));
  }, 0);
  const amountAoa =
    input.amountAoa ??
    (wanted.length > 0 ? linesValue + (input.includeDeliveryFee ? feeLeft : 0) : paid - before.amountAoa);
  const deliveryFeeAoa = input.includeDeliveryFee ? Math.min(feeLeft, amountAoa) : 0;
  const remaining = paid - before.amountAoa;
  const exceedsPaid = refusal(
    409,
    "exceeds_paid",
    remaining > 0
      ? `${amountAoa} AOA would take the refunds past what the order paid (${paid} AOA): ${remaining} AOA remains refundable`
      : `the order's payment of ${paid} AOA has been refunded in full: nothing remains refundable`,
    "amountAoa",
  );
  if (amountAoa <= 0)
    return remaining > 0
      ? refusal(400, "invalid_input", "amountAoa is required: the units returned are worth 0 AOA", "amountAoa")
      : exceedsPaid;

  // THE CAP, in the statement that inserts the refund: it inserts nothing when the order's refunds
  // plus this one would pass what it paid. Under READ COMMITTED each statement reads the rows
  // committed when it starts, and this one starts after lockOrder's statement was granted the
  // order's row lock: every earlier refund of the order has committed by then, and every later
  // one waits for this transaction, so the sum it reads is the sum (in one statement with the
  // lock, it would be read from before the wait, and two refunds could both pass). The number
  // comes from refund_counter's row, locked and moved in the same statement, so a refund rolled
  // back (a line below refused) leaves no gap; that row stays locked until this refund commits,
  // so refunds across the shop take turns from here on (they are few, and a number drawn before
  // the refund is sure would be a gap when it is not).
  const [refund] = await tx.$queryRaw<{ id: string; number: number; createdAt: Date }[]>(Prisma.sql`
WITH next AS (SELECT last_number + 1 AS number FROM refund_counter WHERE id = 1 FOR UPDATE),
before AS (
  SELECT COALESCE(sum(amount_aoa), 0) AS amount, COALESCE(sum(delivery_fee_aoa), 0) AS fee
  FROM refunds WHERE order_id = ${order.id}::uuid
),
inserted AS (
  INSERT INTO refunds (number, order_id, amount_aoa, delivery_fee_aoa, method, reference, note, refunded_at, staff_id, staff_name)
  SELECT next.number, o.id, ${amountAoa}::int, ${deliveryFeeAoa}::int, ${input.method}, ${input.reference ?? null},
         ${input.note ?? null}, ${refundedAt}, ${actor.id}, ${actor.name}
  FROM orders o, next, before
  WHERE o.id = ${order.id}::uuid
    AND (o.status = 'CON' OR o.paid_after_cancel_at IS NOT NULL)
    AND before.amount + ${amountAoa}::int <= o.amount_aoa
    AND before.fee + ${deliveryFeeAoa}::int <= o.delivery_fee_aoa
  RETURNING id::text, number, created_at AS "createdAt"
), counted AS (
  UPDATE refund_counter SET last_number = inserted.number FROM inserted WHERE refund_counter.id = 1
)
SELECT * FROM inserted`);
  if (!refund) return exceedsPaid;
  // A payment after a cancellation is settled by its first refund, whatever its amount: its attention item closes here.
  await closePaidAfterCancel(tx, order.id, refundedNote(refund.number, amountAoa, remaining));

  if (wanted.length > 0) await recordReturn(tx, order, refund, wanted, units, externalTransactionId);
  const mailJobId = await enqueueRefundMail(tx, refund.id);

  const view: RefundView = {
    id: refund.id,
    number: refund.number,
    externalTransactionId,
    amountAoa,
    deliveryFeeAoa,
    correctsNumber: null,
    method: input.method,
    reference: input.reference ?? null,
    note: input.note ?? null,
    refundedAt,
    staffName: actor.name,
    createdAt: refund.createdAt,
    lines: wanted.map(({ line, quantity, restock }) => ({
      orderLineId: line.id,
      variantId: line.variantId!,
      productName: line.productName,
      variantTitle: line.variantTitle,
      quantity,
      restock,
    })),
  };
  await recordStaffEvent(tx, actor, {
    kind: "order.refund",
    subject: `order:${externalTransactionId}`,
    details: {
      number: view.number,
      amountAoa,
      deliveryFeeAoa,
      method: view.method,
      reference: view.reference,
      refundedAt: refundedAt.toISOString(),
      returns: view.lines.map(({ variantId, quantity, restock }) => ({ variantId, quantity, restock })),
    },
  });
  return { ok: true, done: "refunded", refund: view, ...(mailJobId ? { mailJobId } : {}) };
}

/**
 * The return's lines, then its restocked units back on the shelf. A line's cap is in the INSERT
 * as the refund's is, and holds for the same reason (the order's row lock): a line is written
 * only when what its earlier refunds took back plus this return's units of it (restocked and
 * damaged together) fit in what was bought. A line refused rolls the whole refund back.
 */
async function recordReturn(
  tx: Prisma.TransactionClient,
  order: LockedOrder,
  refund: { id: string; number: number },
  wanted: WantedLine[],
  units: Map<string, number>,
  externalTransactionId: string,
): Promise<void> {
  const written = await tx.$queryRaw<{ orderLineId: string; restock: boolean }[]>(Prisma.sql`
INSERT INTO refund_lines (refund_id, order_line_id, variant_id, quantity, restock)
SELECT ${refund.id}::uuid, ol.id, ol.variant_id, wanted.quantity, wanted.restock
FROM unnest(${wanted.map((entry) => entry.line.id)}::uuid[], ${wanted.map((entry) => entry.quantity)}::int[],
            ${wanted.map((entry) => entry.restock)}::boolean[], ${wanted.map((entry) => units.get(entry.line.id)!)}::int[])
  AS wanted (order_line_id, quantity, restock, line_units)
JOIN order_lines ol ON ol.id = wanted.order_line_id AND ol.order_id = ${order.id}::uuid
WHERE ol.variant_id IS NOT NULL
  AND COALESCE((SELECT sum(rl.quantity) FROM refund_lines rl WHERE rl.order_line_id = ol.id), 0) + wanted.line_units
      <= ol.quantity
RETURNING order_line_id::text AS "orderLineId", restock`);
  if (written.length < wanted.length) {
    const refused = wanted.find(
      (entry) => !written.some((row) => row.orderLineId === entry.line.id && row.restock === entry.restock),
    )!;
    const { line } = refused;
    const left = Math.max(0, line.quantity - line.returned);
    throw new Rollback<RefundRefusal>(
      refusal(
        409,
        "exceeds_bought",
        `${units.get(line.id)} units of ${line.productName}${line.variantTitle ? ` (${line.variantTitle})` : ""} ` +
          `would pass what was bought (${line.quantity}): ${left} can still be returned`,
        "returns",
      ),
    );
  }

  const restocked: UnitsLine[] = wanted
    .filter((entry) => entry.restock)
    .map((entry) => ({ productId: entry.line.productId, variantId: entry.line.variantId!, quantity: entry.quantity }));
  if (restocked.length === 0) return;
  // The shop's one way stock changes (lib/catalog/stock.ts: the products' rows locked first), then
  // each variant's adjustment with the stock it reached, read under those locks.
  await returnUnits(tx, restocked);
  const byVariant = new Map<string, number>();
  for (const line of restocked) byVariant.set(line.variantId, (byVariant.get(line.variantId) ?? 0) + line.quantity);
  const reason = `Return: refund ${refund.number}, order ${shortOrderId(externalTransactionId)}`;
  await tx.$executeRaw(Prisma.sql`
INSERT INTO stock_adjustments (product_id, variant_id, kind, delta, stock_after, reason)
SELECT v.product_id, v.id, 'return', back.quantity, v.stock, ${reason}
FROM unnest(${[...byVariant.keys()]}::uuid[], ${[...byVariant.values()]}::int[]) AS back (variant_id, quantity)
JOIN product_variants v ON v.id = back.variant_id`);
}
