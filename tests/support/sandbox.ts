import { inject, vi } from "vitest";
import { controlClient, type ControlAddress } from "../../sandbox/control-client";
import type { LoggedRequest } from "../../sandbox/request-log";
import { startTestSandbox as startSandboxForTests } from "../../sandbox/testing";

/** Talks to a sandbox's control API (`/__sandbox/*`) with its token, as a test or a person would. */
export function sandboxControl(sandbox: ControlAddress) {
  const client = controlClient(sandbox);
  async function call(method: string, path: string, body?: unknown) {
    const answer = await client.request(method, path, body);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`sandbox control ${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  }
  return {
    /** Any control call, e.g. `call("POST", "/orders/order_…/approve", { delivery: "drop" })`; throws unless 2xx. */
    call,
    async requests(path?: string): Promise<LoggedRequest[]> {
      const query = path ? `?path=${encodeURIComponent(path)}` : "";
      return (await call("GET", `/requests${query}`)).requests as LoggedRequest[];
    },
    clearRequests: () => call("DELETE", "/requests"),
    failNext: (fault: {
      count: number;
      kind: "500" | "503" | "429" | "timeout" | "reset";
      retryAfterSeconds?: number;
      path?: string;
    }) => call("POST", "/faults", fault),
    settings: (settings: { tokenLifetimeSeconds?: number }) => call("POST", "/settings", settings),
    revokeTokens: () => call("POST", "/tokens/revoke"),
    advanceClock: (seconds: number) => call("POST", "/clock", { advanceSeconds: seconds }),
    confirm: (externalTransactionId: string) =>
      call("POST", `/orders/${encodeURIComponent(externalTransactionId)}/confirm`),
    reset: () => call("POST", "/reset"),
  };
}

/** The control API of the suite's shared sandbox (tests/setup/global.ts). */
export const suiteSandboxControl = () => sandboxControl({ url: inject("sandboxUrl"), token: inject("sandboxToken") });

/** A sandbox of one's own, for tests that count requests and must not see other files' traffic. */
export async function startTestSandbox(options: Parameters<typeof startSandboxForTests>[0] = {}) {
  const sandbox = await startSandboxForTests(options);
  return { ...sandbox, control: sandboxControl(sandbox) };
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
