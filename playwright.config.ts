import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "pay-sandbox/playwright";

/**
 * Browser tests against the production build of an isolated shop (harness/e2e-server.ts):
 * its own fresh database, random credentials and local sandbox, so a run never touches the
 * developer's data and needs no network. The "dev" project checks `npm run dev` itself: one
 * journey against `next dev` for a second isolated shop (harness/e2e-dev-server.ts).
 */

// Fixed so baseURL is stable; change it with E2E_PORT when 3100 is taken.
const port = Number(process.env.E2E_PORT || 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The dev server's; opened at 127.0.0.1 on purpose (e2e/dev-server.spec.ts). E2E_DEV_PORT when 3101 is taken.
const devPort = Number(process.env.E2E_DEV_PORT || 3101);
const devBaseURL = `http://127.0.0.1:${devPort}`;

/** Specs that create orders at the service. */
const PAYING_TESTS =
  /(order-lifecycle|checkout|budget|holds-and-limits|admin-journey|shopper-journey|states|variant-journey|order-lookup|admin-fulfilment|admin-refunds|delivery-journey|receipt|refund-note|offline|account)\.spec\.ts$/;
/** The shopper's journeys, the catalogue's search and filters, the option picker, the promo codes', fulfilment's and refunds' back office, the receipt and the refund note, the offline pages, also run on a phone. */
const PHONE_TESTS =
  /(shopper-journey|catalogue-browse|variant-journey|order-lookup|admin-promo-codes|admin-fulfilment|admin-refunds|delivery-journey|receipt|refund-note|offline)\.spec\.ts$/;
/** Specs for the dev server, and only for it. */
const DEV_SERVER_TESTS = /dev-server\.spec\.ts$/;

/**
 * CI's second pass (`.ci/run`: CI set, DATABASE_URL unset) runs the suite on the embedded PGlite.
 * There only the "dev" project runs, and only its server starts: PGlite is what `npm run dev`
 * uses, and that journey, paid in the popup and confirmed by its webhook, runs on it; a
 * production build always has a PostgreSQL server (lib/env.ts requires DATABASE_URL), so its
 * specs ran in the first pass, as tests/deploy/ does. Outside CI every project runs on either.
 */
const devServerOnly = Boolean(process.env.CI) && !process.env.DATABASE_URL;

/** What both web servers (an isolated shop each) share. */
const isolatedShopServer = {
  // A server already on the port could be anything (another branch, `npm start`): refuse it.
  reuseExistingServer: false,
  // Migrations, seed and `next build` (or next dev's first compile) come first.
  timeout: 240_000,
  stdout: "pipe",
  stderr: "pipe",
  // The default is SIGKILL, which would leave the scratch database behind on PostgreSQL.
  gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
} as const;

/** The production build's projects. */
const productionProjects = [
  // Browsing first: "browsing never calls the service" reads the sandbox's whole request log,
  // so the tests that pay (and call the service) run after it.
  { name: "browse", testIgnore: [PAYING_TESTS, DEV_SERVER_TESTS], use: { ...devices["Desktop Chrome"] } },
  { name: "pay", testMatch: PAYING_TESTS, dependencies: ["browse"], use: { ...devices["Desktop Chrome"] } },
  // The shopper's journey again on a phone: Chromium with a phone's screen, touch and user agent.
  { name: "phone", testMatch: PHONE_TESTS, dependencies: ["pay"], use: { ...devices["Pixel 7"] } },
];
// Its own shop and sandbox, so it needs no other project. `next dev` compiles every page,
// route and server action on its first request: generous timeouts.
const devProject = {
  name: "dev",
  testMatch: DEV_SERVER_TESTS,
  timeout: 240_000,
  expect: { timeout: 60_000 },
  use: { ...devices["Desktop Chrome"], baseURL: devBaseURL, navigationTimeout: 120_000 },
};

const productionServer = {
  name: "production",
  command: "node --import tsx --conditions=react-server harness/e2e-server.ts",
  url: baseURL,
  env: { E2E_PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
  ...isolatedShopServer,
};
const devServer = {
  name: "dev",
  command: "node --import tsx --conditions=react-server harness/e2e-dev-server.ts",
  // Answers once `next dev` has compiled the catalogue.
  url: devBaseURL,
  env: { E2E_DEV_PORT: String(devPort), NEXT_TELEMETRY_DISABLED: "1" },
  ...isolatedShopServer,
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // One at a time: the paying tests change the shared sandbox's settings and read its logs.
  workers: 1,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL,
    headless: true,
    locale: "pt-AO",
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    // The system Chromium when present, else Playwright's own; the same as the sandbox's SDK tests.
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [...(devServerOnly ? [] : productionProjects), devProject],
  // Started one after the other, in this order, before any test, whichever projects run; stopped in reverse.
  // Each is stopped with SIGTERM to its process group. Plain node with tsx's loader, not the tsx
  // command: that one relays the signal to the script a second time when the script is slow to
  // acknowledge the first, which ends it half-way through its clean-up (a scratch database left).
  webServer: [...(devServerOnly ? [] : [productionServer]), devServer],
});
