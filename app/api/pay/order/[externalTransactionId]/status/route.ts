import { after } from "next/server";
import { refuseOverClientLimit } from "@/lib/http/client-limits";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { jsonError } from "@/lib/http/json-error";
import { drainJobsInBackground, endOfInvocation } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";
import { EXTERNAL_TRANSACTION_ID } from "@/lib/orders/order-number";
import { changedTheOrder, orderStatus, storedAReference } from "@/lib/orders/status";
import { payClient } from "@/lib/orders/pay-client";

// Endpoint C (contract 4.2): the order's status from our database, checked with the service when stale.
export const dynamic = "force-dynamic";
// A status query (two 3 s attempts at most), then a drain of the jobs a change enqueued.
export const maxDuration = 60;

export async function GET(
  request: Request,
  { params }: { params: Promise<{ externalTransactionId: string }> },
): Promise<Response> {
  const startedAt = Date.now();
  const refreshParam = new URL(request.url).searchParams.get("refresh");
  const refresh = refreshParam === "1" || refreshParam === "true";
  // A forced refresh asks the service, so it is limited per client address (every attempt
  // counts); reading our own database is not.
  if (refresh) {
    const limited = await refuseOverClientLimit(request, {
      name: "status-refresh",
      pointsPerMinute: getEnv().rateLimits.statusRefreshPerMinute,
      message: "too many status checks from this address; please wait a moment and try again",
    });
    if (limited) return limited;
  }
  const { externalTransactionId } = await params;
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId))
    return jsonError(400, "invalid_order_id", "the order id must be order_ followed by a lower-case UUID");

  let result;
  try {
    result = await orderStatus(
      externalTransactionId,
      { refresh },
      { db: db(), pay: payClient(), staleSeconds: getEnv().pay.statusStaleSeconds, log: consoleLogger },
    );
  } catch (error) {
    consoleLogger("error", "order.status_failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the order's status cannot be read right now");
  }
  if (!result) return jsonError(404, "order_not_found", `no order ${externalTransactionId}`);
  // A change enqueued jobs (a release of stock, a mail, a new reference's mail): run them once the
  // answer is on its way.
  if (changedTheOrder(result.refresh) || storedAReference(result.refresh))
    after(() => drainJobsInBackground({ finishBy: endOfInvocation(startedAt, maxDuration) }));
  return Response.json(result.view, { headers: { "Cache-Control": "no-store" } });
}
