import "server-only";
import { Prisma } from "../generated/prisma/client";
import { isUuid } from "../uuid";
import type { JobType } from "./job-types";
import type { SqlRunner } from "../db/sql-runner";

/**
 * The jobs table as a queue (docs/jobs.md). Jobs are inserted by the statement that changes an
 * order (lib/orders/state-machine.ts); this module only moves them along:
 *
 *   QUEUED ──claim──▶ RUNNING ──success──▶ DONE
 *     ▲                  │
 *     └──failure, backoff┤
 *                        └──failure after max_attempts──▶ PARKED (kept, never deleted)
 */

export interface ClaimedJob {
  id: string;
  type: string;
  dedupeKey: string;
  payload: unknown;
  /** This attempt's number, 1 for the first run; also the claim's token. */
  attempt: number;
  maxAttempts: number;
  /** The previous runner's lease expired (it crashed or hung), so this run took the job over. */
  reclaimed: boolean;
}

/** How long one run of a handler may take before its runner gives up on it and retries it later. */
export const DEFAULT_JOB_TIMEOUT_MS = 30_000;

/**
 * A RUNNING job whose runner has not finished it after this long is presumed lost. A live runner
 * ends every run within DEFAULT_JOB_TIMEOUT_MS, so four times that is lost only by a runner that
 * was killed or frozen, and such a runner's jobs (a paid order's mails, its cart) run again two
 * minutes on, not five. A runner that outlives its lease anyway records nothing (the attempt
 * number is checked), and handlers are idempotent, as a timed-out run's retry already needs.
 */
export const DEFAULT_LEASE_MS = 4 * DEFAULT_JOB_TIMEOUT_MS;

const LEASE_LOST_MESSAGE = "the runner of the previous attempt stopped before finishing it (lease expired)";

export interface ClaimOptions {
  /** At most this many jobs. */
  limit: number;
  leaseMs?: number;
  /** Only these jobs (still only if QUEUED and due, or RUNNING with an expired lease). */
  ids?: readonly string[];
}

/**
 * Claims up to `limit` due jobs, oldest `run_at` first: QUEUED jobs whose `run_at` has come, and
 * RUNNING jobs whose lease expired and that have attempts left. They become RUNNING, locked
 * now, with `attempts + 1`. Rows another runner is claiming at this moment are skipped, not
 * waited for. Each kind is read in `(status, run_at)` index order with its own LIMIT: a single
 * `… OR …` condition made PostgreSQL fetch and sort every due job on every claim, so under load
 * the growing backlog made each claim slower (bench/README.md).
 *
 * Claiming is one statement (`FOR UPDATE SKIP LOCKED`), so any number of runners — the webhook's
 * `after()`, `npm run worker`, the cron route, in any number of processes — never run the same
 * job at once. A runner that dies leaves its job RUNNING; once the lease has expired the job is
 * claimed again (or parked, if that was its last attempt). Every claim increments `attempts`,
 * and that number is the claim's token: finishing a job only counts while the job is still
 * RUNNING with the same attempt, so a runner that outlived its lease cannot overwrite the
 * outcome of the runner that took the job over.
 */
export async function claimJobs(client: SqlRunner, options: ClaimOptions): Promise<ClaimedJob[]> {
  return (await completeAndClaim(client, [], options)).claimed;
}

/** Marks the job DONE; false when this runner no longer holds it (its lease expired and another took over). */
export async function completeJob(client: SqlRunner, job: Pick<ClaimedJob, "id" | "attempt">): Promise<boolean> {
  return (await completeAndClaim(client, [job], { limit: 0 })).completed.has(job.id);
}

/**
 * Marks the `done` jobs DONE, each only while this runner still holds it (as {@link completeJob}),
 * and claims up to `claim.limit` due jobs (as {@link claimJobs}), in one statement: a runner that
 * finished a job and takes the next sends one round trip, not two, and jobs that finished
 * together are marked together. `completed` holds the ids that were still this runner's.
 */
export async function completeAndClaim(
  client: SqlRunner,
  done: readonly Pick<ClaimedJob, "id" | "attempt">[],
  claim: ClaimOptions,
): Promise<{ completed: Set<string>; claimed: ClaimedJob[] }> {
  const ids = claim.ids ? claim.ids.filter((id) => isUuid(id)) : null;
  const limit = ids?.length === 0 ? 0 : Math.max(0, claim.limit);
  if (limit === 0 && done.length === 0) return { completed: new Set(), claimed: [] };
  const leaseMs = Math.round(claim.leaseMs ?? DEFAULT_LEASE_MS);
  const doneIds = done.map((job) => job.id);
  // A completed job's row has only its id; the claimed ones come oldest first.
  const rows = await client.$queryRaw<(ClaimedJob & { kind: "claimed" | "completed"; runAt: Date | null })[]>(
    Prisma.sql`
WITH finished AS (
  UPDATE jobs SET status = 'DONE', locked_at = NULL, updated_at = now()
  FROM unnest(${doneIds}::uuid[], ${done.map((job) => job.attempt)}::int[]) AS d(id, attempt)
  WHERE jobs.id = d.id AND jobs.status = 'RUNNING' AND jobs.attempts = d.attempt
  RETURNING jobs.id
), queued AS MATERIALIZED (
  SELECT id, run_at, false AS reclaimed FROM jobs
  WHERE status = 'QUEUED' AND run_at <= now() AND (${ids}::uuid[] IS NULL OR id = ANY(${ids}::uuid[]))
  ORDER BY run_at, id
  LIMIT ${limit}::int
  FOR UPDATE SKIP LOCKED
), expired AS MATERIALIZED (
  -- Not one being marked DONE here: a row changes once per statement.
  SELECT id, run_at, true AS reclaimed FROM jobs
  WHERE status = 'RUNNING' AND locked_at < now() - ${leaseMs}::int * interval '1 millisecond'
    AND attempts < max_attempts AND (${ids}::uuid[] IS NULL OR id = ANY(${ids}::uuid[]))
    AND id <> ALL(${doneIds}::uuid[])
  ORDER BY run_at, id
  LIMIT ${limit}::int
  FOR UPDATE SKIP LOCKED
), due AS (
  SELECT id, reclaimed FROM (SELECT * FROM queued UNION ALL SELECT * FROM expired) candidates
  ORDER BY run_at, id
  LIMIT ${limit}::int
), claimed AS (
  UPDATE jobs j SET
    status = 'RUNNING',
    locked_at = now(),
    attempts = j.attempts + 1,
    last_error = CASE WHEN due.reclaimed THEN ${LEASE_LOST_MESSAGE} ELSE j.last_error END,
    updated_at = now()
  FROM due
  WHERE j.id = due.id
  RETURNING j.id, j.type, j.dedupe_key, j.payload, j.attempts, j.max_attempts, j.run_at, due.reclaimed
)
SELECT * FROM (
  SELECT 'claimed' AS kind, id, type, dedupe_key AS "dedupeKey", payload, attempts AS attempt,
         max_attempts AS "maxAttempts", reclaimed, run_at AS "runAt" FROM claimed
  UNION ALL
  SELECT 'completed', id, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM finished
) answer
ORDER BY kind, "runAt", id`,
  );
  const completed = new Set<string>();
  const claimed: ClaimedJob[] = [];
  for (const { kind, runAt: _runAt, ...job } of rows) {
    if (kind === "completed") completed.add(job.id);
    else claimed.push(job);
  }
  return { completed, claimed };
}

/**
 * The jobs of `types` that these orders' transitions enqueued (found by `jobs.order_id`), e.g. a
 * cancellation's stock release and cart reopening, to run them at once while a shopper waits.
 */
export async function jobsOfOrders(
  client: SqlRunner,
  types: readonly JobType[],
  externalTransactionIds: readonly string[],
): Promise<{ id: string; externalTransactionId: string }[]> {
  if (types.length === 0 || externalTransactionIds.length === 0) return [];
  return client.$queryRaw(Prisma.sql`
SELECT j.id, o.external_transaction_id AS "externalTransactionId"
FROM orders o JOIN jobs j ON j.order_id = o.id
WHERE o.external_transaction_id = ANY(${externalTransactionIds}::text[]) AND j.type = ANY(${types}::text[])`);
}

export interface ParkedJob {
  id: string;
  type: string;
  attempts: number;
}

/**
 * Parks RUNNING jobs whose lease expired on their last attempt: their runner died (or hung)
 * every time, and claiming them again would exceed max_attempts.
 */
export async function parkAbandonedJobs(client: SqlRunner, leaseMs = DEFAULT_LEASE_MS): Promise<ParkedJob[]> {
  return client.$queryRaw<ParkedJob[]>(Prisma.sql`
UPDATE jobs SET status = 'PARKED', locked_at = NULL, last_error = ${LEASE_LOST_MESSAGE}, updated_at = now()
WHERE status = 'RUNNING' AND locked_at < now() - ${Math.round(leaseMs)}::int * interval '1 millisecond'
  AND attempts >= max_attempts
RETURNING id, type, attempts`);
}

export interface RetryPolicy {
  /** Delay after the first failed attempt; doubles with each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { baseDelayMs: 10_000, maxDelayMs: 60 * 60_000 };

/**
 * The wait before attempt `attempt + 1`: base · 2^(attempt−1), capped, then jittered into
 * [half, all] of that ("equal jitter"), so jobs that failed together (the mail server was down)
 * do not all come back in the same second, yet none comes back immediately.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random, policy = defaultRetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A failure that retrying cannot fix (e.g. a malformed payload): the job is parked at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

export interface FailOptions {
  random?: () => number;
  policy?: RetryPolicy;
}

/**
 * Records a failed attempt: back to QUEUED with `run_at` pushed out by {@link retryDelayMs}, or
 * PARKED when that was the last attempt (or the error is permanent). `last_error` keeps the
 * error's message only ({@link describeJobError}). Undefined when this runner no longer holds the job.
 */
export async function failJob(
  client: SqlRunner,
  job: Pick<ClaimedJob, "id" | "attempt" | "maxAttempts">,
  error: unknown,
  options: FailOptions = {},
): Promise<{ status: "QUEUED" | "PARKED"; runAt: Date } | undefined> {
  const park = error instanceof PermanentJobError || job.attempt >= job.maxAttempts;
  const delayMs = park ? 0 : retryDelayMs(job.attempt, options.random, options.policy);
  const rows = await client.$queryRaw<{ status: "QUEUED" | "PARKED"; runAt: Date }[]>(Prisma.sql`
UPDATE jobs SET
  status = CASE WHEN ${park} OR attempts >= max_attempts THEN 'PARKED' ELSE 'QUEUED' END::"JobStatus",
  run_at = CASE WHEN ${park} OR attempts >= max_attempts THEN run_at
                ELSE now() + ${delayMs}::int * interval '1 millisecond' END,
  locked_at = NULL,
  last_error = ${describeJobError(error)},
  updated_at = now()
WHERE id = ${job.id}::uuid AND status = 'RUNNING' AND attempts = ${job.attempt}::int
RETURNING status::text AS status, run_at AS "runAt"`);
  return rows[0];
}

const MAX_ERROR_LENGTH = 500;

/**
 * What a job's `last_error` and log lines may say about a failure: the message only (no stack,
 * no cause, no request), on one line, with credentials in URLs and Authorization values masked,
 * and truncated.
 */
export function describeJobError(error: unknown): string {
  const message =
    error instanceof Error ? error.message || error.name : typeof error === "string" ? error : "a non-Error was thrown";
  const cleaned = message
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, "$1***@")
    .replace(/\b(bearer|basic)\s+[\w.~+/=-]+/gi, "$1 ***")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned.length > MAX_ERROR_LENGTH ? `${cleaned.slice(0, MAX_ERROR_LENGTH - 1)}…` : cleaned || "unknown error";
}

/**
 * A person's "retry" of a PARKED job (the back office's order page): back to QUEUED, due now,
 * with `attempts` reset to 0 so the job gets its whole retry schedule again, as if new; the old
 * `last_error` stays until the next attempt's outcome, and a resolution a person wrote for it
 * (lib/orders/attention-admin.ts) is cleared: should it park again, it needs a person again. Only a job that is PARKED and whose
 * order (`jobs.order_id`) is `externalTransactionId`. "not_found" when there is no such job of
 * this order, "not_parked" when it is in another state.
 */
export async function requeueParkedJob(
  client: SqlRunner,
  job: { id: string; externalTransactionId: string },
): Promise<"requeued" | "not_found" | "not_parked"> {
  if (!isUuid(job.id)) return "not_found";
  const [row] = await client.$queryRaw<{ requeued: boolean }[]>(Prisma.sql`
WITH target AS (
  SELECT j.id, j.status FROM jobs j JOIN orders o ON o.id = j.order_id
  WHERE j.id = ${job.id}::uuid AND o.external_transaction_id = ${job.externalTransactionId}
  FOR UPDATE OF j
), requeued AS (
  UPDATE jobs SET status = 'QUEUED', run_at = now(), attempts = 0, locked_at = NULL, updated_at = now(),
    resolved_at = NULL, resolution_note = NULL
  FROM target WHERE jobs.id = target.id AND target.status = 'PARKED'
  RETURNING jobs.id
)
SELECT EXISTS (SELECT 1 FROM requeued) AS requeued FROM target`);
  if (!row) return "not_found";
  return row.requeued ? "requeued" : "not_parked";
}
