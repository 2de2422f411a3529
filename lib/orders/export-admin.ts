import "server-only";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import type { Database } from "../db/client";
import { orderDelivery } from "./delivery-details";
import { isAngolanKey, phoneKey } from "../phone";
import { lineName } from "../catalog/variants";
import { DAY_MS, inShopCalendar, luandaDate, luandaDayStart, luandaIso, shopDateRule } from "../luanda-time";
import { paidBetween } from "./paid";

/**
 * The orders as CSV for an accountant (GET /api/admin/orders/export): every order created between
 * two dates of the Luanda calendar (UTC+1 all year, like the home's totals), both included, oldest
 * first; or, with the `paid` basis, every order paid between them (lib/orders/paid.ts, what the
 * dashboard counts), in the order they were paid. Read in batches of 1000 by keyset (created_at
 * or finalized_at, and id), each written to the response as it comes, so a year of orders is
 * never in memory at once.
 */

export const EXPORT_BATCH_SIZE = 1000;
/** The longest range one download may cover, in days. */
export const EXPORT_MAX_DAYS = 366;

/**
 * After the lines: the delivery method, the zone or pickup point (their names as snapshotted), the
 * address's parts, the amount's parts and the promo code (empty for orders from before the shop
 * stored them), the fulfilment state (`to_prepare` for a paid order with none yet, empty for an
 * unpaid or cancelled one), the shopper's email and NIF (normalised: a person's `001234567LA042`,
 * a company's ten digits, which a spreadsheet may show as a number but never shortens), and what
 * its refunds gave back, whenever they were made (their signed sum: a correcting entry's negative
 * amount takes back what it corrects; 0 when none).
 */
export const EXPORT_COLUMNS = [
  "order_id",
  "created_at",
  "finalized_at",
  "status",
  "amount_aoa",
  "reference_number",
  "payment_reference",
  "customer_name",
  "customer_phone",
  "invoice_number",
  "items",
  "delivery_method",
  "delivery_zone",
  "pickup_point",
  "delivery_province",
  "delivery_municipality",
  "delivery_neighbourhood",
  "delivery_street",
  "delivery_reference",
  "subtotal_aoa",
  "discount_aoa",
  "promo_code",
  "delivery_fee_aoa",
  "fulfilment_state",
  "customer_email",
  "customer_nif",
  "refunded_aoa",
] as const;

const isoDate = z.iso.date();

export interface ExportRange {
  from: string;
  to: string;
  /** The first instant of `from` in Luanda. */
  start: Date;
  /** The first instant after `to` in Luanda. */
  end: Date;
}

export type ExportRangeResult = { ok: true; range: ExportRange } | { ok: false; message: string };

/** `from` and `to` (YYYY-MM-DD, both optional: today in Luanda), or why they cannot be used. */
export function parseExportRange(from: string | null, to: string | null, now = new Date()): ExportRangeResult {
  const today = luandaDate(now);
  const first = isoDate.safeParse(from ?? today);
  if (!first.success || !inShopCalendar(first.data)) return { ok: false, message: shopDateRule("from") };
  const last = isoDate.safeParse(to ?? today);
  if (!last.success || !inShopCalendar(last.data)) return { ok: false, message: shopDateRule("to") };
  const start = luandaDayStart(first.data);
  const end = luandaDayStart(last.data) + DAY_MS;
  if (end <= start) return { ok: false, message: "from must not be after to" };
  if ((end - start) / DAY_MS > EXPORT_MAX_DAYS) {
    return { ok: false, message: `a range covers at most ${EXPORT_MAX_DAYS} days` };
  }
  return { ok: true, range: { from: first.data, to: last.data, start: new Date(start), end: new Date(end) } };
}

/**
 * csv-stringify quotes what needs quoting, and `escape_formulas` puts an apostrophe before a text
 * starting with =, +, -, @, a tab or a carriage return (and their full-width forms), so a customer
 * named `=HYPERLINK(…)` stays text in a spreadsheet (CSV injection). Numbers are left alone (a
 * negative amount is not a formula); phones are written so that they need no apostrophe.
 */
const csvOptions = { escape_formulas: true, record_delimiter: "\r\n" } as const;

/** Records as CSV text, escaped as the orders export is: what every CSV of the back office writes. */
export const csvRecords = (records: unknown[][]): string => stringify(records, csvOptions);

/** Which orders an export holds: those created in its range, or those paid in it. */
export const EXPORT_BASES = ["created", "paid"] as const;
export type ExportBasis = (typeof EXPORT_BASES)[number];

interface ExportKey {
  at: Date;
  id: string;
}

const batchInclude = {
  invoice: { select: { number: true } },
  lines: {
    select: { productName: true, variantTitle: true, sku: true, quantity: true },
    orderBy: [{ productName: "asc" as const }, { variantTitle: "asc" as const }],
  },
};

/** What an export reads: the orders, and the sums of their refunds. */
type ExportDb = Pick<Database, "order" | "refund" | "$queryRaw">;

/** The next batch of an export by payment: the ids by the shared definition of paid, then their rows. */
async function paidBatch(db: ExportDb, range: ExportRange, after: ExportKey | undefined) {
  const keys = await db.$queryRaw<{ id: string }[]>`
    SELECT o.id::text AS id FROM orders o
    WHERE ${paidBetween(range.start, range.end)}
      AND (o.finalized_at, o.id) > (${after?.at ?? new Date(0)}, ${after?.id ?? "00000000-0000-0000-0000-000000000000"}::uuid)
    ORDER BY o.finalized_at, o.id LIMIT ${EXPORT_BATCH_SIZE}`;
  const ids = keys.map((key) => key.id);
  const orders = await db.order.findMany({ where: { id: { in: ids } }, include: batchInclude });
  const place = new Map(ids.map((id, index) => [id, index]));
  return orders.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
}

/**
 * A shopper's phone as the CSV writes it: read at once by a person, and neither a formula nor a
 * number to a spreadsheet. As typed at checkout, `+244 923 456 789` starts with `+`, which Excel
 * takes for a formula (so `escape_formulas` would write `'+244 923 456 789`), and `+244923456789`
 * would become the number 244923456789, shown as 2,44923E+11. So:
 *
 * - an Angolan number (lib/phone.ts phoneKey: with or without +244, 00244 or a trunk 0) in its
 *   national form, grouped as Angolans write it: `923 456 789`, the same for every way of writing
 *   it. Digits in groups separated by spaces stay text in a spreadsheet; where the space is the
 *   thousands separator, they become 923456789, still the whole number;
 * - another country's, with `00` for the `+` (the international prefix dialled from Angola) and a
 *   space after it, the rest as typed: `+351 912 345 678` is `00 351 912 345 678`;
 * - anything else as typed: the checkout's schema lets a phone start only with a digit, `+` or
 *   `(` (lib/checkout/checkout-rules.ts), and none of them makes a formula.
 */
export function spreadsheetPhone(phone: string): string {
  const typed = phone.trim();
  const key = phoneKey(typed);
  if (isAngolanKey(key)) return `${key.slice(0, 3)} ${key.slice(3, 6)} ${key.slice(6)}`;
  const international = /^(\+|00)/.exec(typed)?.[0];
  if (international) return `00 ${typed.slice(international.length).trim()}`;
  return typed;
}

/**
 * What the refunds of each of `ids` (a batch's orders) add up to, signed: one grouped statement a
 * batch, by the refunds' index on order_id, so a batch costs the same however many refunds exist.
 */
async function refundedOf(db: ExportDb, ids: string[]): Promise<Map<string, number>> {
  const sums = await db.refund.groupBy({ by: ["orderId"], where: { orderId: { in: ids } }, _sum: { amountAoa: true } });
  return new Map(sums.map((sum) => [sum.orderId, sum._sum.amountAoa ?? 0]));
}

/**
 * A CSV file as a stream of UTF-8 text: a BOM first (so that Excel reads it as UTF-8: names and
 * addresses are Portuguese) and `header`, then the rows of each batch `next` reads, written as
 * they come, until a batch says it was the last. Every export of the back office that reads rows
 * batch by batch writes through this, escaped as {@link csvRecords}.
 */
export function csvStream(
  header: readonly string[],
  next: () => Promise<{ rows: unknown[][]; last: boolean }>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let done = false;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvRecords([[...header]])}`));
    },
    async pull(controller) {
      if (done) return;
      const batch = await next();
      if (batch.rows.length > 0) controller.enqueue(encoder.encode(csvRecords(batch.rows)));
      if (batch.last) {
        done = true;
        controller.close();
      }
    },
  });
}

type ExportedOrder = Awaited<ReturnType<typeof paidBatch>>[number];

/** One order's record, in {@link EXPORT_COLUMNS}' order; `refundedAoa`, what its refunds gave back. */
function orderRecord(order: ExportedOrder, refundedAoa: number): unknown[] {
  const delivery = orderDelivery(order);
  return [
    order.externalTransactionId,
    luandaIso(order.createdAt),
    order.finalizedAt ? luandaIso(order.finalizedAt) : "",
    order.status,
    order.amountAoa,
    order.referenceNumber ?? "",
    order.paymentReference ?? "",
    order.customerName ?? "",
    order.customerPhone ? spreadsheetPhone(order.customerPhone) : "",
    order.invoice?.number ?? "",
    order.lines
      .map(
        (line) =>
          `${line.quantity} x ${lineName(line.productName, line.variantTitle)}${line.sku ? ` [${line.sku}]` : ""}`,
      )
      .join("; "),
    delivery.method ?? "",
    delivery.zone?.name ?? "",
    delivery.pickup?.name ?? "",
    delivery.address?.province ?? "",
    delivery.address?.municipality ?? "",
    delivery.address?.neighbourhood ?? "",
    delivery.address?.street ?? "",
    delivery.address?.reference ?? "",
    order.subtotalAoa ?? "",
    order.discountAoa,
    order.promoCode ?? "",
    order.deliveryFeeAoa,
    order.status === "CON" ? (delivery.fulfilmentState ?? "to_prepare") : "",
    order.customerEmail ?? "",
    order.customerNif ?? "",
    refundedAoa,
  ];
}

/** The CSV, header first, as a stream of UTF-8 text read from `db` batch by batch. */
export function ordersCsv(
  db: ExportDb,
  range: ExportRange,
  basis: ExportBasis = "created",
): ReadableStream<Uint8Array> {
  let after: ExportKey | undefined;
  return csvStream(EXPORT_COLUMNS, async () => {
    const orders =
      basis === "paid"
        ? await paidBatch(db, range, after)
        : await db.order.findMany({
            where: {
              // From the last batch's time on, so each batch reads the index from where the last one stopped.
              createdAt: { gte: after?.at ?? range.start, lt: range.end },
              ...(after && {
                OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }],
              }),
            },
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            take: EXPORT_BATCH_SIZE,
            include: batchInclude,
          });
    const last = orders.at(-1);
    if (last) after = { at: (basis === "paid" ? last.finalizedAt : null) ?? last.createdAt, id: last.id };
    const refunded =
      orders.length > 0
        ? await refundedOf(
            db,
            orders.map((order) => order.id),
          )
        : new Map<string, number>();
    return {
      rows: orders.map((order) => orderRecord(order, refunded.get(order.id) ?? 0)),
      last: orders.length < EXPORT_BATCH_SIZE,
    };
  });
}
