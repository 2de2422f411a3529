import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres";

/**
 * A fresh, empty database for one test run or one test file.
 * With DATABASE_URL set (CI), a new database on that server, dropped afterwards;
 * otherwise an in-memory embedded PostgreSQL (PGlite), the README's default.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(label = "test"): Promise<TestDatabase> {
  // tests/setup/env.ts points DATABASE_URL at the suite's database and keeps the server's here.
  const serverUrl = process.env.TEST_SERVER_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres({});
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = `shop_${label}_${process.pid}_${randomBytes(4).toString("hex")}`.toLowerCase();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
