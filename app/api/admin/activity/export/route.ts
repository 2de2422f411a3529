import type { NextRequest } from "next/server";
import { activityCsv, activityExportName, parseActivityQuery } from "@/lib/admin/activity";
import { refuseWithoutAdminSession } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";

// Who did what as CSV, the owner's (lib/admin/activity.ts): /admin/activity's filter, ?person=&kind=&from=&to=
// (YYYY-MM-DD in Luanda, both included), every page of it, newest first.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const refusal = await refuseWithoutAdminSession(request);
  if (refusal) return refusal;
  const { filter, problems } = parseActivityQuery(request.nextUrl.searchParams);
  // A script asked for something the page would have left out: it is told, not given another file.
  const [problem] = problems.filter((found) => found.field !== "after");
  if (problem) return jsonError(400, "invalid_filter", problem.message, { "Cache-Control": "no-store" });
  return new Response(activityCsv(db(), filter), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${activityExportName(filter)}"`,
      "Cache-Control": "no-store",
    },
  });
}
