import type { NextRequest } from "next/server";
import { parseExportRange } from "@/lib/orders/export-admin";
import { refundsCsv, refundsExportName } from "@/lib/orders/refund-export-admin";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";

// The refunds made on a range of Luanda dates as CSV, the owner's (lib/orders/refund-export-admin.ts):
// ?from=YYYY-MM-DD&to=YYYY-MM-DD, both today by default, read as the orders export reads them.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  const params = request.nextUrl.searchParams;
  const parsed = parseExportRange(params.get("from"), params.get("to"));
  if (!parsed.ok) return jsonError(400, "invalid_range", parsed.message, { "Cache-Control": "no-store" });
  return new Response(refundsCsv(db(), parsed.range), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${refundsExportName(parsed.range)}"`,
      "Cache-Control": "no-store",
    },
  });
}
