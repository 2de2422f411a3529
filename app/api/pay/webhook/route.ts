import { after } from "next/server";
import { catalogChanged } from "@/lib/catalog/cached-pages";
import { dbPool } from "@/lib/db/client";
import { DeadlineExceeded } from "@/lib/db/deadline";
import { getEnv } from "@/lib/env";
import { jsonError } from "@/lib/http/json-error";
import { drainJobsInBackground, endOfInvocation } from "@/lib/jobs/runner";
import { consoleLogger, errorKind, throttledLogger } from "@/lib/log";
import { bodyRefusal, readBodyCapped } from "@/lib/http/request-body";
import { MAX_WEBHOOK_BYTES, receiveWebhook } from "@/lib/orders/receive-webhook";
import { SIGNATURE_HEADER } from "@/lib/pay/webhooks/signature";

// Endpoint B (contract 4.2): the service's signed notifications, the only source of truth.
export const dynamic = "force-dynamic";
// Answered at once; the jobs the notification enqueued then run in after(), inside this duration.
export const maxDuration = 60;

// receiveWebhook logs only the deliveries it refuses, which anyone can send by the thousand.
const refusedDeliveryLog = throttledLogger(consoleLogger);

export async function POST(request: Request): Promise<Response> {
  const started = performance.now();
  const startedAt = Date.now();
  // The service waits 5 s for an answer; the deadline counts from the delivery's arrival.
  const { webhookSecret, webhookDeadlineMs } = getEnv().pay;
  const body = await readBodyCapped(request, MAX_WEBHOOK_BYTES);
  if (!body.ok) return bodyRefusal(body, MAX_WEBHOOK_BYTES);

  let receipt;
  try {
    receipt = await receiveWebhook(body.bytes, request.headers.get(SIGNATURE_HEADER), {
      pool: dbPool(),
      webhookSecret,
      log: refusedDeliveryLog,
      deadline: startedAt + webhookDeadlineMs,
    });
  } catch (error) {
    if (error instanceof DeadlineExceeded) {
      // Nothing was recorded, and the abandoned transaction rolls back: after() keeps the
      // function alive until it has, so no transaction is left open on a suspended instance.
      after(error.settled);
      consoleLogger("warn", "webhook.deadline_exceeded", {
        waitingFor: error.waitingFor,
        deadlineMs: webhookDeadlineMs,
        ms: Math.round(performance.now() - started),
      });
      return jsonError(503, "unavailable", "the notification could not be recorded in time; deliver it again later");
    }
    // Not recorded means not acknowledged: a 5xx makes the service deliver it again.
    consoleLogger("error", "webhook.not_recorded", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the notification could not be recorded; deliver it again later");
  }

  if (receipt.kind === "rejected_signature")
    return jsonError(401, "invalid_signature", `the ${SIGNATURE_HEADER} header does not sign this body`);
  if (receipt.kind === "invalid") return jsonError(400, receipt.code, receipt.message);

  // A customer paid for a cancelled order: someone must fulfil or refund it (a job mails the shop).
  const paidAfterCancel = receipt.outcome === "paid_after_cancel";
  consoleLogger(
    paidAfterCancel ? "error" : "info",
    paidAfterCancel ? "webhook.paid_after_cancel" : "webhook.recorded",
    {
      outcome: receipt.outcome,
      externalTransactionId: receipt.externalTransactionId,
      ms: Math.round(performance.now() - started),
    },
  );
  // A payment of an order whose hold had run out takes units the catalogue showed as free. Any
  // other payment takes units its order already held, so nothing the pages show changed (marking
  // them stale would render every catalogue page again after each payment of a sale). A
  // cancellation's units go back by a job, and the drain marks the pages stale once it has run.
  if (receipt.outcome === "transitioned" && receipt.holdHadExpired) catalogChanged();
  // The transition, or a new bank reference, enqueued its side effects (mails, the invoice, the
  // cart, the stock): run them once the reply is on its way.
  if (receipt.outcome === "transitioned" || paidAfterCancel || receipt.outcome === "pending_updated") {
    after(() => drainJobsInBackground({ finishBy: endOfInvocation(startedAt, maxDuration) }));
  }
  return Response.json({ received: true, outcome: receipt.outcome === "not_found" ? "unmatched" : receipt.outcome });
}
