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
 *
 * It never hangs a deploy: it waits a bounded time for another migrator's lock (naming who holds
 * it when it gives up), and every statement of its session runs under a `lock_timeout` and a
 * `statement_timeout`, its own bookkeeping on `_prisma_migrations` included: a migration queued
 * behind a long transaction gives up (and is tried again) instead of making every query on the
 * table wait behind it, and a history table another session holds locked stops it at once,
 * naming that session. Only a `-- no-transaction` migration's own SQL runs without `lock_timeout`.
 */

const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

/**
 * The session advisory lock key Prisma Migrate itself takes, so this migrator and a
 * `prisma migrate deploy` running at the same moment also wait for each other.
 */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** What the migrator's sessions are called in pg_stat_activity, so a waiting migrator can name a running one. */
export const MIGRATOR_APPLICATION_NAME = "pay-storefront migrate";

/**
 * The first line that makes a migration run outside a transaction, as Prisma runs every migration:
 * for a statement PostgreSQL refuses inside one (`CREATE INDEX CONCURRENTLY`). It must then hold one
 * statement: PostgreSQL runs several statements sent together in one implicit transaction.
 */
export const NO_TRANSACTION_MARKER = "-- no-transaction";

/**
 * How long the migrator waits, in milliseconds (scripts/db/connection.mjs reads them from the
 * environment): for another migrator's advisory lock; for a lock on what a migration changes
 * (`lock_timeout`, on transactional migrations); for one statement (`statement_timeout`).
 */
export const DEFAULT_TIMEOUTS = Object.freeze({
  lockWaitMs: 120_000,
  lockTimeoutMs: 5_000,
  statementTimeoutMs: 300_000,
});

/** Prisma's history table, which the migrator reads and writes. */
const HISTORY_TABLE = "_prisma_migrations";

/** A transactional migration that could not get its locks within `lock_timeout` is tried this many times in all. */
const LOCK_ATTEMPTS = 3;

/** PostgreSQL's SQLSTATEs for a lock wait that ran out (`lock_timeout`) and a cancelled statement (`statement_timeout`). */
const LOCK_NOT_AVAILABLE = "55P03";
const QUERY_CANCELED = "57014";

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
 * @property {Partial<MigratorTimeouts>} [timeouts] Defaults to DEFAULT_TIMEOUTS.
 */

/**
 * @typedef {object} MigratorTimeouts
 * @property {number} lockWaitMs How long to wait for another migrator to finish.
 * @property {number} lockTimeoutMs `lock_timeout` of transactional migrations.
 * @property {number} statementTimeoutMs `statement_timeout` of every migration.
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
 * @property {boolean} transactional False when its first line is NO_TRANSACTION_MARKER.
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
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const migrations = await readLocalMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);

  const client = new pg.Client({
    connectionString: options.connectionString,
    application_name: MIGRATOR_APPLICATION_NAME,
  });
  await client.connect();
  try {
    // Before anything else: every statement from here on gives up on a lock it cannot get in time.
    await setSessionTimeout(client, "lock_timeout", timeouts.lockTimeoutMs);
    await setSessionTimeout(client, "statement_timeout", timeouts.statementTimeoutMs);
    await acquireMigrateLock(client, timeouts.lockWaitMs, log);
    try {
      const rows = await onHistoryTable(client, timeouts, async () => {
        await client.query(CREATE_MIGRATIONS_TABLE);
        return (
          await client.query(
            "SELECT migration_name, checksum, started_at, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at",
          )
        ).rows;
      });
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
        const done = migration.transactional
          ? await applyInTransaction(client, migration, timeouts, log)
          : await applyWithoutTransaction(client, migration, timeouts, log);
        (done ? applied : alreadyApplied).push(migration.name);
      }
      return { applied, alreadyApplied };
    } finally {
      // Ending the session releases the lock on a real server anyway, so a failure here must
      // not hide the error that brought us here. PGlite runs every connection in one shared
      // session, where the lock is re-entrant and the settings would outlive this connection.
      await client.query("RESET lock_timeout; RESET statement_timeout").catch(() => undefined);
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

/**
 * The migrations of a directory in Prisma's layout, in the order they apply.
 * @param {string} [migrationsDir] Defaults to this repository's prisma/migrations.
 * @returns {Promise<LocalMigration[]>}
 */
export async function readLocalMigrations(migrationsDir = DEFAULT_MIGRATIONS_DIR) {
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
      const sql = bytes.toString("utf8");
      return { name, sql, checksum: sha256(bytes), transactional: !isNoTransactionMigration(sql) };
    }),
  );
}

/** @param {string} sql */
const isNoTransactionMigration = (sql) => sql.split(/\r?\n/, 1)[0]?.trim() === NO_TRANSACTION_MARKER;

/**
 * A session setting in milliseconds, for this session (a parameter, so never spliced into SQL).
 * @param {pg.Client} client
 * @param {"lock_timeout" | "statement_timeout"} setting
 * @param {number} ms 0 turns it off.
 */
async function setSessionTimeout(client, setting, ms) {
  await client.query("SELECT set_config($1, $2, false)", [setting, `${Math.max(0, Math.round(ms))}ms`]);
}

/** How often a waiting migrator asks for the migrate lock again. */
const LOCK_POLL_MS = 250;

/**
 * Waits at most `waitMs` for the migrate lock. It asks again every LOCK_POLL_MS rather than
 * blocking in pg_advisory_lock: a blocked statement keeps its transaction open, and the holder's
 * `CREATE INDEX CONCURRENTLY` (a `-- no-transaction` migration) waits for every open transaction
 * to end, so the two would wait for each other until PostgreSQL's deadlock detector killed one.
 * Giving up names the session that holds it.
 * @param {pg.Client} client
 * @param {number} waitMs
 * @param {(line: string) => void} log
 */
async function acquireMigrateLock(client, waitMs, log) {
  const tryLock = async () =>
    (await client.query("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_MIGRATE_LOCK_KEY])).rows[0]?.locked ===
    true;
  if (await tryLock()) return;
  log(
    `another migrator is running (${await describeLockHolder(client)}); waiting up to ${seconds(waitMs)} for it to finish`,
  );
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_POLL_MS, Math.max(0, deadline - Date.now()))));
    if (await tryLock()) return;
  }
  throw new MigrationError(
    `Gave up after ${seconds(waitMs)} waiting for another migrator to finish; nothing was applied. ` +
      `It holds the migrate lock (pg_advisory_lock(${PRISMA_MIGRATE_LOCK_KEY})): ${await describeLockHolder(client)}. ` +
      "Let it finish and deploy again, or end that session (SELECT pg_terminate_backend(<pid>)) if it is stuck. " +
      "MIGRATE_LOCK_WAIT_SECONDS sets how long to wait.",
  );
}

/**
 * Who holds the migrate lock, from pg_stat_activity (what a role may see of other roles' sessions).
 * @param {pg.Client} client
 */
async function describeLockHolder(client) {
  const { rows } = await client.query(
    `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.usename, a.state,
            ${secondsSince("a.backend_start")} AS seconds
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
    [PRISMA_MIGRATE_LOCK_KEY],
  );
  const holder = rows[0];
  // On PGlite every connection is the same session, and a lock held elsewhere may have just been released.
  if (!holder) return "its session is not visible here";
  return describeSession(holder, "connected");
}

/**
 * Whole seconds from `column` (a timestamptz of pg_stat_activity) to now, in SQL: the server's
 * clock, whatever this machine's says.
 * @param {string} column
 */
const secondsSince = (column) => `floor(extract(epoch FROM now() - ${column}))::int`;

/**
 * A session as pg_stat_activity shows it, for a message: who, from where, in which state and for
 * how long. Never its query: the text of another session's statement may carry shoppers' data.
 * @param {{ pid: number, application_name?: string | null, client_addr?: string | null, usename?: string | null,
 *   state?: string | null, seconds?: number | null, mode?: string | null }} session
 * @param {"connected" | "in a transaction"} since What `seconds` counts from.
 */
function describeSession(session, since) {
  const parts = [
    `pid ${session.pid}`,
    session.application_name ? `"${session.application_name}"` : "no application_name",
    session.usename ? `user ${session.usename}` : undefined,
    session.client_addr ? `from ${session.client_addr}` : undefined,
    session.state ? `state ${session.state}` : undefined,
    typeof session.seconds === "number" ? `${since} for ${session.seconds} s` : undefined,
    session.mode ? `holding ${session.mode}` : undefined,
  ];
  return parts.filter(Boolean).join(", ");
}

/**
 * The sessions whose transactions have been open longest (other than ours): what a migration waits behind.
 * @param {pg.Client} client
 */
async function describeLongTransactions(client) {
  const { rows } = await client.query(
    `SELECT pid, application_name, host(client_addr) AS client_addr, usename, state, ${secondsSince("xact_start")} AS seconds
       FROM pg_stat_activity
      WHERE pid <> pg_backend_pid() AND xact_start IS NOT NULL AND datname = current_database()
      ORDER BY xact_start LIMIT 3`,
  );
  if (rows.length === 0) return "no other transaction is open now";
  return `the oldest open transactions now: ${rows.map((row) => describeSession(row, "in a transaction")).join("; ")}`;
}

/**
 * The sessions that hold a lock on the history table (other than ours), longest first.
 * @param {pg.Client} client
 */
async function describeHistoryTableHolders(client) {
  const { rows } = await client.query(
    `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.usename, a.state,
            ${secondsSince("coalesce(a.xact_start, a.backend_start)")} AS seconds, l.mode
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'relation' AND l.granted AND l.relation = to_regclass($1) AND l.pid <> pg_backend_pid()
      ORDER BY a.xact_start NULLS LAST LIMIT 3`,
    [HISTORY_TABLE],
  );
  if (rows.length === 0) return "its holder has just let it go, or is not visible to this role";
  return rows.map((row) => describeSession(row, "in a transaction")).join("; ");
}

/**
 * Runs `work`, the migrator's own reads and writes of the history table, and turns a lock it could
 * not get within `lock_timeout` into an error naming the sessions that hold the table: nothing is
 * applied, and a deploy fails at once rather than waiting behind them.
 * @template T
 * @param {pg.Client} client
 * @param {MigratorTimeouts} timeouts
 * @param {() => Promise<T>} work
 * @param {string} [afterwards] What the operator should know about what was already done.
 * @returns {Promise<T>}
 */
async function onHistoryTable(client, timeouts, work, afterwards = "nothing was applied") {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof pg.DatabaseError) || error.code !== LOCK_NOT_AVAILABLE) throw error;
    throw new MigrationError(
      `${HISTORY_TABLE} is locked by another session, so the migrator gave up after ${seconds(timeouts.lockTimeoutMs)} ` +
        `(lock_timeout); ${afterwards}. Held by: ${await describeHistoryTableHolders(client)}. ` +
        "Let that transaction end (or end the session: SELECT pg_terminate_backend(<pid>)) and deploy again. " +
        "MIGRATE_LOCK_TIMEOUT_SECONDS sets the wait.",
      { cause: error },
    );
  }
}

/** @param {number} ms */
const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;

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
 *
 * Under `lock_timeout`: a statement that cannot lock what it changes in time (a long transaction
 * holds the table) gives up rather than queue every query on that table behind it, and the whole
 * migration is tried again, LOCK_ATTEMPTS times in all.
 * @param {pg.Client} client
 * @param {LocalMigration} migration
 * @param {MigratorTimeouts} timeouts
 * @param {(line: string) => void} log
 * @returns {Promise<boolean>}
 */
async function applyInTransaction(client, migration, timeouts, log) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyInTransactionOnce(client, migration, log);
    } catch (error) {
      const cause = error instanceof MigrationError ? error.cause : error;
      if (!(cause instanceof pg.DatabaseError) || cause.code !== LOCK_NOT_AVAILABLE) throw error;
      if (attempt < LOCK_ATTEMPTS) {
        const pauseMs = 1_000 * attempt;
        log(
          `${migration.name}: could not get its locks within ${seconds(timeouts.lockTimeoutMs)} (lock_timeout) and was ` +
            `rolled back; trying again in ${seconds(pauseMs)} (attempt ${attempt + 1} of ${LOCK_ATTEMPTS})`,
        );
        await sleep(pauseMs);
        continue;
      }
      throw new MigrationError(
        `Migration ${migration.name} could not get its locks within ${seconds(timeouts.lockTimeoutMs)} ` +
          `(lock_timeout) in ${LOCK_ATTEMPTS} attempts and was rolled back: ${cause.message}. ` +
          `A long transaction holds what it changes; ${await describeLongTransactions(client)}. ` +
          "Deploy again once it has ended. MIGRATE_LOCK_TIMEOUT_SECONDS sets the wait.",
        { cause },
      );
    }
  }
}

/**
 * @param {pg.Client} client
 * @param {LocalMigration} migration
 * @param {(line: string) => void} log
 * @returns {Promise<boolean>}
 */
async function applyInTransactionOnce(client, migration, log) {
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
    await runMigrationSql(client, migration, log).catch((error) => {
      throw new MigrationError(
        `Migration ${migration.name} failed and was rolled back: ${describeSqlError(error, migration)}`,
        { cause: error },
      );
    });
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
 * Runs a `-- no-transaction` migration as Prisma runs every migration: its row is written as
 * started, the SQL runs on its own, and the row is finished, or keeps the error in `logs` and
 * stays failed (P3009) until a person has looked: a failed `CREATE INDEX CONCURRENTLY` leaves an
 * INVALID index behind, which running the file again would not repair.
 *
 * No `lock_timeout` on its SQL: what such a migration does (build or drop an index CONCURRENTLY)
 * waits for older transactions without blocking reads or writes, and giving up half-way would
 * leave that INVALID index. `statement_timeout` still bounds it, and its rows in the history
 * table are written under `lock_timeout` like every other statement of the migrator.
 * @param {pg.Client} client
 * @param {LocalMigration} migration
 * @param {MigratorTimeouts} timeouts
 * @param {(line: string) => void} log
 * @returns {Promise<boolean>}
 */
async function applyWithoutTransaction(client, migration, timeouts, log) {
  const id = randomUUID();
  // The started row in a transaction that looks first: on PGlite's shared session it is what keeps
  // two migrators from both running the file (see applyInTransactionOnce).
  const started = await onHistoryTable(client, timeouts, async () => {
    await client.query("BEGIN");
    try {
      const recorded = await client.query(
        "SELECT 1 FROM _prisma_migrations WHERE migration_name = $1 AND rolled_back_at IS NULL",
        [migration.name],
      );
      if (recorded.rowCount) {
        await client.query("ROLLBACK");
        return false;
      }
      await client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 0)`,
        [id, migration.checksum, migration.name],
      );
      await client.query("COMMIT");
      return true;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  });
  if (!started) return false;

  log(`applying ${migration.name} (outside a transaction)`);
  /** @type {{ error: unknown } | undefined} */
  let failed;
  await setSessionTimeout(client, "lock_timeout", 0);
  try {
    await runMigrationSql(client, migration, log);
  } catch (error) {
    failed = { error };
  } finally {
    await setSessionTimeout(client, "lock_timeout", timeouts.lockTimeoutMs);
  }
  if (failed) {
    const reason = describeSqlError(failed.error, migration);
    await client.query("UPDATE _prisma_migrations SET logs = $2 WHERE id = $1", [id, reason]).catch(() => undefined);
    throw new MigrationError(
      `Migration ${migration.name} failed outside a transaction: ${reason}. It may have left part of its work ` +
        "behind (a failed CREATE INDEX CONCURRENTLY leaves an INVALID index: drop it), and it is recorded as failed, " +
        'so no migration runs until it is resolved (docs/database.md, "Indexes on existing tables").',
      { cause: failed.error },
    );
  }
  await onHistoryTable(
    client,
    timeouts,
    () =>
      client.query(
        "UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1",
        [id],
      ),
    `${migration.name} ran but stays recorded as started, which blocks later migrations: once it is let go, ` +
      `mark it applied (set finished_at = now() on its ${HISTORY_TABLE} row)`,
  );
  return true;
}

/**
 * Sends a migration's SQL as one simple query (no parameters), which accepts a whole
 * multi-statement file; what it raises (RAISE WARNING …) is shown, not lost.
 * @param {pg.Client} client
 * @param {LocalMigration} migration
 * @param {(line: string) => void} log
 */
async function runMigrationSql(client, migration, log) {
  /** @param {import("pg-protocol/dist/messages.js").NoticeMessage} notice */
  const relay = (notice) =>
    log(
      `${migration.name}: ${notice.severity ?? "NOTICE"}: ${notice.message}${notice.hint ? ` (${notice.hint})` : ""}`,
    );
  client.on("notice", relay);
  try {
    await client.query(migration.sql);
  } finally {
    client.off("notice", relay);
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => globalThis.setTimeout(resolve, ms));

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
 * The server's message, plus the line of migration.sql it points at when it points at one, and
 * what to do when a timeout stopped it.
 * @param {unknown} error
 * @param {LocalMigration} migration
 */
function describeSqlError(error, migration) {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  const position = error instanceof pg.DatabaseError ? Number(error.position) : Number.NaN;
  if (Number.isInteger(position) && position >= 1) {
    message += ` (migration.sql line ${migration.sql.slice(0, position - 1).split("\n").length})`;
  }
  if (error instanceof pg.DatabaseError && error.code === QUERY_CANCELED) {
    message +=
      " (statement_timeout: a statement ran longer than MIGRATE_STATEMENT_TIMEOUT_SECONDS allows; raise it for this " +
      "deploy, or split the work: a backfill in batches, an index built CONCURRENTLY)";
  }
  return message;
}
