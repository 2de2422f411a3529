import { after } from "next/server";
import { drainJobsThenRefreshCatalog } from "@/lib/catalog-pages";
import { authorizeCron } from "@/lib/cron";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { jsonError } from "@/lib/http";
import { postgresImageStore } from "@/lib/images/postgres-store";
import { sweepOrphanImages } from "@/lib/images/sweep";
import { endOfInvocation } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";
import { reconcilePendingOrders } from "@/lib/orders/reconcile";
import { payClient } from "@/lib/pay";

// The reconcile sweep for serverless hosts (vercel.json schedules it); `npm run reconcile` elsewhere.
// It ends expired stock holds, then checks quiet pending orders (lib/orders/reconcile.ts), then
// deletes images nothing has shown for a day (lib/images/sweep.ts).
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
      staleSeconds: getEnv().pay.statusStaleSeconds,
      log: consoleLogger,
      deadline: startedAt + SWEEP_FOR_MS,
    });
    const imagesDeleted = await sweepImages();
    consoleLogger("info", "reconcile.done", { ...summary, imagesDeleted });
    if (summary.changed > 0)
      after(() => drainJobsThenRefreshCatalog({ finishBy: endOfInvocation(startedAt, maxDuration) }));
    return Response.json({ ...summary, imagesDeleted });
  } catch (error) {
    consoleLogger("error", "reconcile.failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the sweep could not run; it will run again on the next schedule");
  }
}

/** How many orphan images it deleted; null when that failed (logged: the orders were swept all the same). */
async function sweepImages(): Promise<number | null> {
  try {
    return await sweepOrphanImages(postgresImageStore(db()));
  } catch (error) {
    consoleLogger("error", "images.sweep_failed", { error: errorKind(error) });
    return null;
  }
}

export const GET = reconcile;
export const POST = reconcile;
