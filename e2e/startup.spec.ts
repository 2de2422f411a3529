import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { NEXT_BIN } from "../harness/next-production";

// A bad configuration stops the production server at start-up (instrumentation.ts), naming
// the variables and printing no value. Uses the build the e2e server just made.

const root = fileURLToPath(new URL("..", import.meta.url));

function startWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [NEXT_BIN, "start", "--hostname", "127.0.0.1", "--port", "0"], {
      cwd: root,
      // Variables given here win over any .env.local a developer has, so each case is deterministic.
      // Next's types demand NODE_ENV; `next start` sets it itself.
      env: { PATH: process.env.PATH ?? "", NEXT_TELEMETRY_DISABLED: "1", ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

test("a pk_live_ key with http addresses and a malformed DATABASE_URL stop start-up", async () => {
  const { code, output } = await startWith({
    PAY_PUBLISHABLE_KEY: "pk_live_do-not-print-this-key",
    PAY_CLIENT_ID: "client",
    PAY_CLIENT_SECRET: "do-not-print-this-secret",
    PAY_API_BASE_URL: "http://insecure.invalid",
    PAY_SDK_URL: "http://insecure.invalid/sdks/v1/pay.js",
    PAY_WEBHOOK_SECRET: "do-not-print-this-webhook-secret",
    DATABASE_URL: "mysql://root:do-not-print-this-password@127.0.0.1/shop",
  });
  expect(code).toBe(1);
  expect(output).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
  expect(output).toMatch(/PAY_API_BASE_URL must use https:\/\//);
  expect(output).toMatch(/PAY_SDK_URL must use https:\/\//);
  expect(output).not.toContain("do-not-print-this");
});
