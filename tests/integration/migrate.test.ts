import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";

// The migrator against empty databases of its own: what it records must be exactly what
// `prisma migrate deploy` would record, and it must never apply a migration twice.

const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

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
    const noteColumn =
      "SELECT count(*)::int AS count FROM information_schema.columns WHERE table_name = 'products' AND column_name = 'note'";
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
