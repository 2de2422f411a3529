import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../../../harness/embedded-postgres";

// The embedded PostgreSQL behind `npm run dev` without DATABASE_URL: PGlite's single session
// shared by a pool of connections (harness/pglite-query-queue.ts).

let embedded: EmbeddedPostgres;
let pool: pg.Pool;

beforeAll(async () => {
  embedded = await startEmbeddedPostgres({});
  pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
  await pool.query("CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)");
  await pool.query("INSERT INTO counters VALUES (1, 0)");
});

afterAll(async () => {
  await pool.end();
  await embedded.stop();
});

describe("many connections on one embedded session", () => {
  it("runs each connection's transaction alone: 30 concurrent read-modify-write transactions lose no update", async () => {
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const { rows } = await client.query<{ n: number }>("SELECT n FROM counters WHERE id = $1", [1]);
          await client.query("UPDATE counters SET n = $1 WHERE id = $2", [rows[0]!.n + 1, 1]);
          await client.query("COMMIT");
        } finally {
          client.release();
        }
      }),
    );
    expect((await pool.query<{ n: number }>("SELECT n FROM counters WHERE id = 1")).rows[0]!.n).toBe(30);
  });

  it("a rolled-back transaction of one connection never undoes another's work", async () => {
    await pool.query("CREATE TABLE notes (text text)");
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          await client.query("INSERT INTO notes VALUES ($1)", [`note ${i}`]);
          await client.query(i % 2 ? "ROLLBACK" : "COMMIT");
        } finally {
          client.release();
        }
      }),
    );
    expect((await pool.query<{ count: string }>("SELECT count(*) FROM notes")).rows[0]!.count).toBe("10");
  });
});
