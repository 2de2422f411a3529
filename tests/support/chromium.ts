import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * How every browser test launches Chromium: the Playwright e2e suite (playwright.config.ts) and
 * the sandbox's SDK tests (sandbox/browser.test.ts) share it, so `npm test` needs the same
 * browser for both.
 */

// The distribution's Chromium when there is one (CI installs it with apt), so no browser
// download is needed; otherwise Playwright's own (`npx playwright install chromium`).
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export function chromiumExecutablePath(exists: (path: string) => boolean = existsSync): string | undefined {
  return exists(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

export function chromiumLaunchOptions(exists?: (path: string) => boolean): LaunchOptions {
  return {
    executablePath: chromiumExecutablePath(exists),
    args: [
      // Nothing but the pages under test: no update checks, sync, field trials or QUIC probes.
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      // CI runs as root, where Chromium refuses to start with its sandbox.
      "--no-sandbox",
    ],
  };
}
