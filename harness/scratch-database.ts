import { randomBytes } from "node:crypto";
import { withPgClient } from "../scripts/db/pg-client.mjs";
import { startEmbeddedPostgres } from "./embedded-postgres";

/**
 * A fresh, empty database that lives as long as one run (a test suite, the e2e server, a
 * benchmark) and is dropped afterwards, so runs never see each other's rows or a developer's.
 * With a server URL, a new database on that server; otherwise an in-memory embedded
 * PostgreSQL (PGlite), the README's default.
 */
export interface ScratchDatabase {
  url: string;
  /** What it is, for log lines: never the password. */
  description: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(options: { label: string; serverUrl?: string }): Promise<ScratchDatabase> {
  const { serverUrl } = options;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres({});
    return { url: embedded.url, description: "embedded PostgreSQL (PGlite, in memory)", drop: () => embedded.stop() };
  }
  const name = `shop_${options.label}_${process.pid}_${randomBytes(4).toString("hex")}`.toLowerCase();
  await withPgClient(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    description: `PostgreSQL at ${url.host}, database ${name}`,
    drop: () =>
      withPgClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
