import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isDeepStrictEqual } from "node:util";
import type pg from "pg";
import type { Prisma } from "../../lib/generated/prisma/client";
import { MAX_WEBHOOK_BYTES, receiveWebhook } from "../../lib/orders/receive-webhook";
import { SIGNATURE_HEADER, signPayload } from "../../lib/pay/webhooks/signature";
import { readBody, sendJson } from "../lib/http";
import type { Answer, Baseline, BenchRequest, PreparedRun, RunSetup, Scenario, Verification } from "../lib/scenario";
import { waitFor, waitUntilSteady } from "../lib/wait";
import {
  CON_JOBS,
  conJobKeys,
  countEvents,
  countUnmatchedEvents,
  createConfirmedOrders,
  createPendingOrders,
  databaseNow,
  orderStates,
  jobStatusCounts,
  setJobsAside,
  type BenchOrder,
  type DatabaseTime,
} from "./orders";

/**
 * POST /api/pay/webhook (contract 4.2 B, 5.2, 6.1): signed deliveries, as the service sends them.
 *
 * The app: Next's router, the route handler, reading the raw body, receiveWebhook (verify the
 * HMAC, parse, then one statement that records the event and applies the status through the
 * state machine, enqueuing the jobs of a transition), a log line, Response.json, and after the
 * reply, for a transition, the jobs run by `after()` in the same process.
 *
 * The baseline: node:http reads the raw body and calls the same receiveWebhook with a `db` that
 * sends the same Prisma.Sql through `pg` (`sql.text` with $1 placeholders, `sql.values`): the
 * same signature check and the same statement. It gives no deadline, so the statement runs on
 * its own, where the app's runs in a transaction bounded by its deadline (BEGIN and the
 * timeouts' set_config sent with the statement, then COMMIT: one more round trip,
 * lib/db/deadline.ts). It runs no jobs; the ones its transitions enqueue are set aside after its
 * checks (orders.ts).
 */

const WEBHOOK_PATH = "/api/pay/webhook";

/** The route's answers, written by hand (app/api/pay/webhook/route.ts). */
function webhookHandler(database: pg.Pool, webhookSecret: string) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request, MAX_WEBHOOK_BYTES);
    if (!body) return sendJson(response, 413, { error: { code: "payload_too_large", message: "too large" } });
    const header = request.headers[SIGNATURE_HEADER];
    const receipt = await receiveWebhook(body, Array.isArray(header) ? header.join(", ") : (header ?? null), {
      pool: database,
      webhookSecret,
      log: () => {},
    });
    if (receipt.kind === "rejected_signature")
      return sendJson(response, 401, { error: { code: "invalid_signature", message: "bad signature" } });
    if (receipt.kind === "invalid")
      return sendJson(response, 400, { error: { code: receipt.code, message: receipt.message } });
    sendJson(response, 200, {
      received: true,
      outcome: receipt.outcome === "not_found" ? "unmatched" : receipt.outcome,
    });
  };
}

const webhookBaseline: Baseline = {
  method: "POST",
  path: WEBHOOK_PATH,
  handler: ({ database, shop }) => webhookHandler(database, shop.webhookSecret),
};

/** A delivery shaped like the local sandbox's (packages/pay-sandbox/src/webhooks.ts), signed as it signs: lower-case hex. */
function delivery(order: BenchOrder, paymentStatus: "CON", webhookSecret: string): BenchRequest {
  const body = JSON.stringify({
    event: "payment.status_changed",
    deliveryId: `dlv_${randomBytes(8).toString("hex")}`,
    sentAt: new Date().toISOString(),
    data: {
      externalTransactionId: order.externalTransactionId,
      referenceNumber: order.referenceNumber,
      paymentStatus,
      amount: order.amountAoa,
      paymentMethod: "FPMCXEXPRSS",
      updatedAt: new Date().toISOString(),
    },
  });
  return {
    method: "POST",
    path: WEBHOOK_PATH,
    headers: {
      "Content-Type": "application/json",
      [SIGNATURE_HEADER]: signPayload(webhookSecret, Buffer.from(body)).toString("hex"),
    },
    body,
  };
}

interface Reply {
  status: number;
  outcome: string | undefined;
}

function readReply(answer: { status: number; body: string }): Reply {
  try {
    const parsed = JSON.parse(answer.body) as { outcome?: unknown };
    return { status: answer.status, outcome: typeof parsed.outcome === "string" ? parsed.outcome : undefined };
  } catch {
    return { status: answer.status, outcome: undefined };
  }
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([value, count]) => `${count} × ${value}`)
    .join(", ") || "none";

const describeReply = (reply: Reply) => `${reply.status} ${reply.outcome ?? "(no outcome)"}`;

/** Both answers must be 200 `{ received: true, outcome }`, the same JSON. */
function expectOutcome(answers: { app: Answer; baseline?: Answer }, outcome: string) {
  for (const [target, answer] of Object.entries(answers)) {
    const expected = { received: true, outcome };
    const body = answer.contentType?.startsWith("application/json") ? (JSON.parse(answer.body) as unknown) : undefined;
    if (answer.status !== 200 || !isDeepStrictEqual(body, expected))
      throw new Error(
        `${target} answered ${answer.status} ${answer.body.slice(0, 200)}, not 200 ${JSON.stringify(expected)}`,
      );
  }
}

/** Counts by value, e.g. "12 × 200 transitioned, 1 × 503 (no outcome)". */
function tally(values: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${count} × ${value}`).join(", ") || "none";
}

// --- webhook-con ---------------------------------------------------------------------------

export const webhookConScenario: Scenario = {
  name: "webhook-con",
  summary: "POST /api/pay/webhook: a signed CON delivery for a different PEN order each time (a real transition)",
  baseline: webhookBaseline,

  async prepare(run) {
    const since = await databaseNow(run.database);
    const orders = await createPendingOrders(run.database, run.tag, run.maxRequests);
    const requests = orders.map((order) => delivery(order, "CON", run.shop.webhookSecret));
    const orderOf = new Map(requests.map((request, index) => [request, orders[index]!]));
    const replies = new Map<string, Reply>();
    let sent = 0;
    return {
      capacity: requests.length,
      // The load generator stops at `capacity`; past it (never expected), the last delivery again, caught by verify.
      next: () => requests[Math.min(sent++, requests.length - 1)]!,
      answered(request, answer) {
        replies.set(orderOf.get(request)!.externalTransactionId, readReply(answer));
      },
      verify: () =>
        verifyTransitions(
          run,
          since,
          orders,
          Math.min(sent, orders.length),
          Math.max(0, sent - orders.length),
          replies,
        ),
    } satisfies PreparedRun;
  },

  checkAnswers: (answers) => expectOutcome(answers, "transitioned"),
};

/**
 * Every delivered order is CON exactly once, and nothing else changed:
 * - an order answered 200 "transitioned" is CON, finalized, with exactly one webhook event and
 *   its three jobs (`<type>:<externalTransactionId>`); anything less is a lost transition,
 *   anything more a doubled one;
 * - a delivery still unanswered when the load stopped was either applied whole (the server
 *   finished it) or not at all;
 * - orders prepared but never delivered are untouched; no delivery matched no order.
 */
async function verifyTransitions(
  run: RunSetup,
  since: DatabaseTime,
  orders: BenchOrder[],
  sentCount: number,
  overflow: number,
  replies: Map<string, Reply>,
): Promise<Verification> {
  const { database } = run;
  const jobsAtStop = run.target === "app" ? await jobStatusCounts(database, run.tag) : {};
  const events = await waitUntilSteady(() => countEvents(database, run.tag));
  const problems: string[] = [];
  if (!events.steady) problems.push("webhook events were still being recorded 15 s after the load stopped");
  if (overflow > 0) problems.push(`${overflow} requests past the ${orders.length} prepared deliveries`);

  // The app runs the jobs after its replies; wait for them so the next run does not compete with them.
  const jobsLines = run.target === "app" ? await waitForAppJobs(run) : [];

  const sentIds = new Set(orders.slice(0, sentCount).map((order) => order.externalTransactionId));
  const states = await orderStates(database, run.tag);
  let transitioned = 0;
  let appliedAfterStop = 0;
  let notAppliedAfterStop = 0;
  let lost = 0;
  let doubled = 0;
  let touched = 0;
  let eventCount = 0;
  let jobCount = 0;
  const jobStatuses: string[] = [];
  const wrongReplies: string[] = [];
  // A broken app can lose thousands: a few examples say enough.
  const examples: string[] = [];
  const example = (line: string) => void (examples.length < 5 && examples.push(line));
  let halfApplied = 0;
  for (const state of states) {
    const id = state.externalTransactionId;
    const reply = replies.get(id);
    const applied = state.status === "CON";
    const events = state.eventOutcomes.length;
    eventCount += events;
    jobCount += state.jobKeys.length;
    jobStatuses.push(...state.jobStatuses);
    const appliedOnce =
      applied &&
      state.finalizedAt !== null &&
      isDeepStrictEqual(state.eventOutcomes, ["transitioned"]) &&
      isDeepStrictEqual(state.jobKeys, conJobKeys(id));
    const untouched = state.status === "PEN" && events === 0 && state.jobKeys.length === 0;
    if (reply) {
      if (reply.status !== 200 || reply.outcome !== "transitioned") wrongReplies.push(describeReply(reply));
      if (appliedOnce) transitioned++;
      else if (applied && (events > 1 || state.jobKeys.length > CON_JOBS.length)) {
        doubled++;
        example(`${id}: ${events} events, jobs ${state.jobKeys.join(" ")}`);
      } else {
        lost++;
        example(`${id}: answered ${describeReply(reply)} but is ${state.status} with ${events} events`);
      }
    } else if (sentIds.has(id)) {
      if (appliedOnce) appliedAfterStop++;
      else if (untouched) notAppliedAfterStop++;
      else {
        halfApplied++;
        example(`${id}: unanswered, half-applied: ${state.status}, ${events} events`);
      }
    } else if (!untouched) {
      touched++;
      example(`${id}: never delivered but ${state.status} with ${events} events`);
    }
  }
  if (lost > 0) problems.push(`${lost} lost transitions`);
  if (doubled > 0) problems.push(`${doubled} doubled transitions`);
  if (halfApplied > 0) problems.push(`${halfApplied} unanswered deliveries half-applied`);
  if (touched > 0) problems.push(`${touched} orders changed without a delivery`);
  if (examples.length > 0) problems.push(`for example: ${examples.join("; ")}`);
  if (states.length !== orders.length) problems.push(`${orders.length} orders prepared, ${states.length} found`);
  if (wrongReplies.length > 0) problems.push(`answers other than 200 transitioned: ${tally(wrongReplies)}`);
  if (eventCount !== replies.size + appliedAfterStop)
    problems.push(`${eventCount} webhook events for ${replies.size + appliedAfterStop} requests processed`);
  const unmatched = await countUnmatchedEvents(database, since);
  if (unmatched > 0) problems.push(`${unmatched} deliveries matched no order`);
  if (run.target === "baseline") await setJobsAside(database, run.tag);

  const confirmed = transitioned + appliedAfterStop;
  const unanswered = sentCount - replies.size;
  return {
    summary: `${confirmed} CON of ${sentCount} sent, ${lost} lost, ${doubled} doubled`,
    lines: [
      `${sentCount} deliveries sent, ${replies.size} answered (${tally([...replies.values()].map(describeReply))}), ` +
        `${unanswered} unanswered when the load stopped (${appliedAfterStop} applied by the server afterwards, ${notAppliedAfterStop} not)`,
      `orders now CON: ${confirmed} = ${transitioned} "transitioned" answers + ${appliedAfterStop} applied after the stop; ` +
        `each finalized, with 1 webhook event and its ${CON_JOBS.length} jobs (${CON_JOBS.join(", ")})`,
      `webhook events: ${eventCount}, for ${replies.size + appliedAfterStop} requests processed (${replies.size} answered + ${appliedAfterStop} after the stop); ` +
        `jobs: ${jobCount} (${tally(jobStatuses)}); deliveries matching no order: ${unmatched}`,
      `lost transitions: ${lost}, doubled: ${doubled}; ${orders.length - sentCount} prepared orders never delivered, ` +
        `${touched} of them touched`,
      ...(run.target === "app"
        ? [`jobs of this run when the load stopped: ${describeCounts(jobsAtStop)}`, ...jobsLines]
        : ["the baseline runs no jobs: its queued ones are set aside (never due)"]),
    ],
    problems,
  };
}

/** Jobs a runner would claim now, and jobs running. */
async function jobQueue(database: pg.Pool): Promise<{ due: number; running: number }> {
  const { rows } = await database.query<{ due: number; running: number }>(
    `SELECT count(*) FILTER (WHERE status = 'QUEUED' AND run_at <= now())::int AS due,
            count(*) FILTER (WHERE status = 'RUNNING')::int AS running
     FROM jobs WHERE status IN ('QUEUED', 'RUNNING')`,
  );
  return rows[0] ?? { due: 0, running: 0 };
}

/**
 * Waits until the app has run every due job, so the next run does not compete with this one's.
 * The app runs them in `after()`; when it stops with jobs still due (nothing running for a
 * second), the rest are run through /api/cron/jobs, as a deployment's scheduler would, and
 * the lines say so.
 */
async function waitForAppJobs(run: RunSetup): Promise<string[]> {
  const { database } = run;
  const started = Date.now();
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  let idleSince: number | undefined;
  for (;;) {
    const { due, running } = await jobQueue(database);
    const elapsed = Date.now() - started;
    if (due + running === 0) return [`the app's after() ran the remaining jobs in ${seconds(elapsed)}`];
    idleSince = running === 0 ? (idleSince ?? Date.now()) : undefined;
    if ((idleSince !== undefined && Date.now() - idleSince > 1000) || elapsed > 120_000) {
      const cron = await runJobsThroughCron(run);
      return [
        `the app's after() stopped ${seconds(elapsed)} after the load with ${due} jobs due and ${running} running ` +
          "(nothing else was running them)",
        cron,
      ];
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function runJobsThroughCron(run: RunSetup): Promise<string> {
  const started = Date.now();
  let done = 0;
  for (let call = 1; call <= 50; call++) {
    const response = await fetch(`${run.shop.appUrl}/api/cron/jobs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${run.shop.cronSecret}` },
    });
    if (!response.ok) return `POST /api/cron/jobs answered ${response.status}: ${await response.text()}`;
    done += ((await response.json()) as { done?: number }).done ?? 0;
    const { due, running } = await jobQueue(run.database);
    if (due + running === 0)
      return `POST /api/cron/jobs ran the other ${done} in ${((Date.now() - started) / 1000).toFixed(1)} s (${call} calls)`;
  }
  return `jobs still due after 50 calls of POST /api/cron/jobs (${done} run)`;
}

// --- webhook-duplicate ------------------------------------------------------------------------

/** Orders the repeated deliveries go round; each is delivered again and again. */
const DUPLICATE_ORDERS = 1000;

export const webhookDuplicateScenario: Scenario = {
  name: "webhook-duplicate",
  summary: `POST /api/pay/webhook: the same signed CON delivery again, for ${DUPLICATE_ORDERS} orders already CON (idempotent)`,
  baseline: webhookBaseline,

  async prepare(run) {
    const since = await databaseNow(run.database);
    const { orders, confirmedAt } = await createConfirmedOrders(run.database, run.tag, DUPLICATE_ORDERS);
    // One signed delivery per order, sent again each time round.
    const requests = orders.map((order) => delivery(order, "CON", run.shop.webhookSecret));
    let sent = 0;
    const replies: Reply[] = [];
    return {
      next: () => requests[sent++ % requests.length]!,
      answered: (_request, answer) => void replies.push(readReply(answer)),
      verify: () => verifyDuplicates(run, since, orders.length, confirmedAt, sent, replies),
    } satisfies PreparedRun;
  },

  checkAnswers: (answers) => expectOutcome(answers, "already_final"),
};

/**
 * Repeated deliveries changed nothing: every answer 200 "already_final", every order still CON
 * since long ago (finalized_at and updated_at untouched), still its three jobs and no new one;
 * one webhook event per request the server processed.
 */
async function verifyDuplicates(
  run: RunSetup,
  since: DatabaseTime,
  orderCount: number,
  confirmedAt: string,
  sent: number,
  replies: Reply[],
): Promise<Verification> {
  const { database } = run;
  const events = await waitUntilSteady(() => countEvents(database, run.tag));
  const problems: string[] = [];
  if (!events.steady) problems.push("webhook events were still being recorded 15 s after the load stopped");
  const states = await orderStates(database, run.tag);
  let changed = 0;
  let newJobs = 0;
  const outcomes: string[] = [];
  for (const state of states) {
    outcomes.push(...state.eventOutcomes);
    const jobsAsBefore =
      isDeepStrictEqual(state.jobKeys, conJobKeys(state.externalTransactionId)) &&
      state.jobStatuses.every((status) => status === "DONE");
    if (!jobsAsBefore) newJobs++;
    if (state.status !== "CON" || state.finalizedAt !== confirmedAt || state.updatedAt !== confirmedAt) changed++;
  }
  if (states.length !== orderCount) problems.push(`${orderCount} orders prepared, ${states.length} found`);
  if (changed > 0) problems.push(`${changed} orders changed (status, finalized_at or updated_at)`);
  if (newJobs > 0) problems.push(`${newJobs} orders have jobs other than their 3 DONE ones`);
  const wrong = replies.filter((reply) => reply.status !== 200 || reply.outcome !== "already_final");
  if (wrong.length > 0) problems.push(`answers other than 200 already_final: ${tally(wrong.map(describeReply))}`);
  const unanswered = sent - replies.length;
  const processedAfterStop = events.value - replies.length;
  if (processedAfterStop < 0 || processedAfterStop > unanswered)
    problems.push(`${events.value} webhook events for ${replies.length} answers and ${unanswered} unanswered requests`);
  if (outcomes.some((outcome) => outcome !== "already_final"))
    problems.push(`event outcomes: ${tally(outcomes)}, all should be already_final`);
  const unmatched = await countUnmatchedEvents(database, since);
  if (unmatched > 0) problems.push(`${unmatched} deliveries matched no order`);

  return {
    summary: `${changed} of ${orderCount} orders changed, ${newJobs} with new jobs`,
    lines: [
      `${sent} deliveries sent to ${orderCount} CON orders, ${replies.length} answered (${tally(replies.map(describeReply))}), ` +
        `${unanswered} unanswered when the load stopped`,
      `webhook events: ${events.value} (${tally(outcomes)}) = ${replies.length} answered + ${processedAfterStop} processed after the stop`,
      `orders changed: ${changed} (status, finalized_at, updated_at as before); orders with new or changed jobs: ${newJobs}`,
    ],
    problems,
  };
}
