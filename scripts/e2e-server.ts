/**
 * The server Playwright's webServer starts (playwright.config.ts): an isolated shop
 * (scripts/lib/isolated-shop.ts: fresh database, migrations, seed, random credentials, a local
 * sandbox on a free port), the production build, then `next start` on E2E_PORT.
 * The sandbox's address goes to the tests through test-results/e2e-server.json.
 * SIGTERM or SIGINT (Playwright stops its webServer that way) stops Next and the sandbox and
 * drops the database. E2E_SKIP_BUILD=1 reuses the existing .next/ build.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_ENVIRONMENT_FILE, type E2eServerEnvironment } from "../e2e/support/server-environment";
import { prepareIsolatedShop } from "./lib/isolated-shop";
import { prepareProductionBuild, startNextServer } from "./lib/next-production";
import { manageProcessLifetime, runUntilStopped } from "./lib/process-lifetime";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => console.log(`[e2e-server] ${line}`);
// Playwright stops its webServer with SIGTERM once the tests are done: a normal end.
const lifetime = manageProcessLifetime({ name: "e2e-server", exitCodeOnSignal: 0 });

runUntilStopped(lifetime, "e2e-server", async () => {
  const port = Number(process.env.E2E_PORT);
  if (!Number.isInteger(port) || port < 1)
    throw new Error("E2E_PORT must be set to the port to serve on (playwright.config.ts sets it)");
  const appUrl = `http://127.0.0.1:${port}`;

  const shop = await prepareIsolatedShop({ label: "e2e", appUrl, serverDatabaseUrl: process.env.DATABASE_URL, log });
  lifetime.onStop(() => shop.close());

  await prepareProductionBuild({ root, appEnv: shop.appEnv, skipVariable: "E2E_SKIP_BUILD", output: "inherit", log });
  if (lifetime.stopping) return;

  const next = startNextServer({ root, appEnv: shop.appEnv, port });
  lifetime.onStop(() => next.stop());
  // Next dying on its own (a port in use, a crash) ends the run instead of leaving Playwright waiting.
  void next.exited.then((code) => lifetime.stop(code ?? 1));

  const environment: E2eServerEnvironment = { sandboxUrl: shop.sandboxUrl, appUrl, databaseUrl: shop.databaseUrl };
  mkdirSync(path.dirname(E2E_ENVIRONMENT_FILE), { recursive: true });
  writeFileSync(E2E_ENVIRONMENT_FILE, `${JSON.stringify(environment, null, 2)}\n`);
  log(`serving ${appUrl} (sandbox ${shop.sandboxUrl})`);
});
