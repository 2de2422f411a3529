import { after } from "next/server";
import { authorizeCron } from "@/lib/cron";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { jsonError } from "@/lib/http";
import { drainJobsInBackground } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";
import { reconcilePendingOrders } from "@/lib/orders/status";
import { payClient } from "@/lib/pay";

// The reconcile sweep for serverless hosts (vercel.json schedules it); `npm run reconcile` elsewhere.
export const dynamic = "force-dynamic";

async function reconcile(request: Request): Promise<Response> {
  const refused = authorizeCron(request);
  if (refused) return refused;
  try {
    const summary = await reconcilePendingOrders({
      db: db(),
      pay: payClient(),
      staleSeconds: getEnv().pay.statusStaleSeconds,
      log: consoleLogger,
    });
    consoleLogger("info", "reconcile.done", { ...summary });
    if (summary.transitioned + summary.abandoned > 0) after(() => drainJobsInBackground());
    return Response.json(summary);
  } catch (error) {
    consoleLogger("error", "reconcile.failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the sweep could not run; it will run again on the next schedule");
  }
}

export const GET = reconcile;
export const POST = reconcile;
