import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyPaymentUpdate } from "@/lib/orders/state-machine";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { insertTestOrder, jobsOf } from "../../../harness/support/orders";

// GET/POST /api/cron/jobs, and the guard it shares with /api/cron/reconcile. The route runs
// every due job, so it gets a database of its own: db() points there, and the summary it
// answers counts exactly this file's jobs.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("jobs_cron");
  await applyMigrations({ connectionString: database.url });
  // One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
  const max = process.env.TEST_SERVER_DATABASE_URL ? 4 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const SECRET = "cron-secret-for-the-jobs-route";

/** The route as a fresh module, so lib/env.ts reads the stubbed environment. */
async function call(method: "GET" | "POST", options: { cronSecret?: string; authorization?: string } = {}) {
  vi.stubEnv("CRON_SECRET", options.cronSecret ?? "");
  vi.stubEnv("SMTP_URL", "");
  vi.resetModules();
  const route = await import("@/app/api/cron/jobs/route");
  const headers: Record<string, string> = options.authorization ? { Authorization: options.authorization } : {};
  const response = await route[method](new Request("http://localhost:3000/api/cron/jobs", { method, headers }));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("/api/cron/jobs", () => {
  it("is disabled (503) while CRON_SECRET is unset, whatever the caller sends", async () => {
    const response = await call("GET", { authorization: `Bearer ${SECRET}` });
    expect(response).toEqual({
      status: 503,
      body: { error: { code: "cron_disabled", message: expect.stringContaining("CRON_SECRET") } },
    });
  });

  it.each([
    ["no Authorization header", undefined],
    ["a wrong secret of the same length", `Bearer ${SECRET.slice(0, -1)}X`],
    ["a prefix of the secret", `Bearer ${SECRET.slice(0, 10)}`],
    ["the secret with more after it", `Bearer ${SECRET}x`],
    ["another scheme", `Basic ${SECRET}`],
    ["the bare secret", SECRET],
  ])("refuses %s with 401 and runs nothing", async (_case, authorization) => {
    const order = await insertTestOrder();
    await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status: "CON" });
    const response = await call("GET", { cronSecret: SECRET, authorization });
    expect(response).toEqual({ status: 401, body: { error: { code: "unauthorized", message: expect.any(String) } } });
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.status)).toEqual([
      "QUEUED",
      "QUEUED",
      "QUEUED",
    ]);
    await client.job.deleteMany();
  });

  it.each(["GET", "POST"] as const)("%s with the secret runs the due jobs and answers the summary", async (method) => {
    await client.job.deleteMany();
    const order = await insertTestOrder();
    await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status: "CON" });
    const response = await call(method, { cronSecret: SECRET, authorization: `Bearer ${SECRET}` });
    expect(response).toEqual({ status: 200, body: { done: 3, retried: 0, parked: 0 } });
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.status)).toEqual(["DONE", "DONE", "DONE"]);
    expect(await client.email.count({ where: { jobKey: `confirmation-mail:${order.externalTransactionId}` } })).toBe(1);
    // Nothing left: the next call has nothing to do.
    expect((await call(method, { cronSecret: SECRET, authorization: `Bearer ${SECRET}` })).body).toEqual({
      done: 0,
      retried: 0,
      parked: 0,
    });
  });
});

describe("authorizeCron", () => {
  const request = (authorization?: string) =>
    new Request("http://localhost/api/cron/x", { headers: authorization ? { authorization } : {} });

  it("lets the right bearer through (scheme in any case) and nothing else", async () => {
    const { authorizeCron } = await import("@/lib/http/cron-guard");
    expect(authorizeCron(request(`Bearer ${SECRET}`), SECRET)).toBeNull();
    expect(authorizeCron(request(`bearer ${SECRET}`), SECRET)).toBeNull();
    expect(authorizeCron(request(`Bearer  ${SECRET}`), SECRET)?.status).toBe(401);
    expect(authorizeCron(request("Bearer "), SECRET)?.status).toBe(401);
    expect(authorizeCron(request(), SECRET)?.headers.get("www-authenticate")).toBe('Bearer realm="cron"');
    expect(authorizeCron(request(`Bearer ${SECRET}`), undefined)?.status).toBe(503);
    expect(authorizeCron(request(`Bearer ${SECRET}`), "")?.status).toBe(503);
  });
});
