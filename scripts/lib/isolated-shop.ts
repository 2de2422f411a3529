import { applyMigrations } from "../../lib/db/migrate";
import { seedCatalog } from "../../lib/db/seed";
import { startSandbox, type SandboxCredentials } from "../../sandbox/server";
import { payEnvFor, randomCredentials } from "../../sandbox/credentials";
import { createScratchDatabase } from "./scratch-database";

/**
 * Everything the shop needs to run, created for one run and thrown away after it: a fresh
 * migrated and seeded database, random test credentials and a local sandbox of the service on
 * a free port. The e2e server (scripts/e2e-server.ts) and the benchmarks (bench/run.ts) both
 * start from here, so a browser test and a benchmark see the same shop, and neither touches
 * the developer's .env.local, .data/ or .sandbox/.
 */
export interface IsolatedShop {
  databaseUrl: string;
  /** Where the data lives, for log lines (never a password). */
  databaseDescription: string;
  sandboxUrl: string;
  credentials: SandboxCredentials;
  /** The variables `next build` and `next start` need on top of the process's own. */
  appEnv: Record<string, string>;
  /** Stops the sandbox and drops the database. Safe to call more than once. */
  close(): Promise<void>;
}

export interface IsolatedShopOptions {
  /** Part of the scratch database's name, e.g. "e2e". */
  label: string;
  /** The shop's public address (APP_URL). */
  appUrl: string;
  /** A PostgreSQL server to create the scratch database on; embedded PGlite when unset. */
  serverDatabaseUrl?: string;
  /** Connections in the app's pool. */
  databasePoolMax?: number;
  log?: (line: string) => void;
}

export async function prepareIsolatedShop(options: IsolatedShopOptions): Promise<IsolatedShop> {
  const log = options.log ?? (() => {});
  // Undone in reverse order, also when a later step fails half-way.
  const undo: (() => Promise<void>)[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const step of [...undo].reverse())
        await step().catch((error: unknown) => log(`while cleaning up: ${describe(error)}`));
    })());

  try {
    const database = await createScratchDatabase({ label: options.label, serverUrl: options.serverDatabaseUrl });
    undo.push(() => database.drop());
    log(`database: ${database.description}`);
    await applyMigrations({ connectionString: database.url });
    const seeded = await seedCatalog(database.url);
    log(`catalogue seeded (${seeded.products} products)`);

    const credentials = randomCredentials();
    const sandbox = await startSandbox({
      port: 0,
      credentials,
      webhookUrl: `${options.appUrl.replace(/\/+$/, "")}/api/pay/webhook`,
      log: (line) => log(`[sandbox] ${line}`),
    });
    undo.push(() => sandbox.close());

    const appEnv: Record<string, string> = {
      DATABASE_URL: database.url,
      // PGlite runs every connection on one single-threaded session; a small pool is plenty.
      DATABASE_POOL_MAX: String(options.databasePoolMax ?? (options.serverDatabaseUrl ? 10 : 4)),
      ...payEnvFor(credentials, sandbox.url),
      PAY_LANG: "pt",
      APP_URL: options.appUrl,
      NEXT_TELEMETRY_DISABLED: "1",
    };
    return {
      databaseUrl: database.url,
      databaseDescription: database.description,
      sandboxUrl: sandbox.url,
      credentials,
      appEnv,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
