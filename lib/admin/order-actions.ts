import "server-only";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { JOB_TYPES } from "../jobs/job-types";
import { jobsOfOrders, requeueParkedJob } from "../jobs/queue";
import { runDueJobs } from "../jobs/runner";
import { consoleLogger } from "../log";
import { resolutionNoteSchema, type ResolveOutcome } from "../orders/attention-admin";
import { changeFulfilment, fulfilmentInputSchema } from "../orders/fulfilment";
import { fulfilAfterCancel } from "../orders/fulfil-after-cancel-admin";
import type { OrderActionDone, OrderActionError } from "../orders/order-flash";
import type { PayClient } from "../orders/pay-client";
import { orderSubject } from "../orders/order-number";
import { changedTheOrder, orderStatus, storedAReference } from "../orders/status";
import { recordStaffEvent, type Actor } from "./staff-events";

/**
 * What the back office's buttons on an order's page and a webhook delivery's page do: ask the
 * service about the order now, retry a PARKED job, mark something resolved with a note, move a
 * paid order's fulfilment on, fulfil an order paid after it was cancelled. Each answers with what it did or why it did nothing; the routes
 * (lib/http/order-actions.ts) turn that into a redirect or JSON. Each is made by a person (the
 * `actor`), recorded in staff_events with what it did, under the order's subject
 * (`order:<externalTransactionId>`, what the order's page lists); a refusal records nothing.
 */

export type OrderActionResult =
  | { ok: true; done: OrderActionDone; details: Record<string, unknown> }
  | { ok: false; status: 400 | 404 | 409 | 503; code: OrderActionError | "not_found"; message: string };
type OrderActionRefusal = Extract<OrderActionResult, { ok: false }>;

export const NOT_FOUND: OrderActionRefusal = {
  ok: false,
  status: 404,
  code: "not_found",
  message: "no such order, job or delivery",
};
export const INVALID_NOTE: OrderActionRefusal = {
  ok: false,
  status: 400,
  code: "invalid_note",
  message: "write a note of 1 to 2000 characters",
};
/** A fulfilment body that is not `{ state, note? }` at all. */
export const INVALID_FULFILMENT_BODY: OrderActionRefusal = {
  ok: false,
  status: 400,
  code: "invalid_fulfilment_state",
  message: "send JSON { state, note? } or the order page's form",
};

/** "Mark resolved": the note (`note`, 1 to 2000 characters) from `fields`, then `resolve` (lib/orders/attention-admin.ts). */
export async function resolveWithNote(
  fields: unknown,
  resolve: (note: string) => Promise<ResolveOutcome>,
): Promise<OrderActionResult> {
  const parsed = resolutionNoteSchema.safeParse(fields);
  if (!parsed.success) return INVALID_NOTE;
  const outcome = await resolve(parsed.data.note);
  if (outcome === "not_found") return NOT_FOUND;
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
 * Whoever asked is recorded once the service answered: the question moves no money by itself
 * (what the answer changes is the state machine's, in its own transactions), so the record is
 * that the person asked, and what the service said.
 */
export async function askServiceNow(
  externalTransactionId: string,
  actor: Actor,
  deps: AskServiceDeps,
): Promise<OrderActionResult> {
  const before = await deps.db.order.findUnique({ where: { externalTransactionId }, select: { status: true } });
  if (!before) return NOT_FOUND;
  if (before.status !== "PEN")
    return { ok: false, status: 409, code: "not_pending", message: "only a pending order is asked about" };
  const result = await orderStatus(
    externalTransactionId,
    { refresh: true },
    { db: deps.db, pay: deps.pay, staleSeconds: getEnv().pay.statusStaleSeconds, log: consoleLogger },
  );
  if (!result) return NOT_FOUND;
  if (result.refresh === "skipped")
    return { ok: false, status: 409, code: "checked_recently", message: "the order was checked a moment ago" };
  if (result.refresh === "service_failed")
    return { ok: false, status: 503, code: "service_failed", message: "the service did not answer; try again" };
  await recordStaffEvent(deps.db, actor, {
    kind: "order.refresh",
    subject: orderSubject(externalTransactionId),
    details: { status: result.view.status, outcome: result.refresh },
  });
  if (changedTheOrder(result.refresh) || storedAReference(result.refresh)) {
    const jobs = await jobsOfOrders(deps.db, Object.values(JOB_TYPES), [externalTransactionId]);
    if (jobs.length) await runDueJobs({ ids: jobs.map((job) => job.id) });
  }
  return { ok: true, done: "refreshed", details: { status: result.view.status, outcome: result.refresh } };
}

/**
 * "Retry": a PARKED job of this order back to QUEUED (lib/jobs/queue.ts) and the person's record,
 * in one transaction; then the job runs at once by the app's runner, so the page shows it DONE or
 * its new error.
 */
export async function retryParkedJob(
  input: { externalTransactionId: string; jobId: string },
  actor: Actor,
  deps: { db: Database },
): Promise<OrderActionResult> {
  const requeued = await deps.db.$transaction(async (tx) => {
    const outcome = await requeueParkedJob(tx, { id: input.jobId, externalTransactionId: input.externalTransactionId });
    if (outcome === "requeued")
      await recordStaffEvent(tx, actor, {
        kind: "order.job_retry",
        subject: orderSubject(input.externalTransactionId),
        details: { jobId: input.jobId },
      });
    return outcome;
  });
  if (requeued === "not_found") return NOT_FOUND;
  if (requeued === "not_parked")
    return { ok: false, status: 409, code: "not_parked", message: "only a parked job is retried" };
  await runDueJobs({ ids: [input.jobId] });
  const job = await deps.db.job.findUniqueOrThrow({
    where: { id: input.jobId },
    select: { status: true, attempts: true, lastError: true },
  });
  return { ok: true, done: "retried", details: { job } };
}

/**
 * "Mark shipped" and the other fulfilment steps: `{ state, note? }` from `fields`, then the step
 * (lib/orders/fulfilment.ts), recorded as made by `actor` in the step's own statement. A mail job
 * the step enqueued is handed to `runJobs` (the route runs it after answering).
 */
export async function fulfilOrder(
  externalTransactionId: string,
  fields: unknown,
  actor: Actor,
  deps: { db: Database; runJobs: (ids: string[]) => void },
): Promise<OrderActionResult> {
  const parsed = fulfilmentInputSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === "note" ? "note" : "state";
    return {
      ok: false,
      status: 400,
      code: field === "note" ? "invalid_fulfilment_note" : "invalid_fulfilment_state",
      message: issue?.message ?? INVALID_FULFILMENT_BODY.message,
    };
  }
  const result = await changeFulfilment(deps.db, externalTransactionId, parsed.data, actor);
  switch (result.outcome) {
    case "not_found":
      return NOT_FOUND;
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

/**
 * "Cumprir": an order paid after it was cancelled, fulfilled after all by `actor`
 * (lib/orders/fulfil-after-cancel-admin.ts); the jobs of its payment go to `runJobs` (the route
 * runs them after answering, as a webhook's).
 */
export async function fulfilPaidAfterCancel(
  externalTransactionId: string,
  actor: Actor,
  deps: { db: Database; runJobs: (ids: string[]) => void },
): Promise<OrderActionResult> {
  const result = await fulfilAfterCancel(deps.db, externalTransactionId, actor);
  if (result.ok && result.details.jobIds.length > 0) deps.runJobs(result.details.jobIds);
  return result;
}
