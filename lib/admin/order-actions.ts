import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { jsonError } from "../http";
import { JOB_TYPES } from "../jobs/catalog";
import { jobsOfOrders, requeueParkedJob } from "../jobs/queue";
import { runDueJobs } from "../jobs/runner";
import { consoleLogger } from "../log";
import { EXTERNAL_TRANSACTION_ID, orderStatus, type RefreshOutcome } from "../orders/status";
import type { PayClient } from "../pay";
import { refuseWithoutAdminSession } from "./guard";
import { orderPagePath, type OrderActionDone, type OrderActionError } from "./order-flash";
import { isFormPost, refuseCrossSite, seeOther } from "./requests";

/**
 * The order page's buttons (/admin/orders/<externalTransactionId>), for the route handlers under
 * app/api/admin/orders/[externalTransactionId]: ask the service about the order now, and retry a
 * PARKED job. Each answers the page's form with a 303 back to the order page, its outcome in
 * `?done=` or `?error=`, and a JSON client with JSON: 401 without a session, 403 cross-site, 404
 * for an unknown order or job, 409 when the action does not apply.
 */

export type ActionResult =
  | { ok: true; done: OrderActionDone; details: Record<string, unknown> }
  | { ok: false; status: 404 | 409 | 503; code: OrderActionError | "not_found"; message: string };

/** The routes' path parameters; a malformed one is an unknown order or job (404). */
export const orderParams = z.object({ externalTransactionId: z.string().regex(EXTERNAL_TRANSACTION_ID) });
export const jobParams = orderParams.extend({ jobId: z.uuid() });

const notFound: ActionResult = { ok: false, status: 404, code: "not_found", message: "no such order or job" };

/**
 * The whole of an action's route: the session guard, the cross-site check, the parameters
 * through zod, then `action`; its result as a 303 for the page's form or JSON for anyone else.
 */
export async function adminOrderAction<Schema extends z.ZodType<{ externalTransactionId: string }>>(
  request: NextRequest,
  params: Promise<unknown>,
  schema: Schema,
  action: (input: z.infer<Schema>) => Promise<ActionResult>,
): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const parsed = schema.safeParse(await params);
  const result = parsed.success ? await action(parsed.data) : notFound;
  if (!isFormPost(request))
    return result.ok
      ? NextResponse.json({ done: result.done, ...result.details })
      : jsonError(result.status, result.code, result.message);
  if (!parsed.success || (!result.ok && result.code === "not_found"))
    return jsonError(404, "not_found", "no such order or job");
  const flash = result.ok ? `done=${result.done}` : `error=${result.code}`;
  return seeOther(`${orderPagePath(parsed.data.externalTransactionId)}?${flash}`);
}

export interface AskServiceDeps {
  db: Database;
  pay: PayClient;
}

/** Outcomes of a check that changed the order, so that jobs were enqueued (as the status route). */
const CHANGED: readonly RefreshOutcome[] = ["transitioned", "abandoned", "hold_expired", "paid_after_cancel"];

/**
 * "Ask the service now": one status query through the status endpoint's own path (orderStatus
 * with a forced refresh, so the state machine applies any change and enqueues its jobs), then
 * those jobs run at once, before the answer, so the page it redirects to shows their outcome.
 */
export async function askServiceNow(externalTransactionId: string, deps: AskServiceDeps): Promise<ActionResult> {
  const before = await deps.db.order.findUnique({ where: { externalTransactionId }, select: { status: true } });
  if (!before) return notFound;
  if (before.status !== "PEN")
    return { ok: false, status: 409, code: "not_pending", message: "only a pending order is asked about" };
  const result = await orderStatus(
    externalTransactionId,
    { refresh: true },
    { db: deps.db, pay: deps.pay, staleSeconds: getEnv().pay.statusStaleSeconds, log: consoleLogger },
  );
  if (!result) return notFound;
  if (result.refresh === "skipped")
    return { ok: false, status: 409, code: "checked_recently", message: "the order was checked a moment ago" };
  if (result.refresh === "service_failed")
    return { ok: false, status: 503, code: "service_failed", message: "the service did not answer; try again" };
  if (CHANGED.includes(result.refresh)) {
    const jobs = await jobsOfOrders(deps.db, Object.values(JOB_TYPES), [externalTransactionId]);
    if (jobs.length) await runDueJobs({ ids: jobs.map((job) => job.id) });
  }
  return { ok: true, done: "refreshed", details: { status: result.view.status, outcome: result.refresh } };
}

/**
 * "Retry": a PARKED job of this order back to QUEUED (lib/jobs/queue.ts), then run at once by
 * the app's runner, so the page shows it DONE or its new error.
 */
export async function retryParkedJob(
  input: { externalTransactionId: string; jobId: string },
  deps: { db: Database },
): Promise<ActionResult> {
  const requeued = await requeueParkedJob(deps.db, {
    id: input.jobId,
    externalTransactionId: input.externalTransactionId,
  });
  if (requeued === "not_found") return notFound;
  if (requeued === "not_parked")
    return { ok: false, status: 409, code: "not_parked", message: "only a parked job is retried" };
  await runDueJobs({ ids: [input.jobId] });
  const job = await deps.db.job.findUniqueOrThrow({
    where: { id: input.jobId },
    select: { status: true, attempts: true, lastError: true },
  });
  return { ok: true, done: "retried", details: { job } };
}
