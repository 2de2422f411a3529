import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { applyMigrations, MIGRATOR_APPLICATION_NAME } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The migrator against empty databases of its own: what it records must be exactly what
// `prisma migrate deploy` would record, and it must never apply a migration twice.

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations/", import.meta.url));
const root = fileURLToPath(new URL("../../../", import.meta.url));
// Embedded PGlite runs every connection in one session: no session there can wait for another.
const embedded = !process.env.TEST_SERVER_DATABASE_URL;

const databases: TestDatabase[] = [];
const scratchDirs: string[] = [];

async function freshDatabase(): Promise<string> {
  const database = await createTestDatabase("migrate");
  databases.push(database);
  return database.url;
}

/** A copy of prisma/migrations that a test may edit. */
async function scratchMigrationsDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
  scratchDirs.push(dir);
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, "migration.sql"), sql);
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  return withPgClient(url, async (client) => (await client.query<R>(sql, params)).rows);
}

const migrationRows = (url: string) =>
  query<{
    id: string;
    checksum: string;
    migration_name: string;
    started_at: Date;
    finished_at: Date | null;
    rolled_back_at: Date | null;
    logs: string | null;
    applied_steps_count: number;
  }>(url, "SELECT * FROM _prisma_migrations ORDER BY migration_name, started_at");

/** Whether products has the column the test migrations add. */
const noteColumn =
  "SELECT count(*)::int AS count FROM information_schema.columns WHERE table_name = 'products' AND column_name = 'note'";

const tableExists = async (url: string, table: string) =>
  (await query<{ exists: boolean }>(url, "SELECT to_regclass($1) IS NOT NULL AS exists", [table]))[0]?.exists;

let migrationNames: string[];

beforeAll(async () => {
  migrationNames = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
});

afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("applyMigrations on a fresh database", () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase();
  });

  it("applies every migration, in order", async () => {
    const result = await applyMigrations({ connectionString: url });
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(result).toEqual({ applied: migrationNames, alreadyApplied: [] });
    expect(await tableExists(url, "products")).toBe(true);
  });

  it("records each migration as Prisma does, with the sha256 of its migration.sql", async () => {
    const rows = await migrationRows(url);
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      const file = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.applied_steps_count).toBe(1);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
    }
  });

  it("is a no-op the second time: nothing applied, no row changed", async () => {
    const before = await migrationRows(url);
    const result = await applyMigrations({ connectionString: url });
    expect(result).toEqual({ applied: [], alreadyApplied: migrationNames });
    expect(await migrationRows(url)).toEqual(before);
  });
});

describe("applyMigrations run concurrently", () => {
  it("applies each migration exactly once", async () => {
    const url = await freshDatabase();
    const results = await Promise.all([
      applyMigrations({ connectionString: url }),
      applyMigrations({ connectionString: url }),
    ]);

    expect(results.flatMap((result) => result.applied).sort()).toEqual(migrationNames);
    for (const result of results) {
      expect([...result.applied, ...result.alreadyApplied].sort()).toEqual(migrationNames);
    }
    expect((await migrationRows(url)).map((row) => row.migration_name)).toEqual(migrationNames);
  });
});

describe("applyMigrations refuses to guess", () => {
  it("reports a migration whose file changed after it was applied, by name", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await applyMigrations({ connectionString: url, migrationsDir: dir });
    const edited = migrationNames[0]!;
    const file = path.join(dir, edited, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- an edit after the fact\n`);

    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      new RegExp(`Migration ${edited} was modified after it was applied`),
    );
  });

  it("rolls back a migration that fails and records nothing", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(
      dir,
      "29990101000000_broken",
      'CREATE TABLE "half_done" (id INTEGER);\nCREATE TABLE "typo" (id INTEGR);\n',
    );

    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /Migration 29990101000000_broken failed and was rolled back: type "integr" does not exist \(migration\.sql line 2\)/,
    );
    expect(await tableExists(url, "half_done")).toBe(false);
    expect((await migrationRows(url)).map((row) => row.migration_name)).toEqual(migrationNames);
  });

  it("blocks on a failed migration row until it is resolved (Prisma's P3009)", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await applyMigrations({ connectionString: url, migrationsDir: dir });
    // What an interrupted `prisma migrate deploy` leaves behind: started, never finished.
    await query(
      url,
      "INSERT INTO _prisma_migrations (id, checksum, migration_name, logs) VALUES (gen_random_uuid(), repeat('0', 64), $1, 'interrupted')",
      ["29990101000000_interrupted"],
    );
    await addMigration(dir, "29990102000000_add_product_note", 'ALTER TABLE "products" ADD COLUMN "note" TEXT;\n');

    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /failed migrations[\s\S]*P3009[\s\S]*29990101000000_interrupted/,
    );
    expect(await query(url, noteColumn)).toEqual([{ count: 0 }]);

    // `prisma migrate resolve --rolled-back` sets rolled_back_at; then migrating resumes.
    await query(url, "UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1", [
      "29990101000000_interrupted",
    ]);
    const result = await applyMigrations({ connectionString: url, migrationsDir: dir });
    expect(result.applied).toEqual(["29990102000000_add_product_note"]);
    expect(await query(url, noteColumn)).toEqual([{ count: 1 }]);
  });
});

describe("applyMigrations never hangs a deploy", () => {
  /** A connection of its own that a test holds open (another migrator, a long transaction). */
  async function otherSession(url: string, applicationName: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: applicationName });
    await client.connect();
    return client;
  }

  it("runs every migration with the session's lock_timeout and statement_timeout set", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(
      dir,
      "29990101000000_show_timeouts",
      "DO $$ BEGIN RAISE WARNING 'timeouts: lock %, statement %', current_setting('lock_timeout'), current_setting('statement_timeout'); END $$;\n",
    );
    const lines: string[] = [];
    await applyMigrations({ connectionString: url, migrationsDir: dir, log: (line) => lines.push(line) });
    expect(lines).toContain("29990101000000_show_timeouts: WARNING: timeouts: lock 5s, statement 5min");

    // The settings end with the migrator: PGlite's one session is the app's too.
    expect(
      await query(
        url,
        "SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement",
      ),
    ).toEqual([{ lock: "0", statement: "0" }]);
  });

  it.skipIf(embedded)(
    "npm run db:migrate gives up on another migrator's lock after MIGRATE_LOCK_WAIT_SECONDS, names its session and exits 1",
    async () => {
      const url = await freshDatabase();
      const holder = await otherSession(url, "a stuck deploy");
      try {
        await holder.query("SELECT pg_advisory_lock(72707369)");
        const started = Date.now();
        const run = await new Promise<{ code: number; output: string }>((resolve) =>
          execFile(
            "npm",
            ["run", "--silent", "db:migrate"],
            {
              cwd: root,
              env: { ...process.env, DATABASE_URL: url, DATABASE_URL_UNPOOLED: "", MIGRATE_LOCK_WAIT_SECONDS: "2" },
              timeout: 60_000,
            },
            (error, stdout, stderr) =>
              resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
          ),
        );
        expect(run.code, run.output).toBe(1);
        expect(run.output).toMatch(/another migrator is running \(pid \d+, "a stuck deploy"/);
        expect(run.output).toMatch(
          /Gave up after 2 s waiting for another migrator to finish; nothing was applied\. It holds the migrate lock \(pg_advisory_lock\(72707369\)\): pid \d+, "a stuck deploy"/,
        );
        expect(Date.now() - started).toBeLessThan(50_000);
        expect(await tableExists(url, "_prisma_migrations")).toBe(false);
      } finally {
        await holder.end();
      }
      // With the other session gone, the same command migrates.
      expect((await applyMigrations({ connectionString: url })).applied).toEqual(migrationNames);
    },
  );

  it.skipIf(embedded)("waits for a migrator that finishes within the wait, then applies what is left", async () => {
    const url = await freshDatabase();
    const holder = await otherSession(url, MIGRATOR_APPLICATION_NAME);
    await holder.query("SELECT pg_advisory_lock(72707369)");
    const lines: string[] = [];
    const waiting = applyMigrations({
      connectionString: url,
      log: (line) => lines.push(line),
      timeouts: { lockWaitMs: 30_000 },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await holder.query("SELECT pg_advisory_unlock(72707369)");
    await holder.end();
    const result = await waiting;
    expect(lines[0]).toMatch(new RegExp(`^another migrator is running \\(pid \\d+, "${MIGRATOR_APPLICATION_NAME}"`));
    expect(result.applied).toEqual(migrationNames);
  });

  it.skipIf(embedded)(
    "a migration a long transaction blocks gives up after lock_timeout, is tried 3 times, names the transaction and leaves nothing",
    async () => {
      const url = await freshDatabase();
      const dir = await scratchMigrationsDir();
      await applyMigrations({ connectionString: url, migrationsDir: dir });
      await addMigration(dir, "29990101000000_add_product_note", 'ALTER TABLE "products" ADD COLUMN "note" TEXT;\n');

      // A report that reads products in a transaction it keeps open: ALTER TABLE needs it to end.
      const report = await otherSession(url, "monthly report");
      await report.query("BEGIN");
      await report.query('SELECT count(*) FROM "products"');
      // Meanwhile the shop goes on: a query queued behind the migration would wait only lock_timeout.
      const lines: string[] = [];
      try {
        await expect(
          applyMigrations({
            connectionString: url,
            migrationsDir: dir,
            log: (line) => lines.push(line),
            timeouts: { lockTimeoutMs: 300 },
          }),
        ).rejects.toThrow(
          /Migration 29990101000000_add_product_note could not get its locks within 0\.3 s \(lock_timeout\) in 3 attempts and was rolled back: canceling statement due to lock timeout\. A long transaction holds what it changes; the oldest open transactions now: pid \d+, "monthly report"/,
        );
      } finally {
        await report.query("ROLLBACK");
        await report.end();
      }
      expect(lines.filter((line) => line.includes("trying again"))).toHaveLength(2);
      expect((await migrationRows(url)).map((row) => row.migration_name)).toEqual(migrationNames);
      expect(await query(url, noteColumn)).toEqual([{ count: 0 }]);

      // The transaction ended between two attempts: the next attempt succeeds.
      const again = await otherSession(url, "monthly report");
      await again.query("BEGIN");
      await again.query('SELECT count(*) FROM "products"');
      setTimeout(() => void again.query("ROLLBACK").then(() => again.end()), 500);
      const retried: string[] = [];
      const result = await applyMigrations({
        connectionString: url,
        migrationsDir: dir,
        log: (line) => retried.push(line),
        timeouts: { lockTimeoutMs: 300 },
      });
      expect(result.applied).toEqual(["29990101000000_add_product_note"]);
      expect(retried.some((line) => line.includes("trying again in 1 s (attempt 2 of 3)"))).toBe(true);
      expect(await query(url, noteColumn)).toEqual([{ count: 1 }]);
    },
  );

  it.skipIf(embedded)("stops a statement that runs past statement_timeout, says so, and records nothing", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(dir, "29990101000000_slow_backfill", "SELECT pg_sleep(5);\n");
    await expect(
      applyMigrations({ connectionString: url, migrationsDir: dir, timeouts: { statementTimeoutMs: 300 } }),
    ).rejects.toThrow(
      /Migration 29990101000000_slow_backfill failed and was rolled back: canceling statement due to statement timeout \(statement_timeout: .*MIGRATE_STATEMENT_TIMEOUT_SECONDS/,
    );
    expect((await migrationRows(url)).map((row) => row.migration_name)).toEqual(migrationNames);
  });

  it.skipIf(embedded)(
    "npm run db:migrate with _prisma_migrations locked by another session exits 1 within lock_timeout, naming that session",
    async () => {
      const url = await freshDatabase();
      await applyMigrations({ connectionString: url });
      // An operator's transaction that locked the history table and was left open.
      const holder = await otherSession(url, "a forgotten psql");
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE _prisma_migrations IN ACCESS EXCLUSIVE MODE");
      const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      let run: { code: number; output: string; ms: number };
      try {
        const started = Date.now();
        run = await new Promise((resolve) =>
          execFile(
            "npm",
            ["run", "--silent", "db:migrate"],
            {
              cwd: root,
              env: { ...process.env, DATABASE_URL: url, DATABASE_URL_UNPOOLED: "", MIGRATE_LOCK_TIMEOUT_SECONDS: "1" },
              timeout: 30_000,
            },
            (error, stdout, stderr) =>
              resolve({
                // A process killed by the timeout has no exit code: never taken for the 1 expected.
                code: !error ? 0 : typeof error.code === "number" ? error.code : -1,
                output: `${stdout}${stderr}`,
                ms: Date.now() - started,
              }),
          ),
        );
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
      console.log(`[migrate.test] the migrator gave up on the locked history table after ${run.ms} ms`);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(
        new RegExp(
          `_prisma_migrations is locked by another session.*pid ${holderPid}, "a forgotten psql".*state idle in transaction.*in a transaction for \\d+ s`,
        ),
      );
      expect(run.output).toContain("MIGRATE_LOCK_TIMEOUT_SECONDS");
      // The lock wait is 1 s; npm and Node starting take the rest.
      expect(run.ms).toBeLessThan(20_000);
      // With the lock gone, the same command finds nothing to do.
      expect((await applyMigrations({ connectionString: url })).applied).toEqual([]);
    },
    60_000,
  );
});

describe("a -- no-transaction migration", () => {
  const noteIndex = 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "products_name_idx" ON "products"("name");\n';

  it("runs outside a transaction (CREATE INDEX CONCURRENTLY) and is recorded as Prisma records it", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(dir, "29990101000000_products_name_index", `-- no-transaction\n${noteIndex}`);
    const result = await applyMigrations({ connectionString: url, migrationsDir: dir });
    expect(result.applied.at(-1)).toBe("29990101000000_products_name_index");

    const [index] = await query<{ valid: boolean }>(
      url,
      "SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass('products_name_idx')",
    );
    expect(index).toEqual({ valid: true });
    const row = (await migrationRows(url)).find((r) => r.migration_name === "29990101000000_products_name_index")!;
    const file = await readFile(path.join(dir, row.migration_name, "migration.sql"));
    expect(row).toMatchObject({
      checksum: createHash("sha256").update(file).digest("hex"),
      applied_steps_count: 1,
      rolled_back_at: null,
      logs: null,
    });
    expect(row.finished_at).toBeInstanceOf(Date);
    expect((await applyMigrations({ connectionString: url, migrationsDir: dir })).applied).toEqual([]);
  });

  it("without the marker, the same file fails inside the migrator's transaction and leaves nothing", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(dir, "29990101000000_products_name_index", noteIndex);
    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /Migration 29990101000000_products_name_index failed and was rolled back: CREATE INDEX CONCURRENTLY cannot run inside a transaction block/,
    );
    expect((await migrationRows(url)).map((row) => row.migration_name)).toEqual(migrationNames);
  });

  it("that fails stays recorded as failed, with the error, and blocks later migrations until resolved", async () => {
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await addMigration(
      dir,
      "29990101000000_bad_index",
      '-- no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "products_nope_idx" ON "products"("nope");\n',
    );
    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /Migration 29990101000000_bad_index failed outside a transaction: column "nope" does not exist.*recorded as failed/,
    );
    const row = (await migrationRows(url)).find((r) => r.migration_name === "29990101000000_bad_index")!;
    expect(row).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(row.logs).toMatch(/column "nope" does not exist/);
    await expect(applyMigrations({ connectionString: url, migrationsDir: dir })).rejects.toThrow(
      /P3009[\s\S]*29990101000000_bad_index/,
    );
  });
});

describe("the expand/contract example of docs/database.md", () => {
  it("expand keeps the old and the new column equal whichever release writes; contract then drops the old one", async () => {
    const docs = await readFile(path.join(root, "docs", "database.md"), "utf8");
    const [expand, contract] = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const url = await freshDatabase();
    const dir = await scratchMigrationsDir();
    await applyMigrations({ connectionString: url, migrationsDir: dir });
    await query(
      url,
      `INSERT INTO "orders" ("external_transaction_id", "amount_aoa", "client_id", "cancel_reason")
       VALUES ('order_' || gen_random_uuid(), 1000, 'before', 'hold_expired')`,
    );

    await addMigration(dir, "29990101000000_orders_why_cancelled", expand!);
    await applyMigrations({ connectionString: url, migrationsDir: dir });
    const reasons = () =>
      query<{ client_id: string; cancel_reason: string | null; why_cancelled: string | null }>(
        url,
        `SELECT "client_id", "cancel_reason", "why_cancelled" FROM "orders" ORDER BY "client_id"`,
      );
    // The release before writes only the old column, this one only the new column.
    await query(
      url,
      `INSERT INTO "orders" ("external_transaction_id", "amount_aoa", "client_id", "cancel_reason")
       VALUES ('order_' || gen_random_uuid(), 1000, 'old release', 'abandoned')`,
    );
    await query(
      url,
      `INSERT INTO "orders" ("external_transaction_id", "amount_aoa", "client_id", "why_cancelled")
       VALUES ('order_' || gen_random_uuid(), 1000, 'new release', 'creation_failed')`,
    );
    expect(await reasons()).toEqual([
      { client_id: "before", cancel_reason: "hold_expired", why_cancelled: "hold_expired" },
      { client_id: "new release", cancel_reason: "creation_failed", why_cancelled: "creation_failed" },
      { client_id: "old release", cancel_reason: "abandoned", why_cancelled: "abandoned" },
    ]);
    await query(url, `UPDATE "orders" SET "cancel_reason" = 'edited by old' WHERE "client_id" = 'new release'`);
    await query(url, `UPDATE "orders" SET "why_cancelled" = 'edited by new' WHERE "client_id" = 'old release'`);
    expect(await reasons()).toEqual([
      { client_id: "before", cancel_reason: "hold_expired", why_cancelled: "hold_expired" },
      { client_id: "new release", cancel_reason: "edited by old", why_cancelled: "edited by old" },
      { client_id: "old release", cancel_reason: "edited by new", why_cancelled: "edited by new" },
    ]);

    await addMigration(dir, "29990102000000_orders_drop_cancel_reason", contract!);
    await applyMigrations({ connectionString: url, migrationsDir: dir });
    expect(await query(url, `SELECT "client_id", "why_cancelled" FROM "orders" ORDER BY "client_id"`)).toEqual([
      { client_id: "before", why_cancelled: "hold_expired" },
      { client_id: "new release", why_cancelled: "edited by old" },
      { client_id: "old release", why_cancelled: "edited by new" },
    ]);
    expect(
      await query(
        url,
        "SELECT count(*)::int AS count FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'cancel_reason'",
      ),
    ).toEqual([{ count: 0 }]);
  });
});
