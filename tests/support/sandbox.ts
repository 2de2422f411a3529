import type { LoggedRequest } from "../../sandbox/request-log";
import { startTestSandbox as startSandboxForTests } from "../../sandbox/testing";

/** Talks to a sandbox's control API (`/__sandbox/*`), as a test or a person would. */
export function sandboxControl(url: string) {
  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`sandbox control ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  }
  return {
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

/** A sandbox of one's own, for tests that count requests and must not see other files' traffic. */
export async function startTestSandbox() {
  const { url, credentials, close } = await startSandboxForTests();
  return { url, credentials, close, control: sandboxControl(url) };
}
