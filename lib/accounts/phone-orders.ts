import "server-only";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { isPhoneKey } from "../phone";
import { EXTERNAL_TRANSACTION_ID, shortOrderId } from "../orders/order-number";
import { customerPhoneIs } from "../orders/phone-match";
import { receiptStateOf } from "../orders/receipt";
import { referencePayBy } from "../orders/reference-holds";
import { referenceValidUntil } from "../orders/reference-slip";
import type { OrderStatus } from "../orders/state-machine";

/**
 * A signed-in shopper's orders (/account): every order whose checkout phone is the account's
 * phone under lib/phone.ts phoneKey, whatever form it was typed in, the ones placed as a guest
 * before the account existed included; newest first, a page at a time.
 */

/** The most orders one page holds. */
export const PHONE_ORDERS_PAGE_MAX = 50;

export interface PhoneOrderLine {
  productId: string;
  /** Null only on lines from before every product had variants. */
  variantId: string | null;
  productName: string;
  /** The variant's values when it was sold ("M, Azul"); "" for a product without options. */
  variantTitle: string;
  quantity: number;
}

export interface PhoneOrder {
  externalTransactionId: string;
  /** "7CDAC2DD" (lib/orders/order-number.ts). */
  orderNumber: string;
  status: OrderStatus;
  amountAoa: number;
  createdAt: Date;
  /** Units across its lines. */
  items: number;
  /** While pending with a bank reference: what to pay with, until when (ISO, lib/orders/reference-slip.ts). */
  reference: { entityNumber: string | null; paymentReference: string; validUntil: string } | null;
  /** lib/orders/receipt.ts: "issued" once paid and invoiced, "preparing" paid but not yet; null otherwise. */
  receipt: "issued" | "preparing" | null;
  lines: PhoneOrderLine[];
}

export interface PhoneOrdersPage {
  orders: PhoneOrder[];
  /** The `before` of the next page (the last order's id); null when this page is the last. */
  nextBefore: string | null;
}

interface OrderRow {
  id: string;
  externalTransactionId: string;
  status: OrderStatus;
  amountAoa: number;
  createdAt: Date;
  holdExpiresAt: Date;
  paymentReference: string | null;
  entityNumber: string | null;
  invoiced: boolean;
}

interface LineRow extends PhoneOrderLine {
  orderId: string;
}

const EMPTY: PhoneOrdersPage = { orders: [], nextBefore: null };

/**
 * A page of the orders of the phone whose key is `phoneKey`, newest first: `take` of them (at
 * most, and by default, {@link PHONE_ORDERS_PAGE_MAX}), those placed before the order `before`
 * (an `externalTransactionId`, the last of the previous page) when it is given. What is not a
 * phone's key, or a `before` that is not an order of this phone, lists nothing. Two queries,
 * whatever the page's size.
 */
export async function ordersOfPhone(
  db: Pick<Database, "$queryRaw">,
  phoneKey: string,
  page: { take?: number; before?: string } = {},
): Promise<PhoneOrdersPage> {
  if (!isPhoneKey(phoneKey)) return EMPTY;
  const { before } = page;
  if (before !== undefined && !EXTERNAL_TRANSACTION_ID.test(before)) return EMPTY;
  const take = Math.max(1, Math.min(PHONE_ORDERS_PAGE_MAX, Math.trunc(page.take ?? PHONE_ORDERS_PAGE_MAX) || 1));

  // A `before` that is not one of this phone's orders compares with NULL: no row.
  const after =
    before === undefined
      ? Prisma.empty
      : Prisma.sql`AND (o.created_at, o.id) < (
          SELECT created_at, id FROM orders
          WHERE external_transaction_id = ${before} AND ${customerPhoneIs(phoneKey)})`;
  const rows = await db.$queryRaw<OrderRow[]>(Prisma.sql`
SELECT o.id, o.external_transaction_id AS "externalTransactionId", o.status::text AS status,
       o.amount_aoa AS "amountAoa", o.created_at AS "createdAt", o.hold_expires_at AS "holdExpiresAt",
       o.payment_reference AS "paymentReference", o.entity_number AS "entityNumber",
       EXISTS (SELECT 1 FROM invoices i WHERE i.order_id = o.id) AS invoiced
FROM orders o
WHERE ${customerPhoneIs(phoneKey)} ${after}
ORDER BY o.created_at DESC, o.id DESC
LIMIT ${take + 1}::int`);
  const shown = rows.slice(0, take);
  if (shown.length === 0) return EMPTY;

  const lines = await db.$queryRaw<LineRow[]>(Prisma.sql`
SELECT order_id AS "orderId", product_id AS "productId", variant_id AS "variantId",
       product_name AS "productName", variant_title AS "variantTitle", quantity
FROM order_lines WHERE order_id = ANY(${shown.map((order) => order.id)}::uuid[])
ORDER BY product_name, variant_title, id`);
  const linesOf = new Map<string, PhoneOrderLine[]>();
  for (const { orderId, ...line } of lines) linesOf.set(orderId, [...(linesOf.get(orderId) ?? []), line]);

  return {
    orders: shown.map((order) => phoneOrder(order, linesOf.get(order.id) ?? [])),
    nextBefore: rows.length > take ? shown.at(-1)!.externalTransactionId : null,
  };
}

function phoneOrder(order: OrderRow, lines: PhoneOrderLine[]): PhoneOrder {
  // As the order's own page shows it (lib/orders/summary.ts): a pending order's reference, until when.
  const payBy = referencePayBy(order);
  return {
    externalTransactionId: order.externalTransactionId,
    orderNumber: shortOrderId(order.externalTransactionId),
    status: order.status,
    amountAoa: order.amountAoa,
    createdAt: order.createdAt,
    items: lines.reduce((sum, line) => sum + line.quantity, 0),
    reference:
      order.status === "PEN" && order.paymentReference
        ? {
            entityNumber: order.entityNumber,
            paymentReference: order.paymentReference,
            validUntil: referenceValidUntil(order.createdAt, payBy?.toISOString()),
          }
        : null,
    receipt: receiptStateOf(order.status, order.invoiced),
    lines,
  };
}

/** How many orders the phone whose key is `phoneKey` placed (0 for what is not a phone's key). */
export async function ordersOfPhoneCount(db: Pick<Database, "$queryRaw">, phoneKey: string): Promise<number> {
  if (!isPhoneKey(phoneKey)) return 0;
  const [row] = await db.$queryRaw<{ count: number }[]>(
    Prisma.sql`SELECT count(*)::int AS count FROM orders WHERE ${customerPhoneIs(phoneKey)}`,
  );
  return row?.count ?? 0;
}
