import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dbPool } from "@/lib/db/client";
import {
  checkHealth,
  HEALTH_APPLICATION_NAME,
  openHealthConnection,
  sharedHealthCheck,
  type HealthDeps,
} from "@/lib/db/health";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// GET /api/health against real databases: the suite's (migrated), one of this file's own
// that lacks the newest migration, one never migrated, and a closed port; and told apart from
// those, a busy one: the app's pool with every connection held, a database that is full, one
// that does not answer in time.

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations/", import.meta.url));
const serverUrl = process.env.TEST_SERVER_DATABASE_URL || undefined;
/** A port nothing listens on: as a DATABASE_URL whose database is down or mistyped. */
const CLOSED_PORT_URL = "postgresql://shop:s3cret@127.0.0.1:1/shop";

const databases: TestDatabase[] = [];
const scratchDirs: string[] = [];

const idlePool = { waitingCount: 0 };

function deps(url: string, overrides: Partial<HealthDeps> = {}): HealthDeps {
  return {
    connect: (timeoutMs) => openHealthConnection(url, timeoutMs),
    appPool: () => idlePool,
    migrationsDir: MIGRATIONS_DIR,
    timeoutMs: 3_000,
    log: () => {},
    ...overrides,
  };
}

/** The route as a fresh process has it: its one-second reuse of the last check starts empty. */
async function freshRoute() {
  vi.resetModules();
  return import("@/app/api/health/route");
}

/** The operators' secret that opens the details (CRON_SECRET, lib/env.ts). */
const SECRET = "health-details-secret-of-some-length";

/** GET /api/health as a fresh process answers it, with CRON_SECRET set, sending `authorization` if given. */
async function health(authorization?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  vi.stubEnv("CRON_SECRET", SECRET);
  const { GET } = await freshRoute();
  const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
  const response = await GET(new Request("http://localhost:3000/api/health", { headers }));
  expect(response.headers.get("cache-control")).toBe("no-store");
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const details = () => health(`Bearer ${SECRET}`);

let behind: TestDatabase;
let neverMigrated: TestDatabase;
let newest: string;

beforeAll(async () => {
  // The migrations without the newest one, as an old deployment left the database.
  const older = await mkdtemp(path.join(os.tmpdir(), "health-migrations-"));
  scratchDirs.push(older);
  await cp(MIGRATIONS_DIR, older, { recursive: true });
  const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  newest = names.at(-1)!;
  await rm(path.join(older, newest), { recursive: true });

  behind = await createTestDatabase("health-behind");
  databases.push(behind);
  await applyMigrations({ connectionString: behind.url, migrationsDir: older });
  neverMigrated = await createTestDatabase("health-empty");
  databases.push(neverMigrated);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
});

describe("GET /api/health", () => {
  it("answers anyone 200 ok on the suite's migrated database, and the details with the bearer secret", async () => {
    expect(await health()).toEqual({ status: 200, body: { status: "ok" } });
    expect(await details()).toEqual({
      status: 200,
      body: { status: "ok", database: "ok", migrations: "current" },
    });
  });

  it("tells anyone only that it is unavailable when migrations are pending; their names with the secret", async () => {
    vi.stubEnv("DATABASE_URL", behind.url);
    expect(await health()).toEqual({ status: 503, body: { status: "unavailable" } });
    expect(await details()).toEqual({
      status: 503,
      body: {
        status: "unavailable",
        database: "ok",
        migrations: "pending",
        pending: [newest],
        reason: expect.stringContaining("db:migrate"),
      },
    });
  });

  it("refuses the details (401, nothing of the check) to a wrong secret, and to any while CRON_SECRET is unset", async () => {
    for (const authorization of ["Bearer not-the-secret", `Basic ${SECRET}`, "Bearer "]) {
      const refused = await health(authorization);
      expect(refused, authorization).toEqual({
        status: 401,
        body: { error: { code: "unauthorized", message: expect.stringContaining("CRON_SECRET") } },
      });
    }
    vi.stubEnv("CRON_SECRET", "");
    const { GET } = await freshRoute();
    const unset = await GET(
      new Request("http://localhost:3000/api/health", { headers: { Authorization: `Bearer ${SECRET}` } }),
    );
    expect(unset.status).toBe(401);
    expect(JSON.stringify(await unset.json())).not.toMatch(/migrations|database/);
  });

  it("answers unhealthy, naming the migration, when the database lacks the newest one", async () => {
    expect(await checkHealth(deps(behind.url))).toEqual({
      healthy: false,
      body: { database: "ok", migrations: "pending", pending: [newest], reason: expect.stringContaining("db:migrate") },
    });
  });

  it("answers unhealthy with every migration pending on a database nobody migrated", async () => {
    const report = await checkHealth(deps(neverMigrated.url));
    expect(report.healthy).toBe(false);
    expect(report.body).toMatchObject({ database: "ok", migrations: "pending" });
    expect((report.body as { pending: string[] }).pending).toContain(newest);
  });

  it("answers unhealthy when the database's sessions do not run in UTC, which would shift every stored time", async () => {
    const offset = await createTestDatabase("health-time-zone");
    databases.push(offset);
    await applyMigrations({ connectionString: offset.url });
    // What a role's own setting or a pooler connected before the UTC migration leaves behind:
    // new sessions on a server take the database's default; embedded PGlite has one shared session.
    await withPgClient(offset.url, async (client) => {
      await client.query(
        `ALTER DATABASE "${(await client.query("SELECT current_database() AS d")).rows[0].d}" SET "TimeZone" TO 'Asia/Tokyo'`,
      );
      await client.query(`SET "TimeZone" TO 'Asia/Tokyo'`);
    });
    expect(await checkHealth(deps(offset.url))).toEqual({
      healthy: false,
      body: {
        database: "ok",
        migrations: "current",
        timeZone: "Asia/Tokyo",
        reason: expect.stringContaining("not UTC"),
      },
    });
  });

  it("answers unhealthy with a reason, and no connection detail, when the database cannot be reached", async () => {
    const log = vi.fn();
    const report = await checkHealth(deps(CLOSED_PORT_URL, { log }));
    expect(report).toEqual({
      healthy: false,
      body: { database: "unreachable", reason: "cannot connect to the database (ECONNREFUSED)" },
    });
    expect(JSON.stringify(log.mock.calls)).not.toContain("s3cret");
  });

  it("answers unhealthy when no connection opens in time, and closes one that opens later", async () => {
    let closed = false;
    const late = { query: async () => ({ rows: [] }), end: async () => void (closed = true) };
    let open!: () => void;
    const report = await checkHealth({
      ...deps("postgresql://unused@127.0.0.1:1/x"),
      connect: () => new Promise((resolve) => (open = () => resolve(late as never))),
      timeoutMs: 50,
    });
    expect(report).toEqual({
      healthy: false,
      body: { database: "unreachable", reason: "could not connect to the database within 50 ms" },
    });
    open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });

  it("answers unhealthy when DATABASE_URL is missing or the build shipped without its migrations", async () => {
    const missingUrl = await checkHealth({
      ...deps(behind.url),
      connect: () => {
        throw new Error("DATABASE_URL is not set");
      },
      appPool: () => {
        throw new Error("DATABASE_URL is not set");
      },
    });
    expect(missingUrl.body).toMatchObject({ database: "unreachable" });
    const noMigrations = await checkHealth(deps(behind.url, { migrationsDir: path.join(os.tmpdir(), "no-such-dir") }));
    expect(noMigrations.body).toEqual({
      migrations: "unknown",
      reason: "this build was deployed without its prisma/migrations directory",
    });
  });

  it("runs one check for requests that arrive together or within the reuse window", async () => {
    let queries = 0;
    const counting = { query: async () => (queries++, { rows: [] }), end: async () => {} };
    const check = sharedHealthCheck({ ...deps(behind.url), connect: async () => counting as never }, 60_000);
    await Promise.all([check(), check(), check()]);
    await check();
    expect(queries).toBe(1);
  });
});

describe("busy is told from unreachable: a load balancer keeps a busy instance and takes out one that cannot reach its database", () => {
  it("while every connection of the app's pool is held and a request waits for one, GET answers 200 with the pool busy", async () => {
    const pool = dbPool();
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    const waiting = pool.query("SELECT 1");
    try {
      expect(pool.waitingCount).toBe(1);
      expect(await health()).toEqual({ status: 200, body: { status: "busy" } });
      expect(await details()).toEqual({
        status: 200,
        body: { status: "busy", database: "ok", migrations: "current", pool: "busy" },
      });
    } finally {
      for (const client of held) client.release();
      await waiting;
    }
    // The check's connection was its own, and it was closed.
    const { rows } = await pool.query<{ open: number }>(
      "SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
      [HEALTH_APPLICATION_NAME],
    );
    expect(rows[0]!.open).toBe(0);
  });

  it("with DATABASE_URL pointing at a closed port, GET answers 503 unavailable (unreachable, with the secret)", async () => {
    vi.stubEnv("DATABASE_URL", CLOSED_PORT_URL);
    expect(await health()).toEqual({ status: 503, body: { status: "unavailable" } });
    expect(await details()).toEqual({
      status: 503,
      body: {
        status: "unavailable",
        database: "unreachable",
        reason: "cannot connect to the database (ECONNREFUSED)",
      },
    });
  });

  // Not on embedded PGlite: its one session runs one transaction at a time, so while another is
  // open even a new connection's startup waits, and nothing can be told apart there.
  it.runIf(serverUrl)(
    "answers 200 busy when the database accepts the connection but does not answer in time, and leaves no session waiting",
    async () => {
      // A migration's lock on the history table, held by another session: the check's query waits behind it.
      const locker = new pg.Client({ connectionString: behind.url });
      await locker.connect();
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE _prisma_migrations IN ACCESS EXCLUSIVE MODE");
      try {
        expect(await checkHealth(deps(behind.url, { timeoutMs: 500, appPool: () => ({ waitingCount: 2 }) }))).toEqual({
          healthy: true,
          body: {
            database: "busy",
            reason: "connected, but the database did not answer within 500 ms",
            pool: "busy",
          },
        });
        // Its query gives up on the server a second after the check did, though the lock is
        // still held: a check a second cannot pile sessions up behind a migration.
        // Asked outside the locker's transaction, which would see one snapshot of the activity.
        const waiting = () =>
          withPgClient(behind.url, async (client) => {
            const { rows } = await client.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
              [HEALTH_APPLICATION_NAME],
            );
            return rows[0]!.n;
          });
        await expect.poll(waiting, { timeout: 5_000, interval: 100 }).toBe(0);
      } finally {
        await locker.query("ROLLBACK");
        await locker.end();
      }
    },
  );

  it.runIf(serverUrl)("answers 200 busy when the database refuses the connection as full (53300)", async () => {
    // A role allowed one connection, which another session holds: what max_connections reached looks like.
    const role = `shop_health_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    await withPgClient(behind.url, (admin) =>
      admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT 1`),
    );
    const roleUrl = new URL(behind.url);
    roleUrl.username = role;
    roleUrl.password = password;
    const holder = new pg.Client({ connectionString: roleUrl.toString() });
    try {
      await holder.connect();
      expect(await checkHealth(deps(roleUrl.toString()))).toEqual({
        healthy: true,
        body: { database: "busy", reason: "the database refused a new connection: it has all it allows (53300)" },
      });
    } finally {
      await holder.end();
      await withPgClient(behind.url, (admin) => admin.query(`DROP ROLE ${role}`));
    }
  });
});
