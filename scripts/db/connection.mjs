// @ts-check
import nextEnv from "@next/env";
import { DEFAULT_TIMEOUTS } from "./migrate.mjs";

/**
 * Where the database tools (`npm run db:migrate`, `npm run db:seed`, `vercel-build`) connect.
 *
 * They need a direct connection: the migrator holds a session advisory lock, which a
 * transaction-mode pooler does not keep. Vercel's Postgres integrations (Neon) give the app a
 * pooled DATABASE_URL and the direct one as DATABASE_URL_UNPOOLED, so that one wins when set.
 * The running shop always uses DATABASE_URL (lib/env.ts).
 */

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** A configuration problem of the database tools; its message names the variable. */
export class DatabaseUrlError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "DatabaseUrlError";
  }
}

/**
 * Loads .env files as Next.js does (`.env.local`, `.env.production` or `.env.development`, `.env`;
 * variables already set win), so a tool sees the same configuration as the server beside it.
 * @param {string} dir
 */
export function loadEnvFiles(dir = process.cwd()) {
  nextEnv.loadEnvConfig(dir, process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });
}

/**
 * The direct database URL: DATABASE_URL_UNPOOLED, else DATABASE_URL.
 * @param {Record<string, string | undefined>} env
 * @returns {{ url: string, variable: "DATABASE_URL_UNPOOLED" | "DATABASE_URL" }}
 */
export function directDatabaseUrl(env = process.env) {
  const variable = env.DATABASE_URL_UNPOOLED ? "DATABASE_URL_UNPOOLED" : "DATABASE_URL";
  const url = env[variable];
  if (!url) {
    throw new DatabaseUrlError(
      "DATABASE_URL is not set: set it (or DATABASE_URL_UNPOOLED, a direct connection) to a postgres:// URL. " +
        "`npm run dev` starts an embedded database by itself; the other database commands need a server.",
    );
  }
  if (!POSTGRES_URL.test(url)) throw new DatabaseUrlError(`${variable} must be a postgres:// or postgresql:// URL`);
  return { url, variable };
}

/**
 * The database's host and name, for log lines (never the user or the password).
 * @param {string} url
 */
export function describeDatabase(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
  } catch {
    return "the database";
  }
}

/**
 * How long the migrator may wait (scripts/db/migrate.mjs), in whole seconds from the environment:
 * MIGRATE_LOCK_WAIT_SECONDS for another migrator to finish (default 120), MIGRATE_LOCK_TIMEOUT_SECONDS
 * for a migration's table locks before it gives up and tries again (default 5), and
 * MIGRATE_STATEMENT_TIMEOUT_SECONDS for any one statement (default 300). Unset or empty: the default.
 * @param {Record<string, string | undefined>} env
 * @returns {import("./migrate.mjs").MigratorTimeouts}
 */
export function migratorTimeouts(env = process.env) {
  /** @param {string} name @param {number} fallbackMs */
  const seconds = (name, fallbackMs) => {
    const value = env[name]?.trim();
    if (!value) return fallbackMs;
    if (!/^[1-9][0-9]{0,5}$/.test(value)) {
      throw new DatabaseUrlError(`${name} must be a whole number of seconds from 1 to 999999 (it is "${value}")`);
    }
    return Number(value) * 1000;
  };
  return {
    lockWaitMs: seconds("MIGRATE_LOCK_WAIT_SECONDS", DEFAULT_TIMEOUTS.lockWaitMs),
    lockTimeoutMs: seconds("MIGRATE_LOCK_TIMEOUT_SECONDS", DEFAULT_TIMEOUTS.lockTimeoutMs),
    statementTimeoutMs: seconds("MIGRATE_STATEMENT_TIMEOUT_SECONDS", DEFAULT_TIMEOUTS.statementTimeoutMs),
  };
}
