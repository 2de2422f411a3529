import "server-only";
import { catalogChanged } from "../catalog/cached-pages";
import { db, dbPool } from "../db/client";
import { pgRunner, type SqlRunner } from "../db/sql-runner";
import { getEnv } from "../env";
import { consoleLogger, errorKind, type Logger } from "../log";
import { createMailer, mailer as sharedMailer, type Mailer } from "../mail";
import { TimeoutError, withTimeout } from "../timeout";
import { jobHandlers, type Database, type JobContext, type JobHandler, type JobResult } from "./handlers";
import { CATALOGUE_JOB_TYPES } from "./job-types";
import {
  completeAndClaim,
  DEFAULT_JOB_TIMEOUT_MS,
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
  /** A job of CATALOGUE_JOB_TYPES did its work: the cached catalogue pages are stale. */
  movedStock?: true;
}

export interface RunOptions {
  /** Run at most this many jobs; default 100. */
  limit?: number;
  /** Claim no job after this instant (ms since the epoch); a job already running still finishes or times out. */
  deadline?: number;
  /** Only these jobs, e.g. the ones an order's transition just enqueued. */
  ids?: readonly string[];
  /** Jobs run at the same time; default 4. A function is asked again before every claim. */
  concurrency?: number | (() => number);
  /** Per job; a handler still running after this fails with "timed out" and is retried later. Default 30 s. */
  timeoutMs?: number;
  /** How long a RUNNING job may go unfinished before it is presumed abandoned and taken over. Default 2 min. */
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

/** Jobs run at the same time, unless told otherwise. */
const DEFAULT_CONCURRENCY = 4;

/** Jobs one run claims at most, unless told otherwise. */
const DEFAULT_RUN_LIMIT = 100;

type Outcome = "done" | "retried" | "parked" | "lease_lost";

/** Runs due jobs (or the given ones) until none is left, `limit` is reached or the deadline passes. */
export async function runDueJobs(options: RunOptions = {}): Promise<RunSummary> {
  const client = options.db ?? db();
  // The queue's own statements (claim, finish, park), and the handlers' own SQL, go through pg
  // itself on the app's pool, where Prisma's path costs more than they do. A database given by
  // the caller (a test's) runs them through its client.
  const queue: SqlRunner = options.db ?? pgRunner(dbPool());
  const log = options.log ?? consoleLogger;
  const limit = options.limit ?? DEFAULT_RUN_LIMIT;
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

  const { concurrency: setting = DEFAULT_CONCURRENCY } = options;
  const concurrency = () => Math.max(1, typeof setting === "function" ? setting() : setting);
  const deps: RunOneDeps = {
    queue,
    handlers,
    context: { db: client, sql: queue, mail: resolveMail, log },
    timeoutMs,
    log,
    fail: { policy: options.retryPolicy, random: options.random },
  };
  // Each job runs in a slot of its own, so a slow or hanging job holds up one slot, not the others.
  const running = new Set<Promise<void>>();
  // Jobs whose handler succeeded, to be marked DONE by the next statement, with the next claim.
  let succeeded: Succeeded[] = [];
  let claimed = 0;
  // Once a claim finds fewer due jobs than it asked for, there are none left for now.
  let exhausted = false;
  // A statement of the queue's failed (the database is unreachable): claim no more, then throw it.
  let failure: { error: unknown } | undefined;
  const mayClaim = () =>
    !exhausted &&
    !failure &&
    claimed < limit &&
    !options.signal?.aborted &&
    (options.deadline === undefined || Date.now() < options.deadline);

  const start = (job: ClaimedJob) => {
    const task: Promise<void> = runOne(job, deps)
      .then(
        (ran) => {
          if (ran.outcome === "succeeded") {
            succeeded.push({ job, started: ran.started, skipped: ran.skipped });
            // Its work is committed, whether or not this runner still holds the job.
            if (!ran.skipped && CATALOGUE_JOB_TYPES.has(job.type)) summary.movedStock = true;
          } else if (ran.outcome !== "lease_lost") summary[ran.outcome]++;
        },
        (error: unknown) => void (failure ??= { error }),
      )
      .finally(() => running.delete(task));
    running.add(task);
  };

  for (;;) {
    const wanted = mayClaim() ? Math.max(0, Math.min(concurrency() - running.size, limit - claimed)) : 0;
    if (wanted > 0 || (succeeded.length > 0 && !failure)) {
      const finishing = succeeded;
      succeeded = [];
      let answer: Awaited<ReturnType<typeof completeAndClaim>>;
      try {
        answer = await completeAndClaim(
          queue,
          finishing.map(({ job }) => job),
          { limit: wanted, leaseMs, ids: options.ids },
        );
      } catch (error) {
        failure ??= { error };
        continue;
      }
      for (const { job, started, skipped } of finishing) {
        const completed = answer.completed.has(job.id);
        if (completed) summary.done++;
        log(completed ? "info" : "warn", "job.finished", {
          ...jobFields(job),
          outcome: completed ? "done" : "lease_lost",
          ms: Math.round(performance.now() - started),
          skipped,
        });
      }
      claimed += answer.claimed.length;
      if (answer.claimed.length < wanted) exhausted = true;
      for (const job of answer.claimed) start(job);
      continue;
    }
    if (running.size === 0) break;
    await Promise.race(running);
  }
  if (failure) throw failure.error;
  return summary;
}

/** A job whose handler succeeded, waiting to be marked DONE. */
interface Succeeded {
  job: ClaimedJob;
  /** performance.now() when its handler started. */
  started: number;
  /** Why the handler had nothing to do, if so. */
  skipped?: string;
}

interface RunOneDeps {
  queue: SqlRunner;
  handlers: Readonly<Record<string, JobHandler | undefined>>;
  context: Omit<JobContext, "signal">;
  timeoutMs: number;
  log: Logger;
  fail: Parameters<typeof failJob>[3];
}

const jobFields = (job: ClaimedJob) => ({
  id: job.id,
  type: job.type,
  attempts: job.attempt,
  maxAttempts: job.maxAttempts,
});

/**
 * Runs the job's handler within its timeout. A failure is recorded at once (retried later or
 * parked) and logged; a success is only reported, for the runner to mark DONE with its next claim.
 */
async function runOne(
  job: ClaimedJob,
  deps: RunOneDeps,
): Promise<{ outcome: "succeeded"; started: number; skipped?: string } | { outcome: Exclude<Outcome, "done"> }> {
  const started = performance.now();
  let result: JobResult;
  try {
    const handler = deps.handlers[job.type];
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
      ...jobFields(job),
      outcome,
      ms: Math.round(performance.now() - started),
      error: describeJobError(error),
      retryAt: failed?.status === "QUEUED" ? failed.runAt.toISOString() : undefined,
    });
    return { outcome };
  }
  return { outcome: "succeeded", started, skipped: result?.skipped };
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
 * Requests keep asking for drains (a burst of payments): until then, the drain runs one job at a
 * time, so the answers those requests wait for come first and the jobs, which no one waits for,
 * take what CPU is left; with four, on a small server, they took enough to slow every answer
 * (bench/README.md). Once the requests stop, it runs four at a time again.
 */
let busyUntil = 0;
const BUSY_WINDOW_MS = 250;

/**
 * Runs due jobs without the caller waiting for or handling the result, e.g. `after(() =>
 * drainJobsInBackground())` once a webhook has been answered. Single-flight per process: a call
 * while a drain is running does not start a second one, it asks the running one to go round
 * once more (so jobs enqueued meanwhile are not missed) and resolves at once. Only the call that
 * started the drain waits for it (its after() keeps a serverless function alive until the drain
 * ends): in a burst of payments, thousands of requests waiting for one drain kept their `after()`
 * tasks open until it ended, at a cost in the server's CPU (bench/README.md). It also goes round
 * while a round ran as many jobs as its limit, until none is due or its time is up. When a job of
 * the drain moved stock, the drain marks the cached catalogue pages stale once, at its end. Never
 * rejects; failures are logged, and whatever is left is picked up by the worker or the cron route.
 */
export function drainJobsInBackground(
  options: Omit<RunOptions, "deadline" | "ids" | "concurrency"> & {
    /** Jobs at the same time while no other request asks for a drain; default 4. */
    concurrency?: number;
    /**
     * The drain has ended by then: it claims no job later than one job's timeout before it, and
     * whatever is left waits for the worker or the cron route. Routes pass endOfInvocation().
     */
    finishBy?: number;
  } = {},
): Promise<void> {
  if (draining) {
    drainAgain = true;
    busyUntil = Date.now() + BUSY_WINDOW_MS;
    return Promise.resolve();
  }
  const log = options.log ?? consoleLogger;
  let movedStock = false;
  draining = (async () => {
    try {
      const finishBy = options.finishBy ?? Date.now() + DEFAULT_DRAIN_MS;
      const deadline = finishBy - (options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
      const limit = options.limit ?? DEFAULT_RUN_LIMIT;
      const full = options.concurrency ?? DEFAULT_CONCURRENCY;
      let firstRound = true;
      let more: boolean;
      do {
        drainAgain = false;
        const summary = await runDueJobs({
          ...options,
          concurrency: () => (Date.now() < busyUntil ? 1 : full),
          limit,
          deadline,
          parkAbandoned: firstRound,
        });
        firstRound = false;
        if (summary.movedStock) movedStock = true;
        // A round that ran its whole limit left work behind (a burst of payments): go on, rather
        // than leave it to the worker or the cron route once the requests stop coming.
        more = summary.done + summary.retried + summary.parked >= limit;
      } while ((drainAgain || more) && Date.now() < deadline);
    } catch (error) {
      log("error", "jobs.drain_failed", { error: describeJobError(error) });
    } finally {
      draining = undefined;
      drainAgain = false;
      if (movedStock) {
        try {
          catalogChanged();
        } catch (error) {
          log("error", "jobs.catalog_not_refreshed", { error: errorKind(error) });
        }
      }
    }
  })();
  return draining;
}
