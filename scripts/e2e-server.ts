/**
 * The server Playwright's webServer starts (playwright.config.ts): an isolated shop
 * (scripts/lib/isolated-shop.ts: fresh database, migrations, seed, random credentials, a local
 * sandbox on a free port), the production build, then the production server (`scripts/serve.mjs`, as `npm start`) on E2E_PORT.
 * The sandbox's address goes to the tests through test-results/e2e-server.json.
 * SIGTERM or SIGINT (Playwright stops its webServer that way) stops Next and the sandbox and
 * drops the database. E2E_SKIP_BUILD=1 reuses the existing .next/ build.
 * E2E_PAY_SERVICE=real points the shop at a real service instead (its PAY_ variables from the
 * environment); tests that need the local sandbox's control API or popup then skip themselves.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_ENVIRONMENT_FILE, type E2eServerEnvironment } from "../e2e/support/server-environment";
import { prepareIsolatedShop, prepareServiceShop } from "./lib/isolated-shop";
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

  const options = { label: "e2e", appUrl, serverDatabaseUrl: process.env.DATABASE_URL, log };
  const shop =
    process.env.E2E_PAY_SERVICE === "real"
      ? await prepareServiceShop({ ...options, payEnv: realServiceEnv() })
      : await prepareIsolatedShop(options);
  lifetime.onStop(() => shop.close());

  await prepareProductionBuild({ root, appEnv: shop.appEnv, skipVariable: "E2E_SKIP_BUILD", output: "inherit", log });
  if (lifetime.stopping) return;

  const next = startNextServer({ root, appEnv: shop.appEnv, port });
  lifetime.onStop(() => next.stop());
  // Next dying on its own (a port in use, a crash) ends the run instead of leaving Playwright waiting.
  void next.exited.then((code) => lifetime.stop(code ?? 1));

  const environment: E2eServerEnvironment = {
    sandboxUrl: shop.sandboxUrl,
    sdkUrl: shop.appEnv.PAY_SDK_URL!,
    appUrl,
    databaseUrl: shop.databaseUrl,
  };
  mkdirSync(path.dirname(E2E_ENVIRONMENT_FILE), { recursive: true });
  writeFileSync(E2E_ENVIRONMENT_FILE, `${JSON.stringify(environment, null, 2)}\n`);
  log(`serving ${appUrl} (${shop.sandboxUrl ? `sandbox ${shop.sandboxUrl}` : "the real service"})`);
});

/** The PAY_ variables of the real service, from the environment; each one is required. */
function realServiceEnv(): Record<string, string> {
  const names = [
    "PAY_PUBLISHABLE_KEY",
    "PAY_CLIENT_ID",
    "PAY_CLIENT_SECRET",
    "PAY_WEBHOOK_SECRET",
    "PAY_API_BASE_URL",
    "PAY_SDK_URL",
  ] as const;
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`E2E_PAY_SERVICE=real needs ${missing.join(", ")} in the environment`);
  return Object.fromEntries(names.map((name) => [name, process.env[name]!]));
}
