import "server-only";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import { lineName } from "../catalog/variants";
import { luandaIso } from "../luanda-time";
import { csvStream, EXPORT_BATCH_SIZE, type ExportRange } from "./export-admin";

/**
 * The refunds as CSV for an accountant (GET /api/admin/refunds/export): every refund made between
 * two dates of the Luanda calendar, both included (by `refunded_at`, when the money went back, as
 * the dashboard counts them), in that order, one row each; a correcting entry is a row of its own,
 * with its negative amount and the number of the refund it corrects. The range is the orders
 * export's (parseExportRange), and so are the escaping and the streaming (csvStream): read 1000 at
 * a time by keyset (refunded_at, number), on the refunds' index on refunded_at.
 */

export const REFUND_EXPORT_COLUMNS = [
  "refund_number",
  "refunded_at",
  "order_id",
  "amount_aoa",
  "delivery_fee_aoa",
  "method",
  "reference",
  "note",
  "recorded_by",
  "returned_units",
  "corrects_refund_number",
] as const;

/** A returned line of a refund, as the export names it. */
interface ReturnedLine {
  quantity: number;
  restock: boolean;
  productName: string;
  variantTitle: string;
  sku: string | null;
}

interface ExportedRefund {
  number: number;
  refundedAt: Date;
  externalTransactionId: string;
  amountAoa: number;
  deliveryFeeAoa: number;
  method: string;
  reference: string | null;
  note: string | null;
  staffName: string;
  correctsNumber: number | null;
  lines: ReturnedLine[];
}

interface RefundKey {
  at: Date;
  number: number;
}

/**
 * The next batch of refunds of `range` after `after`, each with its order's id, its returned lines
 * (a subquery by refund_lines' unique index on refund_id) and the number of the refund it corrects.
 */
function refundBatch(db: SqlRunner, range: ExportRange, after: RefundKey | undefined) {
  return db.$queryRaw<ExportedRefund[]>(Prisma.sql`
SELECT r.number, r.refunded_at AS "refundedAt", o.external_transaction_id AS "externalTransactionId",
       r.amount_aoa AS "amountAoa", r.delivery_fee_aoa AS "deliveryFeeAoa", r.method, r.reference, r.note,
       r.staff_name AS "staffName", corrected.number AS "correctsNumber",
       COALESCE((
         SELECT json_agg(json_build_object('quantity', rl.quantity, 'restock', rl.restock,
                                           'productName', ol.product_name, 'variantTitle', ol.variant_title,
                                           'sku', ol.sku)
                         ORDER BY ol.product_name, ol.variant_title, rl.restock DESC)
         FROM refund_lines rl JOIN order_lines ol ON ol.id = rl.order_line_id
         WHERE rl.refund_id = r.id
       ), '[]'::json) AS lines
FROM refunds r
JOIN orders o ON o.id = r.order_id
-- The refund a correcting entry corrects; none for a refund.
LEFT JOIN refunds corrected ON corrected.id = r.corrects_refund_id
WHERE r.refunded_at >= ${after?.at ?? range.start} AND r.refunded_at < ${range.end}
  AND (r.refunded_at, r.number) > (${after?.at ?? new Date(0)}, ${after?.number ?? 0}::int)
ORDER BY r.refunded_at, r.number
LIMIT ${EXPORT_BATCH_SIZE}`);
}

/** "2 x Camisa, M [CAM-M] restocked; 1 x Café damaged": the units a refund took back, and where each went. */
export function returnedUnits(lines: readonly ReturnedLine[]): string {
  return lines
    .map(
      (line) =>
        `${line.quantity} x ${lineName(line.productName, line.variantTitle)}${line.sku ? ` [${line.sku}]` : ""} ${
          line.restock ? "restocked" : "damaged"
        }`,
    )
    .join("; ");
}

/** One refund's record, in {@link REFUND_EXPORT_COLUMNS}' order. */
function refundRecord(refund: ExportedRefund): unknown[] {
  return [
    refund.number,
    luandaIso(refund.refundedAt),
    refund.externalTransactionId,
    refund.amountAoa,
    refund.deliveryFeeAoa,
    refund.method,
    refund.reference ?? "",
    refund.note ?? "",
    refund.staffName,
    returnedUnits(refund.lines),
    refund.correctsNumber ?? "",
  ];
}

/** The refunds of `range` as CSV, header first, a stream of UTF-8 text read from `db` batch by batch. */
export function refundsCsv(db: SqlRunner, range: ExportRange): ReadableStream<Uint8Array> {
  let after: RefundKey | undefined;
  return csvStream(REFUND_EXPORT_COLUMNS, async () => {
    const refunds = await refundBatch(db, range, after);
    const last = refunds.at(-1);
    if (last) after = { at: last.refundedAt, number: last.number };
    return { rows: refunds.map(refundRecord), last: refunds.length < EXPORT_BATCH_SIZE };
  });
}

/** The file's name: the dates it covers. */
export const refundsExportName = (range: Pick<ExportRange, "from" | "to">) => `refunds-${range.from}-${range.to}.csv`;
