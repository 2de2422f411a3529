import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkHealth, sharedHealthCheck, type HealthDeps } from "@/lib/health";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";

// GET /api/health against real databases: the suite's (migrated), one of this file's own
// that lacks the newest migration, one never migrated, and a closed port.

const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

const pools: pg.Pool[] = [];
const databases: TestDatabase[] = [];
const scratchDirs: string[] = [];

function poolFor(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  pools.push(pool);
  return pool;
}

function deps(url: string, overrides: Partial<HealthDeps> = {}): HealthDeps {
  const pool = poolFor(url);
  return { pool: () => pool, migrationsDir: MIGRATIONS_DIR, timeoutMs: 3_000, log: () => {}, ...overrides };
}

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

afterAll(async () => {
  for (const pool of pools) await pool.end();
  for (const database of databases) await database.drop();
  for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
});

describe("GET /api/health", () => {
  it("answers 200 with the database ok and the migrations current on the suite's migrated database", async () => {
    const { GET } = await import("@/app/api/health/route");
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ database: "ok", migrations: "current" });
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
    const report = await checkHealth(deps("postgresql://shop:s3cret@127.0.0.1:1/shop", { log }));
    expect(report).toEqual({
      healthy: false,
      body: { database: "unreachable", reason: "cannot query the database (ECONNREFUSED)" },
    });
    expect(JSON.stringify(log.mock.calls)).not.toContain("s3cret");
  });

  it("answers unhealthy when the database does not answer in time", async () => {
    const silent = { query: () => new Promise<never>(() => {}) };
    const report = await checkHealth({
      ...deps("postgresql://unused@127.0.0.1:1/x"),
      pool: () => silent as never,
      timeoutMs: 50,
    });
    expect(report.body).toEqual({ database: "unreachable", reason: "the database did not answer within 50 ms" });
  });

  it("answers unhealthy when DATABASE_URL is missing or the build shipped without its migrations", async () => {
    const missingUrl = await checkHealth({
      ...deps(behind.url),
      pool: () => {
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
    const counting = { query: async () => (queries++, { rows: [] }) };
    const check = sharedHealthCheck({ ...deps(behind.url), pool: () => counting as never }, 60_000);
    await Promise.all([check(), check(), check()]);
    await check();
    expect(queries).toBe(1);
  });
});
