/**
 * `npm run dev`: everything a fresh clone needs, in one process tree.
 * 1. local test credentials in .env.local (first run only),
 * 2. embedded PostgreSQL (PGlite, data in .data/pglite) when DATABASE_URL is unset,
 * 3. migrations, and the demo catalogue into a shop without products,
 * 4. the local sandbox of the service when PAY_API_BASE_URL points at this machine, with the
 *    control token of .env.local (SANDBOX_TOKEN; its dashboard's address, token included, is printed),
 * 5. `next dev`, and the worker (scripts/worker.ts): job retries and the reconcile sweep.
 * Ctrl-C stops all of it.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "../scripts/db/migrate.mjs";
import { seedCatalogIfEmpty } from "../scripts/db/seed.mjs";
import { startSandbox } from "pay-sandbox";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { isLocalSandbox, prepareLocalEnv } from "./local-env";
import { NEXT_BIN } from "./next-production";
import { manageProcessLifetime, runUntilStopped } from "./process-lifetime";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => console.log(`[dev] ${line}`);
const lifetime = manageProcessLifetime({ name: "dev", exitCodeOnSignal: 0 });

async function main(): Promise<void> {
  const env = prepareLocalEnv({ root, processEnv: process.env, log, nextArgs: process.argv.slice(2) });

  if (!env.DATABASE_URL) {
    mkdirSync(`${root}/.data`, { recursive: true });
    const embedded = await startEmbeddedPostgres({ dataDir: `${root}/.data/pglite` });
    lifetime.onStop(() => embedded.stop());
    env.DATABASE_URL = embedded.url;
    env.DATABASE_POOL_MAX ||= "4";
    log(`embedded PostgreSQL (PGlite) at ${embedded.url.replace(/\/\/[^@]*@/, "//")} — data in .data/pglite`);
  }

  const { applied } = await applyMigrations({ connectionString: env.DATABASE_URL, log });
  log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");
  // Only into an empty shop: products edited in the back office (/admin/products) stay as edited.
  const seeded = await seedCatalogIfEmpty(env.DATABASE_URL);
  log(seeded.inserted ? `demo catalogue loaded (${seeded.inserted} products)` : "catalogue kept as it is");

  const apiBaseUrl = env.PAY_API_BASE_URL!;
  if (isLocalSandbox(apiBaseUrl)) {
    const sandbox = await startSandbox({
      port: Number(new URL(apiBaseUrl).port || 80),
      credentials: {
        publishableKey: env.PAY_PUBLISHABLE_KEY!,
        clientId: env.PAY_CLIENT_ID!,
        clientSecret: env.PAY_CLIENT_SECRET!,
        webhookSecret: env.PAY_WEBHOOK_SECRET!,
      },
      token: env.SANDBOX_TOKEN,
      dataFile: `${root}/.sandbox/state.json`,
      webhookUrl: `${env.APP_URL!.replace(/\/+$/, "")}/api/pay/webhook`,
      log: (line) => console.log(`[sandbox] ${line}`),
    });
    lifetime.onStop(() => sandbox.close());
    log(`local sandbox of the service at ${sandbox.url}; its dashboard: ${sandbox.dashboardUrl}`);
  } else {
    log(`using the service at ${apiBaseUrl}`);
  }

  const childEnv = { ...env, NEXT_TELEMETRY_DISABLED: "1" } as unknown as NodeJS.ProcessEnv;
  // next dev sets NODE_ENV itself.
  const next = startChild([NEXT_BIN, "dev", ...process.argv.slice(2)], childEnv);
  // Jobs also run right after each webhook (after()); the worker retries failed ones and runs the
  // reconcile sweep, as `npm run worker` does next to a production server.
  const worker = startChild(["--import", "tsx", "--conditions=react-server", `${root}/scripts/worker.ts`], {
    ...childEnv,
    NODE_ENV: "development",
  });
  void Promise.race([next.exited, worker.exited]).then((code) => lifetime.stop(code));
}

/** A child node process sharing this terminal, stopped with everything else. */
function startChild(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 0)));
  lifetime.onStop(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  });
  return { exited };
}

runUntilStopped(lifetime, "dev", main);
