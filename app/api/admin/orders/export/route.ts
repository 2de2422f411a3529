import type { NextRequest } from "next/server";
import { EXPORT_BASES, ordersCsv, parseExportRange } from "@/lib/orders/export-admin";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";

// The orders of a range of Luanda dates as CSV (lib/orders/export-admin.ts): ?from=YYYY-MM-DD&to=YYYY-MM-DD, both today by
// default; &by=paid for the orders paid in the range rather than created in it.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  const params = request.nextUrl.searchParams;
  const parsed = parseExportRange(params.get("from"), params.get("to"));
  if (!parsed.ok) return jsonError(400, "invalid_range", parsed.message, { "Cache-Control": "no-store" });
  const basis = EXPORT_BASES.find((name) => name === (params.get("by") ?? "created"));
  if (!basis) return jsonError(400, "invalid_basis", "by must be created or paid", { "Cache-Control": "no-store" });
  const { range } = parsed;
  return new Response(ordersCsv(db(), range, basis), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${basis === "paid" ? "paid-" : ""}${range.from}-${range.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
