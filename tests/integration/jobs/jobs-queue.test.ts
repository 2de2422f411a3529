import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import {
  claimJobs,
  completeAndClaim,
  completeJob,
  DEFAULT_JOB_TIMEOUT_MS,
  DEFAULT_LEASE_MS,
  describeJobError,
  failJob,
  parkAbandonedJobs,
  PermanentJobError,
  retryDelayMs,
  type ClaimedJob,
} from "@/lib/jobs/queue";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The queue's SQL on a database of its own: no other test file's runner can claim these jobs.

let database: TestDatabase;
let client: PrismaClient;
let other: PrismaClient;

// Embedded PGlite (no DATABASE_URL) multiplexes every connection onto one session message by
// message, so concurrent statements from several connections can interleave; there, each
// client gets one connection and "the other runner" shares it. On a real server the two
// clients are separate pools and the concurrency below is real.
const embedded = !process.env.TEST_SERVER_DATABASE_URL;
const connect = (url: string) =>
  new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: embedded ? 1 : 4 }) });

beforeAll(async () => {
  database = await createTestDatabase("jobs_queue");
  await applyMigrations({ connectionString: database.url });
  client = connect(database.url);
  other = embedded ? client : connect(database.url);
});
afterAll(async () => {
  await client?.$disconnect();
  if (other !== client) await other?.$disconnect();
  await database?.drop();
});
beforeEach(async () => {
  await client.job.deleteMany();
});

/** A job row; `runIn`/`lockedAgo` in seconds relative to the database's clock. */
async function insertJob(
  options: {
    status?: "QUEUED" | "RUNNING" | "DONE" | "PARKED";
    runIn?: number;
    lockedAgo?: number;
    attempts?: number;
    maxAttempts?: number;
  } = {},
): Promise<string> {
  const id = randomUUID();
  await client.$executeRaw`
    INSERT INTO jobs (id, type, dedupe_key, payload, status, attempts, max_attempts, run_at, locked_at)
    VALUES (${id}::uuid, 'test', ${`test:${id}`}, '{}'::jsonb, ${options.status ?? "QUEUED"}::"JobStatus",
            ${options.attempts ?? 0}, ${options.maxAttempts ?? 8},
            now() + ${options.runIn ?? -1}::int * interval '1 second',
            CASE WHEN ${options.lockedAgo ?? null}::int IS NULL THEN NULL
                 ELSE now() - ${options.lockedAgo ?? 0}::int * interval '1 second' END)`;
  return id;
}

const row = (id: string) => client.job.findUniqueOrThrow({ where: { id } });

/** Seconds from the database's now() to the job's run_at. */
async function runsInSeconds(id: string): Promise<number> {
  const [result] = await client.$queryRaw<{ seconds: number }[]>`
    SELECT EXTRACT(EPOCH FROM run_at - now())::float8 AS seconds FROM jobs WHERE id = ${id}::uuid`;
  return result!.seconds;
}

describe("claimJobs", () => {
  it("claims due QUEUED jobs: RUNNING, locked now, attempts + 1", async () => {
    const id = await insertJob({ attempts: 2 });
    const [job, ...rest] = await claimJobs(client, { limit: 10 });
    expect(rest).toEqual([]);
    expect(job).toEqual({
      id,
      type: "test",
      dedupeKey: `test:${id}`,
      payload: {},
      attempt: 3,
      maxAttempts: 8,
      reclaimed: false,
    });
    const claimed = await row(id);
    expect(claimed).toMatchObject({ status: "RUNNING", attempts: 3 });
    expect(claimed.lockedAt).not.toBeNull();
    expect(await claimJobs(client, { limit: 10 })).toEqual([]);
  });

  it("leaves jobs that are not due, finished, parked, or running under a live lease", async () => {
    await insertJob({ runIn: 60 });
    await insertJob({ status: "DONE" });
    await insertJob({ status: "PARKED", attempts: 8 });
    await insertJob({ status: "RUNNING", lockedAgo: 10, attempts: 1 });
    expect(await claimJobs(client, { limit: 10 })).toEqual([]);
  });

  it("takes the oldest run_at first and no more than the limit", async () => {
    const newer = await insertJob({ runIn: -5 });
    const oldest = await insertJob({ runIn: -30 });
    const middle = await insertJob({ runIn: -10 });
    expect((await claimJobs(client, { limit: 2 })).map((job) => job.id).sort()).toEqual([oldest, middle].sort());
    expect((await claimJobs(client, { limit: 2 })).map((job) => job.id)).toEqual([newer]);
  });

  it("with ids, claims only those jobs (and still only when due)", async () => {
    const wanted = await insertJob();
    const notDue = await insertJob({ runIn: 60 });
    const unrelated = await insertJob();
    const claimed = await claimJobs(client, { limit: 10, ids: [wanted, notDue, "not-a-uuid"] });
    expect(claimed.map((job) => job.id)).toEqual([wanted]);
    expect((await row(unrelated)).status).toBe("QUEUED");
    expect(await claimJobs(client, { limit: 10, ids: [] })).toEqual([]);
  });

  it("concurrent claims from two clients never hand out the same job", async () => {
    const ids = await Promise.all(Array.from({ length: 24 }, () => insertJob()));
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimJobs(i % 2 ? client : other, { limit: 3 })),
    );
    const claimed = claims.flat().map((job) => job.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
    const rows = await client.job.findMany({ where: { id: { in: ids } } });
    expect(rows.every((job) => job.status === "RUNNING" && job.attempts === 1)).toBe(true);
  });

  // PGlite runs one connection at a time, so a transaction held open blocks every other
  // connection there; this one needs a real server.
  it.runIf(!embedded)("skips rows another runner has locked instead of waiting for them", async () => {
    const locked = await insertJob({ runIn: -60 });
    const free = await insertJob({ runIn: -30 });
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    let claimed: ClaimedJob[] | "waited";
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM jobs WHERE id = $1 FOR UPDATE", [locked]);
      // Without SKIP LOCKED the claim would wait for the holder; the race turns that into a failure, not a hang.
      claimed = await Promise.race([
        claimJobs(client, { limit: 10 }),
        new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 5_000)),
      ]);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
    expect(claimed === "waited" ? claimed : claimed.map((job) => job.id)).toEqual([free]);
    expect((await claimJobs(client, { limit: 10 })).map((job) => job.id)).toEqual([locked]);
  });
});

describe("abandoned jobs (the runner died)", () => {
  it("a RUNNING job whose lease expired is claimed again, as a new attempt", async () => {
    const id = await insertJob({ status: "RUNNING", lockedAgo: 120, attempts: 1 });
    expect(await claimJobs(client, { limit: 10, leaseMs: 300_000 })).toEqual([]);
    const [job] = await claimJobs(client, { limit: 10, leaseMs: 60_000 });
    expect(job).toMatchObject({ id, attempt: 2, reclaimed: true });
    const reclaimed = await row(id);
    expect(reclaimed.status).toBe("RUNNING");
    expect(reclaimed.lastError).toMatch(/lease expired/);
    expect(Date.now() - reclaimed.lockedAt!.getTime()).toBeLessThan(60_000);
  });

  it("by default, a job a killed runner left RUNNING is claimed again once two minutes have passed, not before", async () => {
    const young = await insertJob({ status: "RUNNING", lockedAgo: 100, attempts: 1 });
    const old = await insertJob({ status: "RUNNING", lockedAgo: 125, attempts: 1 });
    const claimed = await claimJobs(client, { limit: 10 });
    expect(claimed.map((job) => job.id)).toEqual([old]);
    expect((await row(young)).status).toBe("RUNNING");
    expect(DEFAULT_LEASE_MS).toBeGreaterThanOrEqual(3 * DEFAULT_JOB_TIMEOUT_MS);
  });

  it("the old runner cannot finish a job another runner took over", async () => {
    const id = await insertJob({ status: "RUNNING", lockedAgo: 120, attempts: 1 });
    const stale: Pick<ClaimedJob, "id" | "attempt" | "maxAttempts"> = { id, attempt: 1, maxAttempts: 8 };
    const [current] = await claimJobs(client, { limit: 1, leaseMs: 60_000 });
    expect(await completeJob(client, stale)).toBe(false);
    expect(await failJob(client, stale, new Error("late"))).toBeUndefined();
    expect(await row(id)).toMatchObject({ status: "RUNNING", attempts: 2 });
    expect(await completeJob(client, current!)).toBe(true);
    expect((await row(id)).status).toBe("DONE");
  });

  it("one abandoned on its last attempt is parked, not claimed past max_attempts", async () => {
    const id = await insertJob({ status: "RUNNING", lockedAgo: 120, attempts: 3, maxAttempts: 3 });
    expect(await claimJobs(client, { limit: 10, leaseMs: 60_000 })).toEqual([]);
    expect(await parkAbandonedJobs(client, 60_000)).toEqual([{ id, type: "test", attempts: 3 }]);
    expect(await row(id)).toMatchObject({ status: "PARKED", attempts: 3, lockedAt: null });
    expect((await row(id)).lastError).toMatch(/lease expired/);
  });
});

describe("finishing a claimed job", () => {
  it("marks finished jobs DONE and claims the next ones in one statement, counting only those still held", async () => {
    const [first, second, stale, next, later] = [
      await insertJob({ runIn: -50 }),
      await insertJob({ runIn: -40 }),
      await insertJob({ runIn: -30 }),
      await insertJob({ runIn: -20 }),
      await insertJob({ runIn: -10 }),
    ];
    const held = await claimJobs(client, { limit: 3 });
    expect(held.map((job) => job.id)).toEqual([first, second, stale]);
    // The third's lease was taken over by another runner meanwhile: it is not this runner's to finish.
    await client.$executeRaw`UPDATE jobs SET attempts = attempts + 1 WHERE id = ${stale}::uuid`;
    const { completed, claimed } = await completeAndClaim(client, held, { limit: 1 });
    expect([...completed].sort()).toEqual([first, second].sort());
    expect(claimed.map((job) => job.id)).toEqual([next]);
    expect(await row(first)).toMatchObject({ status: "DONE", lockedAt: null });
    expect(await row(stale)).toMatchObject({ status: "RUNNING", attempts: 2 });
    expect(await row(next)).toMatchObject({ status: "RUNNING", attempts: 1 });
    expect((await row(later)).status).toBe("QUEUED");
  });

  it("never claims back, as abandoned, a job it is marking DONE in the same statement", async () => {
    const id = await insertJob({ status: "RUNNING", lockedAgo: 120, attempts: 1 });
    const { completed, claimed } = await completeAndClaim(client, [{ id, attempt: 1 }], { limit: 5, leaseMs: 60_000 });
    expect([...completed]).toEqual([id]);
    expect(claimed).toEqual([]);
    expect(await row(id)).toMatchObject({ status: "DONE", attempts: 1 });
  });

  it("success: DONE, unlocked", async () => {
    const id = await insertJob();
    const [job] = await claimJobs(client, { limit: 1 });
    expect(await completeJob(client, job!)).toBe(true);
    expect(await row(id)).toMatchObject({ status: "DONE", lockedAt: null, attempts: 1 });
  });

  it("failure: QUEUED again, run_at pushed out by the backoff, the message kept", async () => {
    const id = await insertJob();
    const [first] = await claimJobs(client, { limit: 1 });
    const failed = await failJob(client, first!, new Error("mail server said 421 try later"));
    expect(failed?.status).toBe("QUEUED");
    expect(await row(id)).toMatchObject({
      status: "QUEUED",
      lockedAt: null,
      attempts: 1,
      lastError: "mail server said 421 try later",
    });
    // Attempt 1: 10 s · 2⁰, jittered into [5 s, 10 s].
    const wait = await runsInSeconds(id);
    expect(wait).toBeGreaterThan(4.9);
    expect(wait).toBeLessThanOrEqual(10.1);
    expect(await claimJobs(client, { limit: 1 })).toEqual([]);

    // Attempt 3 (due again): 10 s · 2² = 40 s, jittered into [20 s, 40 s].
    await client.$executeRaw`UPDATE jobs SET run_at = now(), attempts = 2 WHERE id = ${id}::uuid`;
    const [third] = await claimJobs(client, { limit: 1 });
    expect(third!.attempt).toBe(3);
    await failJob(client, third!, new Error("still down"));
    const later = await runsInSeconds(id);
    expect(later).toBeGreaterThan(19.9);
    expect(later).toBeLessThanOrEqual(40.1);
    expect((await row(id)).lastError).toBe("still down");
  });

  it("failure on the last attempt: PARKED with its error, kept", async () => {
    const id = await insertJob({ attempts: 2, maxAttempts: 3 });
    const [job] = await claimJobs(client, { limit: 1 });
    expect(job!.attempt).toBe(3);
    const failed = await failJob(client, job!, new Error("no such mailbox"));
    expect(failed?.status).toBe("PARKED");
    expect(await row(id)).toMatchObject({ status: "PARKED", attempts: 3, lastError: "no such mailbox" });
    expect(await claimJobs(client, { limit: 10 })).toEqual([]);
  });

  it("a permanent error parks the job on its first attempt", async () => {
    const id = await insertJob();
    const [job] = await claimJobs(client, { limit: 1 });
    expect((await failJob(client, job!, new PermanentJobError("bad payload")))?.status).toBe("PARKED");
    expect(await row(id)).toMatchObject({ status: "PARKED", attempts: 1, lastError: "bad payload" });
  });
});

describe("retryDelayMs", () => {
  it("doubles from 10 s, caps at 1 h, jittered between half and all of it", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, () => 1))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, () => 0))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(9, () => 1)).toBe(2_560_000);
    expect(retryDelayMs(10, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(30, () => 0)).toBe(1_800_000);
  });
});

describe("describeJobError", () => {
  it("keeps the message only, on one line, without credentials, truncated", () => {
    const error = new Error(
      "connect to smtps://shop:hunter2@mail.example.com:465 failed\n  Bearer abc.def-123 refused",
    );
    expect(describeJobError(error)).toBe("connect to smtps://***@mail.example.com:465 failed Bearer *** refused");
    expect(describeJobError(new Error("x".repeat(2_000)))).toHaveLength(500);
    expect(describeJobError("plain string")).toBe("plain string");
    expect(describeJobError({ secret: "no" })).toBe("a non-Error was thrown");
    expect(describeJobError(new TypeError(""))).toBe("TypeError");
  });
});
