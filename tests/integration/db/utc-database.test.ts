import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { sessionTimeZone } from "@/lib/db/time-zone";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// Migration 20261124000000_utc_database: the database's own default time zone, UTC, instead of
// a per-connection setting that a transaction-mode pooler refuses (docs/database-connections.md, "Time zone").

const serverUrl = process.env.TEST_SERVER_DATABASE_URL || undefined;
const databases: TestDatabase[] = [];
afterAll(() => Promise.all(databases.map((database) => database.drop())));

async function freshDatabase(): Promise<string> {
  const database = await createTestDatabase("utc");
  databases.push(database);
  return database.url;
}

/** The database's own settings, as ALTER DATABASE … SET left them (role settings aside). */
const databaseSettings = (url: string) =>
  withPgClient(url, async (client) => {
    const { rows } = await client.query<{ setconfig: string[] }>(
      `SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
       WHERE d.datname = current_database() AND s.setrole = 0`,
    );
    return rows.flatMap((row) => row.setconfig);
  });

const setDatabaseTimeZone = (url: string, zone: string) =>
  withPgClient(url, (client) =>
    client.query(
      `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET "TimeZone" TO %L', current_database(), '${zone}'); END $$`,
    ),
  );

it("sets the database's default time zone to UTC, inside the migrator's transaction", async () => {
  const url = await freshDatabase();
  await applyMigrations({ connectionString: url });
  // With the catalogue's typo threshold (migration 20261128000000).
  expect(await databaseSettings(url)).toEqual(["TimeZone=UTC", "pg_trgm.word_similarity_threshold=0.45"]);
  expect(await withPgClient(url, sessionTimeZone)).toEqual({ timeZone: "UTC", utc: true });
});

// Embedded PGlite runs one session for good, so a database default never reaches a new one there.
describe.runIf(serverUrl)("on a PostgreSQL server", () => {
  it("new sessions start in UTC wherever the database was before; sessions already open keep their zone", async () => {
    const url = await freshDatabase();
    await setDatabaseTimeZone(url, "Pacific/Kiritimati");
    await withPgClient(url, async (before) => {
      expect((await sessionTimeZone(before)).timeZone).toBe("Pacific/Kiritimati");
      await applyMigrations({ connectionString: url });
      expect((await sessionTimeZone(before)).timeZone).toBe("Pacific/Kiritimati");
    });
    expect(await withPgClient(url, sessionTimeZone)).toEqual({ timeZone: "UTC", utc: true });
  });

  it("a migrating role that does not own the database sets UTC for itself, and the migrator shows the WARNING", async () => {
    // Not in `databases`: it must be dropped before its role.
    const database = await createTestDatabase("utc");
    const url = database.url;
    await setDatabaseTimeZone(url, "Pacific/Kiritimati");
    const role = `shop_migrator_${randomBytes(4).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    await withPgClient(url, async (admin) => {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      await admin.query(`GRANT ALL ON SCHEMA public TO ${role}`);
      // What creating the search's trusted extensions (unaccent, pg_trgm) takes; not ownership.
      await admin.query(
        `DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO ${role}', current_database()); END $$`,
      );
    });
    try {
      const roleUrl = new URL(url);
      roleUrl.username = role;
      roleUrl.password = password;
      const lines: string[] = [];
      await applyMigrations({ connectionString: roleUrl.toString(), log: (line) => lines.push(line) });

      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^20261124000000_utc_database: WARNING: role ${role} may not alter database .*only its own sessions`,
          ),
        ),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^20261128000000_catalogue: WARNING: role ${role} may not alter database .*0\\.45`),
        ),
      );
      // The database keeps its zone for everyone else; the migrating role's sessions start in UTC.
      expect(await databaseSettings(url)).toEqual(["TimeZone=Pacific/Kiritimati"]);
      expect(await withPgClient(url, sessionTimeZone)).toMatchObject({ timeZone: "Pacific/Kiritimati", utc: false });
      expect(await withPgClient(roleUrl.toString(), sessionTimeZone)).toEqual({ timeZone: "UTC", utc: true });
    } finally {
      // The role owns the migrated tables: they go with the database, then the role can.
      await database.drop();
      await withPgClient(serverUrl!, (admin) => admin.query(`DROP ROLE ${role}`));
    }
  });
});
