import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "../../scripts/db/migrate.mjs";
import { createScratchDatabase, type ScratchDatabase } from "../scratch-database";

/**
 * A fresh, empty database for one test run or one test file (harness/scratch-database.ts):
 * with DATABASE_URL set (CI), a new database on that server, dropped afterwards; otherwise an
 * in-memory embedded PostgreSQL (PGlite).
 */
export type TestDatabase = ScratchDatabase;

export function createTestDatabase(label = "test"): Promise<TestDatabase> {
  // tests/setup/env.ts points DATABASE_URL at the suite's database and keeps the server's here
  // ("" when there is none, which means embedded PGlite).
  const serverUrl = process.env.TEST_SERVER_DATABASE_URL || undefined;
  return createScratchDatabase({ label, serverUrl });
}

const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

/**
 * Applies every migration before `firstMigration` (a folder name under prisma/migrations) to the
 * database at `connectionString`: the schema the release before that step runs on, for a test
 * that fills it as that release would, then applies the rest (`applyMigrations`) on that data.
 */
export async function migrateBefore(connectionString: string, firstMigration: string): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), `migrations-before-${firstMigration}-`));
  try {
    await cp(MIGRATIONS_DIR, scratch, { recursive: true });
    for (const name of await readdir(scratch))
      if (name >= firstMigration && name !== "migration_lock.toml")
        await rm(path.join(scratch, name), { recursive: true });
    await applyMigrations({ connectionString, migrationsDir: scratch });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The shop's client for a test's own database, as lib/db/client.ts makes it: a Prisma client over
 * a `pg` pool, and that pool (for `dbPool()`, which the webhook's path runs on). Ending the client
 * ends the pool. One connection on embedded PGlite unless told otherwise.
 */
export function clientOf(connectionString: string, max = process.env.TEST_SERVER_DATABASE_URL ? 10 : 1) {
  const pool = new pg.Pool({ connectionString, max, pipeline: true });
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return { client, pool };
}
