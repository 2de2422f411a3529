import "server-only";
import { z } from "zod";
import { Prisma } from "../generated/prisma/client";
import type { Database } from "../db/client";
import { DELIVERY_METHODS, FULFILMENT_FILTERS, type DeliveryMethod, type FulfilmentFilter } from "./fulfilment-states";
import { phoneKey } from "../phone";
import { customerPhoneIs } from "./phone-match";
import { parseExportRange, type ExportRange } from "./export-admin";
import { paidBetween } from "./paid";

/**
 * The back office's orders list (/admin/orders): newest first, filtered by status, fulfilment,
 * delivery method and the Luanda dates they were paid on (lib/orders/paid.ts, what the dashboard
 * counts, whose figures link here), searched by order id, reference number, payment reference or
 * phone, 50 to a page. One query for the page and one for the count and the amounts' total, each
 * on an index of the orders (created_at, status + created_at, status + fulfilment_state +
 * created_at, the paid orders' finalized_at, and the searched columns).
 */

export const ORDERS_PAGE_SIZE = 50;
export const ORDER_STATUSES = ["PEN", "CON", "CAN"] as const;
export type OrderStatusCode = (typeof ORDER_STATUSES)[number];

/** The highest page number asked for: past it the offset would make PostgreSQL skip millions of rows. */
const MAX_PAGE = 10_000;
/** Fewer digits than a national number would match too much by accident. */
const MIN_PHONE_DIGITS = 9;

export interface OrdersQuery {
  status?: OrderStatusCode;
  /** Trimmed, 1–100 characters. */
  search?: string;
  fulfilment?: FulfilmentFilter;
  method?: DeliveryMethod;
  /** Only the orders paid between these Luanda dates (`paidFrom`, `paidTo`, both included). */
  paid?: ExportRange;
  /** From 1. */
  page: number;
}

/** One value of a query parameter: the first when repeated. */
const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);

const statusParam = z.preprocess(single, z.enum(ORDER_STATUSES));
const searchParam = z.preprocess(single, z.string().trim().min(1).max(100));
const pageParam = z.preprocess(single, z.coerce.number().int().min(1).max(MAX_PAGE));
const fulfilmentParam = z.preprocess(single, z.enum(FULFILMENT_FILTERS));
const methodParam = z.preprocess(single, z.enum(DELIVERY_METHODS));

/**
 * The list's query parameters (`status`, `q`, `fulfilment`, `method`, `paidFrom` with `paidTo`,
 * `page`), each validated on its own: a bad one is ignored (all statuses, no search, any
 * fulfilment and method, paid or not, page 1), never an error. The paid dates follow the
 * export's rules (at most 366 days, from not after to).
 */
export function parseOrdersQuery(params: Record<string, string | string[] | undefined>): OrdersQuery {
  const status = statusParam.safeParse(params.status);
  const search = searchParam.safeParse(params.q);
  const page = pageParam.safeParse(params.page);
  const fulfilment = fulfilmentParam.safeParse(params.fulfilment);
  const method = methodParam.safeParse(params.method);
  const paidFrom = single(params.paidFrom);
  const paidTo = single(params.paidTo);
  const paid =
    typeof paidFrom === "string" && typeof paidTo === "string" ? parseExportRange(paidFrom, paidTo) : undefined;
  return {
    status: status.success ? status.data : undefined,
    search: search.success ? search.data : undefined,
    ...(fulfilment.success ? { fulfilment: fulfilment.data } : {}),
    ...(method.success ? { method: method.data } : {}),
    ...(paid?.ok ? { paid: paid.range } : {}),
    page: page.success ? page.data : 1,
  };
}

/**
 * The key of the phone a search names (lib/phone.ts phoneKey: an Angolan number's nine national
 * digits however it is written, another country's + and digits), or undefined when it is not a
 * phone or too short to search by.
 */
export function searchedPhoneKey(search: string): string | undefined {
  if (!/^[+0-9 ()./-]+$/.test(search)) return undefined;
  if (search.replace(/\D/g, "").length < MIN_PHONE_DIGITS) return undefined;
  return phoneKey(search);
}

export interface AdminOrderRow {
  externalTransactionId: string;
  referenceNumber: string | null;
  status: OrderStatusCode;
  amountAoa: number;
  customerName: string | null;
  customerPhone: string | null;
  createdAt: Date;
  attentionReason: string | null;
  deliveryMethod: DeliveryMethod | null;
  /** null: to prepare (on a CON order), or nothing to fulfil (PEN, CAN). */
  fulfilmentState: string | null;
}

export interface AdminOrdersPage {
  orders: AdminOrderRow[];
  /** Orders matching the status and search, on every page. */
  total: number;
  /** Their amounts together, integer AOA. */
  amountAoa: number;
  page: number;
  pageCount: number;
}

/**
 * The list's conditions. The search is exact, never a substring: the order id (`order_…`), the
 * service's reference number and the payment reference as stored; the phone as one phone
 * (lib/phone.ts: `0923 456 789` finds `+244 923-456-789`; lib/orders/phone-match.ts, on its index),
 * only for a search of 9 or more digits. The delivery method is read from the rows the other conditions select (two values:
 * an index of its own would seldom be chosen).
 */
function whereOf(query: OrdersQuery): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (query.status) conditions.push(Prisma.sql`status = ${query.status}::"OrderStatus"`);
  if (query.fulfilment)
    conditions.push(
      query.fulfilment === "to_prepare"
        ? Prisma.sql`status = 'CON' AND fulfilment_state IS NULL`
        : Prisma.sql`status = 'CON' AND fulfilment_state = ${query.fulfilment}`,
    );
  if (query.method) conditions.push(Prisma.sql`delivery_method = ${query.method}`);
  if (query.paid) conditions.push(paidBetween(query.paid.start, query.paid.end, "orders"));
  if (query.search) {
    const search = query.search;
    const matches = [
      Prisma.sql`external_transaction_id = ${search}`,
      Prisma.sql`reference_number = ${search}`,
      Prisma.sql`payment_reference = ${search}`,
    ];
    const phone = searchedPhoneKey(search);
    if (phone) matches.push(customerPhoneIs(phone));
    conditions.push(Prisma.sql`(${Prisma.join(matches, " OR ")})`);
  }
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

export async function listAdminOrders(db: Pick<Database, "$queryRaw">, query: OrdersQuery): Promise<AdminOrdersPage> {
  const where = whereOf(query);
  const [orders, [counted]] = await Promise.all([
    db.$queryRaw<AdminOrderRow[]>`
      SELECT external_transaction_id AS "externalTransactionId", reference_number AS "referenceNumber",
             status::text AS status, amount_aoa AS "amountAoa", customer_name AS "customerName",
             customer_phone AS "customerPhone", created_at AS "createdAt", attention_reason AS "attentionReason",
             delivery_method AS "deliveryMethod", fulfilment_state AS "fulfilmentState"
      FROM orders ${where}
      ORDER BY created_at DESC, id DESC
      LIMIT ${ORDERS_PAGE_SIZE} OFFSET ${(query.page - 1) * ORDERS_PAGE_SIZE}`,
    db.$queryRaw<{ total: number; amountAoa: number }[]>`
      SELECT count(*)::int AS total, COALESCE(sum(amount_aoa), 0)::float8 AS "amountAoa" FROM orders ${where}`,
  ]);
  const total = counted?.total ?? 0;
  return {
    orders,
    total,
    amountAoa: counted?.amountAoa ?? 0,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE)),
  };
}
