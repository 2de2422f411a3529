/**
 * `npm run dev`: everything a fresh clone needs, in one process tree.
 * 1. local test credentials in .env.local (first run only),
 * 2. embedded PostgreSQL (PGlite, data in .data/pglite) when DATABASE_URL is unset,
 * 3. migrations and the idempotent seed,
 * 4. the local sandbox of the service when PAY_API_BASE_URL points at this machine,
 * 5. `next dev`. Ctrl-C stops all of it.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "../lib/db/migrate";
import { seedCatalog } from "../lib/db/seed";
import { startSandbox } from "../sandbox/server";
import { startEmbeddedPostgres } from "./lib/embedded-postgres";
import { isLocalSandbox, prepareLocalEnv } from "./lib/local-env";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => console.log(`[dev] ${line}`);
const cleanups: (() => Promise<void>)[] = [];

async function main() {
  const env = prepareLocalEnv({ root, processEnv: process.env, log });

  if (!env.DATABASE_URL) {
    mkdirSync(`${root}/.data`, { recursive: true });
    const embedded = await startEmbeddedPostgres({ dataDir: `${root}/.data/pglite` });
    cleanups.push(() => embedded.stop());
    env.DATABASE_URL = embedded.url;
    env.DATABASE_POOL_MAX ||= "4";
    log(`embedded PostgreSQL (PGlite) at ${embedded.url.replace(/\/\/[^@]*@/, "//")} — data in .data/pglite`);
  }

  const { applied } = await applyMigrations({ connectionString: env.DATABASE_URL, log });
  log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");
  const seeded = await seedCatalog(env.DATABASE_URL);
  log(`catalogue ready (${seeded.products} products)`);

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
      dataFile: `${root}/.sandbox/state.json`,
      log: (line) => console.log(`[sandbox] ${line}`),
    });
    cleanups.push(() => sandbox.close());
    log(`local sandbox of the service at ${sandbox.url}`);
  } else {
    log(`using the service at ${apiBaseUrl}`);
  }

  // Next's own entry point as our direct child (not through npx), so stopping it stops it.
  const nextBin = fileURLToPath(import.meta.resolve("next/dist/bin/next"));
  const next = spawn(process.execPath, [nextBin, "dev", ...process.argv.slice(2)], {
    cwd: root,
    stdio: "inherit",
    // next dev sets NODE_ENV itself.
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" } as unknown as NodeJS.ProcessEnv,
  });
  cleanups.unshift(
    () =>
      new Promise<void>((resolve) => {
        if (next.exitCode !== null) return resolve();
        next.once("exit", () => resolve());
        next.kill("SIGTERM");
      }),
  );
  next.once("exit", (code) => void shutdown(code ?? 0));
}

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const cleanup of cleanups) {
    await cleanup().catch((error: unknown) => console.error("[dev] while stopping:", error));
  }
  process.exit(code);
}

process.once("SIGINT", () => void shutdown(0));
process.once("SIGTERM", () => void shutdown(0));

main().catch(async (error: unknown) => {
  console.error(`[dev] ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
});
