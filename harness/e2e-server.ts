/**
 * The production web server Playwright starts (playwright.config.ts): an isolated shop
 * (harness/e2e-shop.ts, shared with harness/e2e-dev-server.ts), the production build, then
 * the production server (`scripts/serve.mjs`, as `npm start`) on E2E_PORT.
 * The sandbox's address and control token go to the tests through test-results/e2e-server.json.
 * SIGTERM or SIGINT (Playwright stops its webServer that way) stops Next and the sandbox and
 * drops the database. E2E_SKIP_BUILD=1 reuses the existing .next/ build.
 * E2E_PAY_SERVICE=real points the shop at a real service instead (its PAY_ variables from the
 * environment); tests that need the local sandbox's control API or popup then skip themselves.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_ENVIRONMENT_FILE, type E2eServerEnvironment } from "./server-environment";
import { runE2eServer } from "./e2e-shop";
import { prepareProductionBuild, startNextServer } from "./next-production";

const root = fileURLToPath(new URL("..", import.meta.url));

runE2eServer({
  name: "e2e-server",
  portVariable: "E2E_PORT",
  label: "e2e",
  appUrlFor: (port) => `http://127.0.0.1:${port}`,
  async serve({ shop, port, lifetime, log }) {
    await prepareProductionBuild({ root, appEnv: shop.appEnv, skipVariable: "E2E_SKIP_BUILD", output: "inherit", log });
    if (lifetime.stopping) return undefined;
    return startNextServer({ root, appEnv: shop.appEnv, port });
  },
  onServing({ shop, appUrl }) {
    const environment: E2eServerEnvironment = {
      sandboxUrl: shop.sandboxUrl,
      sandboxToken: shop.sandboxToken,
      // A real service's secrets never go to a file (test-results/ may be kept as a CI artifact).
      paySecrets:
        shop.sandboxUrl === null
          ? null
          : { clientSecret: shop.appEnv.PAY_CLIENT_SECRET!, webhookSecret: shop.appEnv.PAY_WEBHOOK_SECRET! },
      sdkUrl: shop.appEnv.PAY_SDK_URL!,
      appUrl,
      databaseUrl: shop.databaseUrl,
      adminEmail: shop.appEnv.ADMIN_EMAIL!,
      adminPassword: shop.appEnv.ADMIN_PASSWORD!,
      adminSessionSecret: shop.appEnv.ADMIN_SESSION_SECRET!,
      shopperSessionSecret: shop.appEnv.BETTER_AUTH_SECRET!,
    };
    mkdirSync(path.dirname(E2E_ENVIRONMENT_FILE), { recursive: true });
    writeFileSync(E2E_ENVIRONMENT_FILE, `${JSON.stringify(environment, null, 2)}\n`);
  },
});
