import "server-only";
import { catalogChanged } from "../catalog/cached-pages";
import { db, dbPool } from "../db/client";
import { pgRunner, type SqlRunner } from "../db/sql-runner";
import { getEnv } from "../env";
import { consoleLogger, type Logger } from "../log";
import { createMailer, mailer as sharedMailer, type Mailer } from "../mail";
import { TimeoutError, withTimeout } from "../timeout";
import { jobHandlers, type Database, type JobContext, type JobHandler, type JobResult } from "./handlers";
import {
  claimJobs,
  completeJob,
  DEFAULT_LEASE_MS,
  describeJobError,
  failJob,
  parkAbandonedJobs,
  type ClaimedJob,
  type RetryPolicy,
} from "./queue";

/**
 * Runs jobs from the queue (lib/jobs/queue.ts) with their handlers (lib/jobs/handlers.ts). Three
 * callers, one function (docs/jobs.md): `after()` in the routes that change orders (through
 * {@link drainJobsInBackground}), `npm run worker`, and the cron route.
 */

export interface RunSummary {
  done: number;
  /** Failed and queued again with a backoff. */
  retried: number;
  /** Failed for the last time (or permanently), or found abandoned on its last attempt. */
  parked: number;
}

export interface RunOptions {
  /** Run at most this many jobs; default 100. */
  limit?: number;
  /** Claim no job after this instant (ms since the epoch); a job already running still finishes or times out. */
  deadline?: number;
  /** Only these jobs, e.g. the ones an order's transition just enqueued. */
  ids?: readonly string[];
  /** Jobs run at the same time; default 4. */
  concurrency?: number;
  /** Per job; a handler still running after this fails with "timed out" and is retried later. Default 30 s. */
  timeoutMs?: number;
  /** How long a RUNNING job may go unfinished before it is presumed abandoned and taken over. Default 5 min. */
  leaseMs?: number;
  /** Stop claiming when aborted (the worker's shutdown); jobs already running finish. */
  signal?: AbortSignal;
  /** Park abandoned jobs before claiming; default true (a drain that goes round again parks once). */
  parkAbandoned?: boolean;
  // Dependencies, defaulting to the app's own.
  db?: Database;
  handlers?: Readonly<Record<string, JobHandler>>;
  mailer?: Mailer;
  /** The shop's orders mailbox; default MAIL_TO. */
  mailTo?: string;
  log?: Logger;
  retryPolicy?: RetryPolicy;
  random?: () => number;
}

export const DEFAULT_JOB_TIMEOUT_MS = 30_000;

type Outcome = "done" | "retried" | "parked" | "lease_lost";

/** Runs due jobs (or the given ones) until none is left, `limit` is reached or the deadline passes. */
export async function runDueJobs(options: RunOptions = {}): Promise<RunSummary> {
  const client = options.db ?? db();
  // The queue's own statements (claim, finish, park) go through pg itself on the app's pool: a
  // payment's jobs are a dozen of them, where Prisma's path costs more than they do. A database
  // given by the caller (a test's) runs them through its client.
  const queue: SqlRunner = options.db ?? pgRunner(dbPool());
  const log = options.log ?? consoleLogger;
  const limit = options.limit ?? 100;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const handlers: Readonly<Record<string, JobHandler | undefined>> = options.handlers ?? jobHandlers;
  const summary: RunSummary = { done: 0, retried: 0, parked: 0 };

  let mail: { mailer: Mailer; to: string } | undefined;
  const resolveMail = () =>
    (mail ??= {
      mailer:
        options.mailer ?? (options.db ? createMailer({ db: client, settings: getEnv().mail, log }) : sharedMailer()),
      to: options.mailTo ?? getEnv().mail.to,
    });

  for (const job of options.parkAbandoned === false ? [] : await parkAbandonedJobs(queue, leaseMs)) {
    summary.parked++;
    log("error", "job.finished", { id: job.id, type: job.type, outcome: "parked", attempts: job.attempts });
  }

  let claimed = 0;
  // Once one lane finds nothing due, the others stop too instead of each asking again.
  let exhausted = false;
  const mayClaim = () =>
    !exhausted &&
    claimed < limit &&
    !options.signal?.aborted &&
    (options.deadline === undefined || Date.now() < options.deadline);

  // Each lane claims one job at a time, so a slow or hanging job holds up one lane, not a batch.
  const lane = async () => {
    while (mayClaim()) {
      claimed++;
      const [job] = await claimJobs(queue, { limit: 1, leaseMs, ids: options.ids });
      if (!job) {
        claimed--;
        exhausted = true;
        return;
      }
      const outcome = await runOne(job, {
        queue,
        handler: handlers[job.type],
        context: { db: client, mail: resolveMail },
        timeoutMs,
        log,
        fail: { policy: options.retryPolicy, random: options.random },
      });
      if (outcome !== "lease_lost") summary[outcome]++;
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 4, limit));
  const results = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return summary;
}

interface RunOneDeps {
  queue: SqlRunner;
  handler: JobHandler | undefined;
  context: Omit<JobContext, "signal">;
  timeoutMs: number;
  log: Logger;
  fail: Parameters<typeof failJob>[3];
}

async function runOne(job: ClaimedJob, deps: RunOneDeps): Promise<Outcome> {
  const started = performance.now();
  const fields = { id: job.id, type: job.type, attempts: job.attempt, maxAttempts: job.maxAttempts };
  const ms = () => Math.round(performance.now() - started);
  let result: JobResult;
  try {
    const { handler } = deps;
    if (!handler) throw new Error(`no handler for job type "${job.type}"`);
    result = await withTimeout(
      deps.timeoutMs,
      (signal) => handler(job, { ...deps.context, signal }),
      () => new JobTimeoutError(`timed out after ${deps.timeoutMs} ms`),
    );
  } catch (error) {
    const failed = await failJob(deps.queue, job, error, deps.fail);
    const outcome = failed ? (failed.status === "PARKED" ? "parked" : "retried") : "lease_lost";
    deps.log(outcome === "retried" ? "warn" : "error", "job.finished", {
      ...fields,
      outcome,
      ms: ms(),
      error: describeJobError(error),
      retryAt: failed?.status === "QUEUED" ? failed.runAt.toISOString() : undefined,
    });
    return outcome;
  }
  const completed = await completeJob(deps.queue, job);
  deps.log(completed ? "info" : "warn", "job.finished", {
    ...fields,
    outcome: completed ? "done" : "lease_lost",
    ms: ms(),
    skipped: result?.skipped,
  });
  return completed ? "done" : "lease_lost";
}

/** A job that did not finish within its timeout (the runner's withTimeout, lib/timeout.ts). */
export class JobTimeoutError extends TimeoutError {
  override name = "JobTimeoutError";
}

/** When a drain without `finishBy` must have finished: 50 s, so it claims jobs for 20 s. */
const DEFAULT_DRAIN_MS = 50_000;

/**
 * The instant work started by a route must have finished: its function's end (`maxDuration`,
 * counted from the request's start, covers `after()` work on a serverless host) less a margin.
 */
export function endOfInvocation(startedAt: number, maxDurationSeconds: number): number {
  return startedAt + maxDurationSeconds * 1000 - 5_000;
}

let draining: Promise<void> | undefined;
let drainAgain = false;

/**
 * Runs due jobs without the caller waiting for or handling the result, e.g. `after(() =>
 * drainJobsInBackground())` once a webhook has been answered. Single-flight per process: a call
 * while a drain is running does not start a second one, it asks the running one to go round
 * once more (so jobs enqueued meanwhile are not missed). Never rejects; failures are logged, and
 * whatever is left is picked up by the worker or the cron route.
 */
export function drainJobsInBackground(
  options: Omit<RunOptions, "deadline" | "ids"> & {
    /**
     * The drain has ended by then: it claims no job later than one job's timeout before it, and
     * whatever is left waits for the worker or the cron route. Routes pass endOfInvocation().
     */
    finishBy?: number;
  } = {},
): Promise<void> {
  if (draining) {
    drainAgain = true;
    return draining;
  }
  const log = options.log ?? consoleLogger;
  draining = (async () => {
    try {
      const finishBy = options.finishBy ?? Date.now() + DEFAULT_DRAIN_MS;
      const deadline = finishBy - (options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
      let firstRound = true;
      do {
        drainAgain = false;
        await runDueJobs({ ...options, deadline, parkAbandoned: firstRound });
        firstRound = false;
      } while (drainAgain && Date.now() < deadline);
    } catch (error) {
      log("error", "jobs.drain_failed", { error: describeJobError(error) });
    } finally {
      draining = undefined;
      drainAgain = false;
    }
  })();
  return draining;
}

/**
 * For `after()` in the routes that change orders: runs the jobs the change enqueued
 * (drainJobsInBackground), then marks the catalogue pages stale, since a cancelled order's job puts
 * its units back on the shelf.
 */
export async function drainJobsThenRefreshCatalog(options: Parameters<typeof drainJobsInBackground>[0]): Promise<void> {
  await drainJobsInBackground(options);
  catalogChanged();
}
