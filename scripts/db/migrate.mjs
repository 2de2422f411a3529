// @ts-check
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * Applies prisma/migrations/<name>/migration.sql the way `prisma migrate deploy` would, for
 * machines where Prisma's native schema engine cannot be downloaded (docs/database.md).
 * It records each migration in `_prisma_migrations` exactly as Prisma does, so the real
 * `prisma migrate deploy` later sees the same history and has nothing to do.
 *
 * Plain JavaScript (type-checked through JSDoc) on purpose: it runs where no TypeScript runner
 * is installed (`npm run db:migrate` after `npm prune --omit=dev`, the container's migrate
 * step, `vercel-build`), and it needs nothing of the app's configuration but a database URL.
 * It needs a direct connection (not a transaction-mode pooler): it holds a session advisory lock.
 */

const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

/**
 * The session advisory lock key Prisma Migrate itself takes, so this migrator and a
 * `prisma migrate deploy` running at the same moment also wait for each other.
 */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** Prisma's own DDL for its history table (schema engine, PostgreSQL flavour). */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

/** As in Prisma, a migration counts as applied when it finished and `migrate resolve` did not mark it rolled back. */
const APPLIED_ROW_CONDITION = "finished_at IS NOT NULL AND rolled_back_at IS NULL";

/**
 * @typedef {object} ApplyMigrationsOptions
 * @property {string} connectionString
 * @property {string} [migrationsDir] Defaults to this repository's prisma/migrations.
 * @property {(line: string) => void} [log]
 */

/**
 * @typedef {object} ApplyMigrationsResult
 * @property {string[]} applied Migrations this call applied, in order.
 * @property {string[]} alreadyApplied Migrations already recorded as applied (possibly by a concurrent migrator).
 */

/**
 * @typedef {object} LocalMigration
 * @property {string} name The directory name, e.g. 20261121000000_init; also `_prisma_migrations.migration_name`.
 * @property {string} sql
 * @property {string} checksum sha256 (hex) of the migration.sql bytes, as Prisma computes it.
 */

/**
 * @typedef {object} MigrationRow
 * @property {string} migration_name
 * @property {string} checksum
 * @property {Date} started_at
 * @property {Date | null} finished_at
 * @property {Date | null} rolled_back_at
 */

/** A problem that stops migrating; its message says what to do about it. */
export class MigrationError extends Error {
  /**
   * @param {string} message
   * @param {{ cause?: unknown }} [options]
   */
  constructor(message, options) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** @param {MigrationRow} row */
const isAppliedRow = (row) => row.finished_at !== null && row.rolled_back_at === null;

/**
 * @param {ApplyMigrationsOptions} options
 * @returns {Promise<ApplyMigrationsResult>}
 */
export async function applyMigrations(options) {
  const log = options.log ?? (() => {});
  const migrations = await readLocalMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);

  const client = new pg.Client({ connectionString: options.connectionString });
  await client.connect();
  try {
    await acquireMigrateLock(client, log);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const rows = (
        await client.query(
          "SELECT migration_name, checksum, started_at, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at",
        )
      ).rows;
      refuseFailedMigrations(rows);

      /** @type {LocalMigration[]} */
      const pending = [];
      /** @type {string[]} */
      const alreadyApplied = [];
      for (const migration of migrations) {
        const row = rows.find((r) => r.migration_name === migration.name && isAppliedRow(r));
        if (!row) {
          pending.push(migration);
          continue;
        }
        if (!matchesRecordedChecksum(migration.sql, row.checksum)) {
          throw new MigrationError(
            `Migration ${migration.name} was modified after it was applied: its migration.sql now has checksum ` +
              `${migration.checksum}, the database recorded ${row.checksum}. An applied migration must never change; ` +
              "restore the file and put the change in a new migration.",
          );
        }
        alreadyApplied.push(migration.name);
      }

      /** @type {string[]} */
      const applied = [];
      for (const migration of pending) {
        if (await applyInTransaction(client, migration, log)) applied.push(migration.name);
        else alreadyApplied.push(migration.name);
      }
      return { applied, alreadyApplied };
    } finally {
      // Ending the session releases the lock on a real server anyway, so a failure here must
      // not hide the error that brought us here. (On PGlite the lock is re-entrant; see below.)
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

/**
 * @param {string} migrationsDir
 * @returns {Promise<LocalMigration[]>}
 */
async function readLocalMigrations(migrationsDir) {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error) => {
    throw new MigrationError(`Cannot read the migrations directory ${migrationsDir}`, { cause: error });
  });
  // Prisma orders migrations by directory name, which starts with a UTC timestamp.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      const bytes = await readFile(file).catch((error) => {
        throw new MigrationError(`Migration ${name} has no readable migration.sql (${file})`, { cause: error });
      });
      return { name, sql: bytes.toString("utf8"), checksum: sha256(bytes) };
    }),
  );
}

/**
 * @param {pg.Client} client
 * @param {(line: string) => void} log
 */
async function acquireMigrateLock(client, log) {
  const { rows } = await client.query("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_MIGRATE_LOCK_KEY]);
  if (rows[0]?.locked) return;
  log("another migrator is running; waiting for it to finish");
  await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
}

/**
 * Prisma's P3009: after a failed migration nobody knows the schema's state, so stop.
 * @param {MigrationRow[]} rows
 */
function refuseFailedMigrations(rows) {
  const failed = rows.filter((row) => !row.finished_at && !row.rolled_back_at);
  if (failed.length === 0) return;
  const list = failed.map((row) => `  - ${row.migration_name} (started ${row.started_at.toISOString()})`).join("\n");
  throw new MigrationError(
    "Found failed migrations in the database, so no new migrations were applied (Prisma's P3009):\n" +
      `${list}\n` +
      "Check what they changed and repair the database, then mark each one with " +
      "`npx prisma migrate resolve --rolled-back <name>` (or `--applied <name>`) where Prisma's engine is available, " +
      "or set rolled_back_at = now() on its _prisma_migrations row.",
  );
}

/**
 * Runs one migration and records it in a single transaction, so a failure leaves neither a
 * half-applied schema nor a history row behind. Returns false when another migrator got there first.
 * @param {pg.Client} client
 * @param {LocalMigration} migration
 * @param {(line: string) => void} log
 * @returns {Promise<boolean>}
 */
async function applyInTransaction(client, migration, log) {
  await client.query("BEGIN");
  try {
    // Under the advisory lock this finds nothing on a real server. PGlite's socket server runs
    // every connection on one shared session, where the lock is re-entrant and only its
    // one-transaction-at-a-time queue keeps two migrators apart, so look again inside the transaction.
    const recorded = await client.query(
      `SELECT 1 FROM _prisma_migrations WHERE migration_name = $1 AND ${APPLIED_ROW_CONDITION}`,
      [migration.name],
    );
    if (recorded.rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    log(`applying ${migration.name}`);
    // What the migration tells whoever runs it (RAISE WARNING …): shown, not lost.
    /** @param {import("pg-protocol/dist/messages.js").NoticeMessage} notice */
    const relay = (notice) =>
      log(
        `${migration.name}: ${notice.severity ?? "NOTICE"}: ${notice.message}${notice.hint ? ` (${notice.hint})` : ""}`,
      );
    client.on("notice", relay);
    // Without parameters pg uses the simple query protocol, which accepts a whole multi-statement file.
    await client
      .query(migration.sql)
      .catch((error) => {
        throw new MigrationError(
          `Migration ${migration.name} failed and was rolled back: ${describeSqlError(error, migration.sql)}`,
          { cause: error },
        );
      })
      .finally(() => client.off("notice", relay));
    // now() is the transaction's start and clock_timestamp() the present: the same two instants Prisma records.
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Like Prisma, accept a file whose line endings git converted after it was applied
 * (for example a Windows checkout with core.autocrlf), but nothing else.
 * @param {string} sql
 * @param {string} recordedChecksum
 */
function matchesRecordedChecksum(sql, recordedChecksum) {
  const variants = [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")];
  return variants.some((variant) => sha256(variant) === recordedChecksum);
}

/** @param {string | Buffer} content */
function sha256(content) {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * The server's message, plus the line of migration.sql it points at when it points at one.
 * @param {unknown} error
 * @param {string} sql
 */
function describeSqlError(error, sql) {
  if (!(error instanceof Error)) return String(error);
  const position = error instanceof pg.DatabaseError ? Number(error.position) : Number.NaN;
  if (!Number.isInteger(position) || position < 1) return error.message;
  const line = sql.slice(0, position - 1).split("\n").length;
  return `${error.message} (migration.sql line ${line})`;
}
