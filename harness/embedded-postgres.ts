import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { SequencedQueryQueue } from "./pglite-query-queue";

/**
 * PostgreSQL for machines without one: PGlite (Postgres compiled to WASM) behind its
 * socket server, so the app, Prisma and `pg` connect over the ordinary wire protocol.
 * The socket server multiplexes connections onto PGlite's one session; our own queue
 * (pglite-query-queue.ts) keeps each connection's query and transaction together.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(options: {
  /** A directory to keep data in across runs; in memory when omitted. */
  dataDir?: string;
  port?: number;
  maxConnections?: number;
}): Promise<EmbeddedPostgres> {
  // The contrib extensions the catalog's search needs (a migration creates them).
  const db = await PGlite.create(options.dataDir ?? "memory://", { extensions: { unaccent, pg_trgm } });
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 16,
  });
  // Installed before the first connection: every connection handler is given this queue.
  (server as unknown as { queryQueue: SequencedQueryQueue }).queryQueue = new SequencedQueryQueue(db);
  await server.start();
  const address = server.getServerConn();
  const port = Number(address.split(":").pop());
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
