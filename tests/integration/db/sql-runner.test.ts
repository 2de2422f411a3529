import { afterEach, describe, expect, it } from "vitest";
import { db, dbPool } from "@/lib/db/client";
import { pgRunner, transactionOn } from "@/lib/db/sql-runner";
import { Prisma } from "@/lib/generated/prisma/client";
import { countSocketWrites } from "../../../harness/support/socket-writes";

// lib/db/sql-runner.ts sends a Prisma.Sql through `pg` itself: what it answers must be what
// Prisma's $queryRaw answers for the same statement, or a function written for one would read
// something else on the other. Against the suite's real database (PostgreSQL, or PGlite).

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** The same statement through Prisma and through pgRunner, plain values for comparison (bytes as arrays). */
async function bothAnswers(statement: Prisma.Sql) {
  const plain = (rows: Record<string, unknown>[]) =>
    rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([name, value]) => [name, value instanceof Uint8Array ? [...value] : value]),
      ),
    );
  const [prisma, driver] = await Promise.all([
    db().$queryRaw<Record<string, unknown>[]>(statement),
    pgRunner(dbPool()).$queryRaw<Record<string, unknown>[]>(statement),
  ]);
  return { prisma: plain(prisma), driver: plain(driver) };
}

describe("pgRunner", () => {
  it("reads every column type the shop's statements return as Prisma's $queryRaw does", async () => {
    const { prisma, driver } = await bothAnswers(Prisma.sql`
SELECT 7::int AS int4, 9007199254740993::int8 AS int8, count(*) AS counted, 1234.50::numeric(12,2) AS numeric,
       'Kz'::text AS text, true AS bool, '2f1c62c3-8d2b-4c8e-9a43-2a8b8f0c6a11'::uuid AS uuid,
       '2026-11-28 23:59:58.123'::timestamp AS stored, '2026-11-28 00:30:00+01'::timestamptz AS zoned,
       '2026-11-28'::date AS day, '{"a": [1, "b"]}'::jsonb AS document, ARRAY[3, 1]::int[] AS numbers,
       ARRAY['x', 'y']::text[] AS words, '\\x01ff'::bytea AS bytes, NULL::timestamp AS nothing
FROM (VALUES (1), (2)) AS two (n)`);
    expect(driver).toEqual(prisma);
    expect(driver[0]).toMatchObject({
      int8: 9007199254740993n,
      counted: 2n,
      stored: new Date("2026-11-28T23:59:58.123Z"),
      zoned: new Date("2026-11-27T23:30:00Z"),
      day: new Date("2026-11-28T00:00:00Z"),
    });
    expect(String(driver[0]!.numeric)).toBe("1234.5");
  });

  it("sends dates, decimals, bigints, bytes and arrays as Prisma does, in a process that is not on UTC", async () => {
    process.env.TZ = "Africa/Luanda";
    const at = new Date("2026-11-28T23:30:00.250Z");
    const { prisma, driver } = await bothAnswers(Prisma.sql`
SELECT ${at}::timestamp AS stored, ${at}::timestamptz AS zoned, ${new Prisma.Decimal("99.95")}::numeric AS price,
       ${12n}::int8 AS big, ${Buffer.from([0, 1, 2])}::bytea AS bytes, ${["a", "b"]}::text[] AS words,
       ${[1, 2]}::int[] AS numbers, ${null}::text AS nothing`);
    expect(driver).toEqual(prisma);
    expect(driver[0]).toMatchObject({ stored: at, zoned: at, big: 12n, words: ["a", "b"] });
  });

  it("commits a transaction's work, and rolls it all back when the work fails", async () => {
    const runner = pgRunner(dbPool());
    const key = `sql-runner-test:${Date.now()}:${Math.random()}`;
    const insert = (suffix: string) =>
      Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${`${key}:${suffix}`}, 1) RETURNING key`;
    await runner.$transaction(async (tx) => {
      await tx.$queryRaw(insert("kept"));
      // Joined, not a second transaction.
      await tx.$transaction((inner) => inner.$queryRaw(insert("joined")));
    });
    const failure = runner.$transaction(async (tx) => {
      await tx.$queryRaw(insert("undone"));
      throw new Error("the work failed");
    });
    await expect(failure).rejects.toThrow("the work failed");
    const rows = await db().rateLimit.findMany({ where: { key: { startsWith: key } }, select: { key: true } });
    expect(rows.map((row) => row.key.slice(key.length + 1)).sort()).toEqual(["joined", "kept"]);
  });

  it("sends a transaction's first statement behind its BEGIN, in the same write, before BEGIN has answered, and commits it", async () => {
    const key = `sql-runner-test:${Date.now()}:${Math.random()}`;
    const connection = await dbPool().connect();
    expect(connection.pipeline).toBe(true);
    // Each write to the socket is a system call: BEGIN with the statement, then COMMIT.
    const writes = countSocketWrites(connection.connection.stream);
    let begunAnswered = false;
    const query = connection.query.bind(connection) as (...args: unknown[]) => Promise<unknown>;
    let first = true;
    (connection as unknown as { query: typeof query }).query = (...args) => {
      const answer = query(...args);
      if (first) void answer.then(() => (begunAnswered = true));
      first = false;
      return answer;
    };
    let sentBeforeBeginAnswered: boolean | undefined;
    const kept = await transactionOn(connection, (tx) => {
      sentBeforeBeginAnswered = !begunAnswered;
      return tx.$queryRaw<{ key: string }[]>(
        Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1) RETURNING key`,
      );
    });
    writes.stop();
    expect(sentBeforeBeginAnswered).toBe(true);
    expect(writes.count).toBe(2);
    expect(kept).toEqual([{ key }]);
    expect(await db().rateLimit.count({ where: { key } })).toBe(1);
  });

  it("reports a BEGIN that failed, and commits nothing of the statement sent behind it", async () => {
    const key = `sql-runner-test:${Date.now()}:${Math.random()}`;
    const connection = await dbPool().connect();
    const attempt = transactionOn(
      connection,
      (tx) => tx.$queryRaw(Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1) RETURNING key`),
      // A setting PostgreSQL refuses: the transaction is aborted before the statement runs.
      { begin: "BEGIN; SELECT set_config('lock_timeout', 'soon', true)" },
    );
    await expect(attempt).rejects.toMatchObject({ code: "22023" });
    expect(await db().rateLimit.count({ where: { key } })).toBe(0);
  });

  // pg_terminate_backend: embedded PGlite has one session for every connection.
  it.skipIf(!process.env.TEST_SERVER_DATABASE_URL)(
    "fails the transaction of a connection that breaks mid-way, without an uncaught error, and the pool goes on",
    async () => {
      const key = `sql-runner-test:${Date.now()}:${Math.random()}`;
      const uncaught: unknown[] = [];
      const keep = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", keep);
      try {
        const connection = await dbPool().connect();
        const { pid } = (await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!;
        const attempt = transactionOn(connection, async (tx) => {
          await tx.$queryRaw(Prisma.sql`INSERT INTO rate_limits (key, points) VALUES (${key}, 1) RETURNING key`);
          // A database restart, as the connection sees it: the server ends its session.
          await db().$queryRaw(Prisma.sql`SELECT pg_terminate_backend(${pid}::int)`);
          await tx.$queryRaw(Prisma.sql`SELECT pg_sleep(0.2)`);
        });
        await expect(attempt).rejects.toThrow();
        // The client's own "error" event has had its turn.
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        process.off("uncaughtException", keep);
      }
      expect(uncaught).toEqual([]);
      expect(await db().rateLimit.count({ where: { key } })).toBe(0);
      expect((await dbPool().query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    },
  );
});
