import { inject, vi } from "vitest";
import { controlClient } from "pay-sandbox/client";
import { startTestSandbox as startSandboxForTests } from "pay-sandbox/testing";

/** The typed control client of the suite's shared sandbox (tests/setup/global.ts). */
export const suiteSandboxControl = () => controlClient({ url: inject("sandboxUrl"), token: inject("sandboxToken") });

/** A sandbox of one's own, for tests that count requests and must not see other files' traffic. */
export async function startTestSandbox(options: Parameters<typeof startSandboxForTests>[0] = {}) {
  const sandbox = await startSandboxForTests(options);
  return { ...sandbox, control: sandbox.client };
}

/**
 * Points the app's service client (lib/pay) at a sandbox of this test file's own, with the
 * suite's credentials, so the file can count the requests the app sends without seeing other
 * files' traffic. Route modules must be imported (dynamically) after this.
 */
export async function useOwnSandbox(options: Parameters<typeof startSandboxForTests>[0] = {}) {
  const sandbox = await startTestSandbox({ credentials: inject("payCredentials"), ...options });
  process.env.PAY_API_BASE_URL = sandbox.url;
  (globalThis as { payClient?: unknown }).payClient = undefined;
  vi.resetModules();
  return sandbox;
}
