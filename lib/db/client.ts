import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { getDatabaseEnv, nodeEnv } from "../env";
import { PrismaClient } from "../generated/prisma/client";

/**
 * The app's one Prisma client, talking to PostgreSQL through `pg` (Prisma 7's driver adapter).
 * Created on first use rather than on import, so modules that import it can load (and be
 * type-checked or built) without DATABASE_URL; a bad DATABASE_URL fails at the first query
 * with lib/env.ts's message naming the variable.
 */

function createClient() {
  const { databaseUrl, databasePoolMax } = getDatabaseEnv();
  return new PrismaClient({
    // Timestamps are `timestamp without time zone` holding UTC (Prisma's convention); SQL that writes
    // now() must then run in a UTC session, whatever the server's default time zone is.
    adapter: new PrismaPg({ connectionString: databaseUrl, max: databasePoolMax, options: "-c TimeZone=UTC" }),
    // No query log: the worker polls every 2 s, which would bury everything else in development.
    log: ["warn", "error"],
  });
}

type ShopPrismaClient = ReturnType<typeof createClient>;

/**
 * A Prisma client of the shop's schema, for functions that take the client as a dependency:
 * `db()`, or one a test made for a scratch database. (Without `$on`, whose type depends on the
 * client's log settings.)
 */
export type Database = Omit<PrismaClient, "$on">;

// `next dev` re-evaluates modules on every edit; keeping the client on globalThis stops each
// reload from opening another connection pool until the database refuses connections.
const hotReloadCache = globalThis as typeof globalThis & { shopPrismaClient?: ShopPrismaClient };

let client: ShopPrismaClient | undefined;

export function db(): ShopPrismaClient {
  client ??= hotReloadCache.shopPrismaClient ?? createClient();
  if (nodeEnv() !== "production") hotReloadCache.shopPrismaClient = client;
  return client;
}
