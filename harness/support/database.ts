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
