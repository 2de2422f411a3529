// @ts-check
import nextEnv from "@next/env";

/**
 * Where the database tools (`npm run db:migrate`, `npm run db:seed`, `vercel-build`) connect.
 *
 * They need a direct connection: the migrator holds a session advisory lock, which a
 * transaction-mode pooler does not keep. Vercel's Postgres integrations (Neon) give the app a
 * pooled DATABASE_URL and the direct one as DATABASE_URL_UNPOOLED, so that one wins when set.
 * The running shop always uses DATABASE_URL (lib/env.ts).
 */

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** A configuration problem; its message names the variable. */
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
