import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * PostgreSQL for machines without one: PGlite (Postgres compiled to WASM) behind its
 * socket server, so the app, Prisma and `pg` connect over the ordinary wire protocol.
 * The socket server multiplexes connections and keeps a transaction on its own connection.
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
  const db = await PGlite.create(options.dataDir ?? "memory://");
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 16,
  });
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
