import type { NextRequest } from "next/server";
import { ordersCsv, parseExportRange } from "@/lib/orders/export-admin";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";

// The orders of a range of Luanda dates as CSV (lib/orders/export-admin.ts): ?from=YYYY-MM-DD&to=YYYY-MM-DD, both today by default.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  const params = request.nextUrl.searchParams;
  const parsed = parseExportRange(params.get("from"), params.get("to"));
  if (!parsed.ok) return jsonError(400, "invalid_range", parsed.message, { "Cache-Control": "no-store" });
  const { range } = parsed;
  return new Response(ordersCsv(db(), range), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${range.from}-${range.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
