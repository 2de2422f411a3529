import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * How a browser test launches Chromium to drive the sandbox's SDK and popup: this package's own
 * SDK tests use it, and a shop's Playwright configuration can too (`launchOptions`), so both
 * need the same browser.
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
