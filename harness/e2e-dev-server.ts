/**
 * The development web server Playwright starts for the "dev" project (playwright.config.ts):
 * an isolated shop like harness/e2e-server.ts's (harness/e2e-shop.ts: its own database,
 * credentials and sandbox), served by `next dev` on E2E_DEV_PORT, started the way `npm run dev`
 * starts it, so e2e/dev-server.spec.ts can check that the development server works at every
 * local address. APP_URL is `npm run dev`'s default host, localhost, while the spec opens the
 * shop at 127.0.0.1, as a developer following a link or typing the address may.
 * `next dev` compiles each page on its first request: no build step, but slow first visits.
 * SIGTERM or SIGINT stops Next and the sandbox and drops the database.
 */
import { fileURLToPath } from "node:url";
import { runE2eServer } from "./e2e-shop";
import { startNextDevServer } from "./next-production";

const root = fileURLToPath(new URL("..", import.meta.url));

runE2eServer({
  name: "e2e-dev-server",
  portVariable: "E2E_DEV_PORT",
  label: "e2e_dev",
  appUrlFor: (port) => `http://localhost:${port}`,
  serve: async ({ shop, port }) => startNextDevServer({ root, appEnv: shop.appEnv, port }),
});
