import type { NextRequest } from "next/server";
import { z } from "zod";
import { currentDashboard } from "@/lib/dashboard/dashboard-admin";
import { DASHBOARD_SERIES, dashboardCsv } from "@/lib/dashboard/dashboard-csv-admin";
import { parsePeriod } from "@/lib/dashboard/period-query";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { jsonError } from "@/lib/http/json-error";

// One series of the dashboard as CSV (lib/dashboard/dashboard-csv-admin.ts): ?series=…&period=… (or period=custom&from&to).
export const dynamic = "force-dynamic";

const seriesParam = z.enum(DASHBOARD_SERIES);

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  const params = Object.fromEntries(request.nextUrl.searchParams);
  const series = seriesParam.safeParse(params.series);
  if (!series.success) {
    return jsonError(400, "invalid_series", `series must be one of ${DASHBOARD_SERIES.join(", ")}`, {
      "Cache-Control": "no-store",
    });
  }
  const { period, problem } = parsePeriod(params);
  if (problem) return jsonError(400, "invalid_period", problem.message, { "Cache-Control": "no-store" });
  const data = await currentDashboard(db(), period, { lowStockThreshold: getEnv().catalog.lowStockThreshold });
  return new Response(dashboardCsv(data, series.data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="dashboard-${series.data}-${period.from}-${period.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
