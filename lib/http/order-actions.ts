import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { catalogChanged } from "../catalog/cached-pages";
import { clientAddress, UNKNOWN_CLIENT_ADDRESS } from "./client-address";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { JOB_TYPES } from "../jobs/job-types";
import { jobsOfOrders, requeueParkedJob } from "../jobs/queue";
import { runDueJobs } from "../jobs/runner";
import { consoleLogger } from "../log";
import { changeFulfilment, fulfilmentInputSchema } from "../orders/fulfilment";
import { changedTheOrder, EXTERNAL_TRANSACTION_ID, orderStatus } from "../orders/status";
import type { PayClient } from "../orders/pay-client";
import { refuseWithoutAdminSession } from "./admin-guard";
import { resolutionNoteSchema, type ResolveOutcome } from "../orders/attention-admin";
import { orderPagePath, type OrderActionDone, type OrderActionError } from "../orders/order-flash";
import { isFormPost, readFormOrJson, refuseCrossSite, seeOther } from "./admin-requests";

/**
 * The back office's buttons, for the route handlers under app/api/admin: on an order's page
 * (/admin/orders/<externalTransactionId>) ask the service about the order now, retry a PARKED
 * job, mark the order's attention or a parked job resolved, move a paid order's fulfilment on; on a webhook delivery's page
 * (/admin/webhooks/<id>) mark it resolved. Each answers the page's form with a 303 back to the
 * page, its outcome in `?done=` or `?error=`, and a JSON client with JSON: 401 without a session,
 * 403 cross-site, 404 for an unknown order, job or delivery, 400 for a bad note, 409 when the
 * action does not apply.
 */

export type ActionResult =
  | { ok: true; done: OrderActionDone; details: Record<string, unknown> }
  | { ok: false; status: 400 | 404 | 409 | 503; code: OrderActionError | "not_found"; message: string };

/** The routes' path parameters; a malformed one is an unknown order, job or delivery (404). */
export const orderParams = z.object({ externalTransactionId: z.string().regex(EXTERNAL_TRANSACTION_ID) });
export const jobParams = orderParams.extend({ jobId: z.uuid() });
export const deliveryParams = z.object({ id: z.uuid() });

const notFound: ActionResult = { ok: false, status: 404, code: "not_found", message: "no such order, job or delivery" };

/**
 * The whole of an action's route: the session guard, the cross-site check, the parameters
 * through zod, then `action`; its result as a 303 to `pagePath` for the page's form, or JSON
 * for anyone else.
 */
export async function adminAction<Schema extends z.ZodType>(
  request: NextRequest,
  params: Promise<unknown>,
  schema: Schema,
  pagePath: (input: z.infer<Schema>) => string,
  action: (input: z.infer<Schema>, request: NextRequest) => Promise<ActionResult>,
): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const parsed = schema.safeParse(await params);
  const result = parsed.success ? await action(parsed.data, request) : notFound;
  if (!isFormPost(request))
    return result.ok
      ? NextResponse.json({ done: result.done, ...result.details })
      : jsonError(result.status, result.code, result.message);
  if (!parsed.success || (!result.ok && result.code === "not_found"))
    return jsonError(404, "not_found", "no such order, job or delivery");
  const flash = result.ok ? `done=${result.done}` : `error=${result.code}`;
  return seeOther(`${pagePath(parsed.data)}?${flash}`);
}

/**
 * {@link adminAction} for the buttons of an order's page. One that worked may have moved the
 * order or run its jobs (a release of stock among them): the cached catalogue follows.
 */
export const adminOrderAction = <Schema extends z.ZodType<{ externalTransactionId: string }>>(
  request: NextRequest,
  params: Promise<unknown>,
  schema: Schema,
  action: (input: z.infer<Schema>, request: NextRequest) => Promise<ActionResult>,
) =>
  adminAction(
    request,
    params,
    schema,
    (input) => orderPagePath(input.externalTransactionId),
    async (input, request) => {
      const result = await action(input, request);
      if (result.ok) catalogChanged();
      return result;
    },
  );

/** The longest "mark resolved" body read: a note of 2000 characters, each up to 4 bytes, form-encoded. */
const MAX_NOTE_BYTES = 32 * 1024;

/**
 * "Mark resolved": the note from the form or JSON body (`note`, 1 to 2000 characters), then
 * `resolve` (lib/orders/attention-admin.ts).
 */
export async function markResolved(
  request: NextRequest,
  resolve: (note: string) => Promise<ResolveOutcome>,
): Promise<ActionResult> {
  const body = await readFormOrJson(request, MAX_NOTE_BYTES);
  const parsed = body.ok ? resolutionNoteSchema.safeParse(body.input) : undefined;
  if (!parsed?.success)
    return { ok: false, status: 400, code: "invalid_note", message: "write a note of 1 to 2000 characters" };
  const outcome = await resolve(parsed.data.note);
  if (outcome === "not_found") return notFound;
  if (outcome === "nothing_to_resolve")
    return { ok: false, status: 409, code: "nothing_to_resolve", message: "nothing here needs resolving" };
  return { ok: true, done: "resolved", details: {} };
}

export interface AskServiceDeps {
  db: Database;
  pay: PayClient;
}

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
  if (changedTheOrder(result.refresh)) {
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

/** The longest fulfilment body read: a note of 500 characters, each up to 4 bytes, form-encoded, and the state. */
const MAX_FULFILMENT_BODY_BYTES = 8 * 1024;

/**
 * Who made a fulfilment step, as its event records it. The back office has one password and no
 * user accounts, so the session names nobody: the actor is "back office" and the address the
 * request came from (lib/http/client-address.ts, read only from what the platform guarantees), which
 * tells the shop's people apart when they work from different places.
 */
export function backOfficeActor(request: Request): string {
  const address = clientAddress(request.headers, getEnv().clientAddress);
  return address === UNKNOWN_CLIENT_ADDRESS ? "back office" : `back office (${address})`;
}

/**
 * "Mark shipped" and the other fulfilment steps: `{ state, note? }` from the order page's form
 * or a JSON client, then the step (lib/orders/fulfilment.ts). A mail job the step enqueued is
 * handed to `runJobs` (the route runs it after answering).
 */
export async function fulfilOrder(
  request: Request,
  externalTransactionId: string,
  deps: { db: Database; runJobs: (ids: string[]) => void },
): Promise<ActionResult> {
  const body = await readFormOrJson(request, MAX_FULFILMENT_BODY_BYTES);
  const parsed = body.ok ? fulfilmentInputSchema.safeParse(body.input) : undefined;
  if (!parsed?.success) {
    const issue = parsed?.error.issues[0];
    const field = issue?.path[0] === "note" ? "note" : "state";
    return {
      ok: false,
      status: 400,
      code: field === "note" ? "invalid_fulfilment_note" : "invalid_fulfilment_state",
      message: issue?.message ?? "send JSON { state, note? } or the order page's form",
    };
  }
  const result = await changeFulfilment(deps.db, externalTransactionId, parsed.data, backOfficeActor(request));
  switch (result.outcome) {
    case "not_found":
      return notFound;
    case "order_not_paid":
      return {
        ok: false,
        status: 409,
        code: "order_not_paid",
        message: `the order is ${result.status}: only a paid order is fulfilled`,
      };
    case "invalid_transition":
      return {
        ok: false,
        status: 409,
        code: "invalid_transition",
        message: `${parsed.data.state} does not follow ${result.current ?? "to prepare"} for ${result.method ?? "an order without a delivery method"}`,
      };
    case "changed":
      if (result.mailJobId) deps.runJobs([result.mailJobId]);
      return {
        ok: true,
        done: "fulfilment",
        details: { order: result.order, event: result.event, mailJobId: result.mailJobId },
      };
  }
}
