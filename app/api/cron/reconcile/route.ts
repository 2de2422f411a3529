import { after } from "next/server";
import { drainJobsInBackground } from "@/lib/jobs/runner";
import { authorizeCron } from "@/lib/http/cron-guard";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { endOfInvocation } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";
import { reconcilePendingOrders } from "@/lib/orders/reconcile";
import { payClient } from "@/lib/orders/pay-client";

// The reconcile sweep for serverless hosts (vercel.json schedules it); `npm run reconcile` elsewhere.
// It ends expired stock holds, then checks quiet pending orders (lib/orders/reconcile.ts).
export const dynamic = "force-dynamic";
// The sweep starts no new check after SWEEP_FOR_MS; the last ones take at most ~7 s (two 3 s
// attempts). The jobs it enqueued then run in after() until the function's end (endOfInvocation).
export const maxDuration = 60;

const SWEEP_FOR_MS = 15_000;

async function reconcile(request: Request): Promise<Response> {
  const startedAt = Date.now();
  const refused = authorizeCron(request);
  if (refused) return refused;
  try {
    const summary = await reconcilePendingOrders({
      db: db(),
      pay: payClient(),
      log: consoleLogger,
      deadline: startedAt + SWEEP_FOR_MS,
    });
    consoleLogger("info", "reconcile.done", { ...summary });
    if (summary.changed > 0) after(() => drainJobsInBackground({ finishBy: endOfInvocation(startedAt, maxDuration) }));
    return Response.json(summary);
  } catch (error) {
    consoleLogger("error", "reconcile.failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the sweep could not run; it will run again on the next schedule");
  }
}

export const GET = reconcile;
export const POST = reconcile;
