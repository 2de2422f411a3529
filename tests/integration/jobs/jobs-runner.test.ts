import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import type { JobHandler } from "@/lib/jobs/handlers";
import { catalogChanged } from "@/lib/catalog/cached-pages";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import { drainJobsInBackground, runDueJobs, type RunOptions } from "@/lib/jobs/runner";
import type { LogFields } from "@/lib/log";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The runner with stand-in handlers, on a database of its own (so only these runners claim
// these jobs). The real handlers are tested in jobs-handlers.test.ts. Marking the cached
// catalogue stale needs Next's server; here it is only counted.

vi.mock("@/lib/catalog/cached-pages", () => ({ catalogChanged: vi.fn() }));

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
  database = await createTestDatabase("jobs_runner");
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
  vi.mocked(catalogChanged).mockClear();
});

async function insertJob(type: string, options: { ageSeconds?: number; maxAttempts?: number } = {}) {
  const id = randomUUID();
  await client.$executeRaw`
    INSERT INTO jobs (id, type, dedupe_key, payload, max_attempts, run_at)
    VALUES (${id}::uuid, ${type}, ${`${type}:${id}`}, '{}'::jsonb, ${options.maxAttempts ?? 8},
            now() - ${options.ageSeconds ?? 1}::int * interval '1 second')`;
  return id;
}

const row = (id: string) => client.job.findUniqueOrThrow({ where: { id } });
const makeDue = (id: string) => client.$executeRaw`UPDATE jobs SET run_at = now() WHERE id = ${id}::uuid`;

function recordingLog() {
  const lines: { level: string; event: string; fields: LogFields }[] = [];
  return { lines, log: (level: string, event: string, fields: LogFields = {}) => lines.push({ level, event, fields }) };
}

const ok: JobHandler = async () => {};
const run = (options: RunOptions) => runDueJobs({ db: client, log: () => {}, ...options });

describe("runDueJobs", () => {
  it("marks a job DONE when its handler succeeds, and logs one line for it without its payload", async () => {
    const id = await insertJob("ok");
    const { lines, log } = recordingLog();
    expect(await run({ handlers: { ok }, log })).toEqual({ done: 1, retried: 0, parked: 0 });
    expect(await row(id)).toMatchObject({ status: "DONE", attempts: 1 });
    expect(lines).toEqual([
      {
        level: "info",
        event: "job.finished",
        fields: expect.objectContaining({ id, type: "ok", outcome: "done", attempts: 1, ms: expect.any(Number) }),
      },
    ]);
  });

  it("marks a finished job DONE in the statement that claims the next: about one statement a job", async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => insertJob("ok")));
    let statements = 0;
    // The test's client, counting what the runner sends through it.
    const counted = new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== "$queryRaw" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          statements++;
          return value.apply(target, args);
        };
      },
    });
    expect(await runDueJobs({ db: counted, handlers: { ok }, concurrency: 2, log: () => {} })).toEqual({
      done: 8,
      retried: 0,
      parked: 0,
    });
    expect(await client.job.count({ where: { id: { in: ids }, status: "DONE" } })).toBe(8);
    // The abandoned jobs' sweep, then at most one claim-and-finish per job and one for the last
    // ones (a claim and a finish of their own would be 17 for 8 jobs).
    expect(statements).toBeLessThanOrEqual(1 + 8 + 1);
  });

  it("retries a failing job later with backoff, then parks it after max_attempts with its error", async () => {
    const id = await insertJob("flaky", { maxAttempts: 3 });
    let calls = 0;
    const handlers = {
      flaky: async () => {
        calls++;
        throw new Error(`mail server down (${calls})`);
      },
    };
    expect(await run({ handlers })).toEqual({ done: 0, retried: 1, parked: 0 });
    const first = await row(id);
    expect(first).toMatchObject({ status: "QUEUED", attempts: 1, lastError: "mail server down (1)" });
    expect(first.runAt.getTime()).toBeGreaterThan(Date.now() + 4_000);
    // Not due yet: another run leaves it alone.
    expect(await run({ handlers })).toEqual({ done: 0, retried: 0, parked: 0 });
    expect(calls).toBe(1);

    await makeDue(id);
    expect(await run({ handlers })).toEqual({ done: 0, retried: 1, parked: 0 });
    const second = await row(id);
    expect(second.runAt.getTime()).toBeGreaterThan(Date.now() + 9_000);
    await makeDue(id);
    expect(await run({ handlers })).toEqual({ done: 0, retried: 0, parked: 1 });
    expect(await row(id)).toMatchObject({ status: "PARKED", attempts: 3, lastError: "mail server down (3)" });
    await makeDue(id);
    expect(await run({ handlers })).toEqual({ done: 0, retried: 0, parked: 0 });
    expect(calls).toBe(3);
  });

  it("a job of a type nobody handles is retried with that reason", async () => {
    const id = await insertJob("unknown-type");
    expect(await run({ handlers: {} })).toEqual({ done: 0, retried: 1, parked: 0 });
    expect((await row(id)).lastError).toBe('no handler for job type "unknown-type"');
  });

  it("runs only the given ids", async () => {
    const wanted = await insertJob("ok");
    const left = await insertJob("ok");
    expect(await run({ handlers: { ok }, ids: [wanted] })).toEqual({ done: 1, retried: 0, parked: 0 });
    expect((await row(wanted)).status).toBe("DONE");
    expect((await row(left)).status).toBe("QUEUED");
  });

  it("claims nothing after its deadline, and no more than its limit", async () => {
    await insertJob("ok");
    await insertJob("ok");
    expect(await run({ handlers: { ok }, deadline: Date.now() - 1 })).toEqual({ done: 0, retried: 0, parked: 0 });
    expect(await run({ handlers: { ok }, limit: 1 })).toEqual({ done: 1, retried: 0, parked: 0 });
    expect(await run({ handlers: { ok } })).toEqual({ done: 1, retried: 0, parked: 0 });
  });

  it("two runners at once never run the same job twice", async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => insertJob("counted")));
    const runs = new Map<string, number>();
    const counted: JobHandler = async (job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const [a, b] = await Promise.all([
      runDueJobs({ db: client, handlers: { counted }, concurrency: 3, log: () => {} }),
      runDueJobs({ db: other, handlers: { counted }, concurrency: 3, log: () => {} }),
    ]);
    expect(a.done + b.done).toBe(30);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(await client.job.count({ where: { status: "DONE", attempts: 1 } })).toBe(30);
  });

  it("a hanging handler times out and is retried later; it blocks neither the other jobs nor the run", async () => {
    const hanging = await insertJob("hang", { ageSeconds: 60 });
    const others = await Promise.all(Array.from({ length: 5 }, () => insertJob("ok", { ageSeconds: 30 })));
    let aborted = false;
    const handlers: Record<string, JobHandler> = {
      ok,
      hang: (_job, { signal }) =>
        new Promise(() => {
          signal.addEventListener("abort", () => (aborted = true));
        }),
    };
    const started = Date.now();
    for (const concurrency of [1, 2]) {
      await client.$executeRaw`UPDATE jobs SET status = 'QUEUED', run_at = now() - interval '1 minute' WHERE id = ${hanging}::uuid`;
      await client.job.updateMany({ where: { id: { in: others } }, data: { status: "QUEUED" } });
      expect(await run({ handlers, timeoutMs: 200, concurrency })).toEqual({ done: 5, retried: 1, parked: 0 });
      const retried = await row(hanging);
      expect(retried).toMatchObject({ status: "QUEUED", lastError: "timed out after 200 ms" });
      expect(retried.runAt.getTime()).toBeGreaterThan(Date.now());
    }
    expect(aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

/** A `gate` job that runs until `open()` is called, an `ok` job that ends at once; `started` lists the jobs begun. */
function gatedHandlers() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const started: string[] = [];
  const handlers: Record<string, JobHandler> = {
    gate: async (job) => {
      started.push(job.id);
      await gate;
    },
    ok: async (job) => {
      started.push(job.id);
    },
  };
  return { handlers, started, open };
}

describe("drainJobsInBackground", () => {
  it("is single-flight: a second call joins the running drain, which goes round again for new jobs", async () => {
    const first = await insertJob("gate");
    const { handlers, started, open } = gatedHandlers();
    // One job per round, so the second job runs only if the drain goes round again.
    const options = { db: client, handlers, log: () => {}, limit: 1 };
    const drain = drainJobsInBackground(options);
    await expect.poll(() => started.length).toBe(1);
    const second = await insertJob("ok");
    const joined = drainJobsInBackground(options);
    expect(joined).not.toBe(drain);
    open();
    await drain;
    expect(started).toEqual([first, second]);
    expect((await row(first)).status).toBe("DONE");
    expect((await row(second)).status).toBe("DONE");
    // Finished: the next call starts a new drain.
    const next = drainJobsInBackground(options);
    expect(next).not.toBe(drain);
    await next;
  });

  it("a request that joins a running drain does not wait for it; the drain runs its jobs too", async () => {
    const first = await insertJob("gate");
    const { handlers, started, open } = gatedHandlers();
    const options = { db: client, handlers, log: () => {}, limit: 1 };
    // The first request's after() waits for the drain it started.
    const drain = drainJobsInBackground(options);
    let drained = false;
    void drain.then(() => (drained = true));
    await expect.poll(() => started.length).toBe(1);
    // A second payment's after(): resolved while the first job still runs.
    const second = await insertJob("ok");
    await drainJobsInBackground(options);
    expect(drained).toBe(false);
    expect(started).toEqual([first]);
    open();
    await drain;
    // The running drain went round again for the second request's job.
    expect(started).toEqual([first, second]);
    expect((await row(second)).status).toBe("DONE");
  });

  it("marks the cached catalogue stale once, at its end, only when a job put stock back", async () => {
    const handlers: Record<string, JobHandler> = {
      [JOB_TYPES.releaseStock]: async (job) =>
        (job.payload as { skip?: boolean }).skip ? { skipped: "released" } : undefined,
      [JOB_TYPES.confirmationMail]: ok,
    };
    const options = { db: client, handlers, log: () => {} };
    await insertJob(JOB_TYPES.confirmationMail);
    await drainJobsInBackground(options);
    expect(catalogChanged).not.toHaveBeenCalled();

    const skipped = await insertJob(JOB_TYPES.releaseStock);
    await client.$executeRaw`UPDATE jobs SET payload = '{"skip": true}'::jsonb WHERE id = ${skipped}::uuid`;
    expect(await run({ handlers })).toEqual({ done: 1, retried: 0, parked: 0 });
    await Promise.all([insertJob(JOB_TYPES.releaseStock), insertJob(JOB_TYPES.releaseStock)]);
    expect(await run({ handlers, limit: 1 })).toEqual({ done: 1, retried: 0, parked: 0, movedStock: true });
    await drainJobsInBackground(options);
    expect(catalogChanged).toHaveBeenCalledTimes(1);
  });

  it("runs one job at a time while other requests keep asking for drains, four when one asks alone", async () => {
    // Past any earlier test's asks.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let [running, most] = [0, 0];
    const counted: JobHandler = async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running--;
    };
    const options = { db: client, handlers: { counted }, log: () => {} };
    await Promise.all(Array.from({ length: 8 }, () => insertJob("counted")));
    await drainJobsInBackground(options);
    expect(most).toBe(4);

    most = 0;
    const ids = await Promise.all(Array.from({ length: 4 }, () => insertJob("counted")));
    const drain = drainJobsInBackground(options);
    // Another payment's request asks while the drain runs: a burst has begun.
    void drainJobsInBackground(options);
    await drain;
    expect(most).toBe(1);
    expect(await client.job.count({ where: { id: { in: ids }, status: "DONE" } })).toBe(4);
  });

  it("never rejects: a failure is logged", async () => {
    const { lines, log } = recordingLog();
    const broken = connect("postgresql://nobody@127.0.0.1:1/none");
    try {
      await expect(drainJobsInBackground({ db: broken, log })).resolves.toBeUndefined();
    } finally {
      await broken.$disconnect();
    }
    expect(lines.map((line) => [line.level, line.event])).toEqual([["error", "jobs.drain_failed"]]);
  });
});
