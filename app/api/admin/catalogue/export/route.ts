import type { NextRequest } from "next/server";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { catalogCsv, delimiterOf } from "@/lib/catalog/csv/export";
import { db } from "@/lib/db/client";

// The catalogue as CSV (lib/catalog/csv/export.ts), the columns the import reads:
// ?delimiter=semicolon for Excel in pt-AO, a comma otherwise.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  return new Response(catalogCsv(db(), delimiterOf(request.nextUrl.searchParams.get("delimiter"))), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="catalogue.csv"',
      "Cache-Control": "no-store",
    },
  });
}
