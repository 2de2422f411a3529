import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadEnvFiles, readServeConfig, readWebhookSecret, sandboxUrl, takeFlags } from "../src/cli.js";
import { randomCredentials } from "../src/credentials.js";
import { startTestSandbox, startWebhookReceiver, type TestSandbox, type WebhookReceiver } from "../src/testing.js";

// `npm run sandbox`: configuration from the environment, a clean start and stop, and the
// commands that drive a running sandbox.

const credentials = randomCredentials();
const validEnv = {
  PAY_PUBLISHABLE_KEY: credentials.publishableKey,
  PAY_CLIENT_ID: credentials.clientId,
  PAY_CLIENT_SECRET: credentials.clientSecret,
  PAY_WEBHOOK_SECRET: credentials.webhookSecret,
};

describe("readServeConfig", () => {
  it("reads the credentials, with port 4010 on 127.0.0.1, state in memory and no webhook URL by default", () => {
    expect(readServeConfig({ ...validEnv, SANDBOX_PORT: "" }, "/work")).toEqual({
      credentials,
      generated: false,
      port: 4010,
      host: "127.0.0.1",
      dataFile: undefined,
      webhookUrl: undefined,
      token: undefined,
    });
  });

  it("generates fresh test credentials when none is set, and refuses a partial set", () => {
    const config = readServeConfig({}, "/work");
    expect(config.generated).toBe(true);
    expect(config.credentials.publishableKey).toMatch(/^pk_test_[0-9a-f-]{36}$/);
    expect(readServeConfig({}, "/work").credentials.clientSecret).not.toBe(config.credentials.clientSecret);
    expect(() => readServeConfig({ PAY_CLIENT_ID: "client_1" }, "/work")).toThrow(
      /PAY_PUBLISHABLE_KEY is missing[\s\S]*PAY_CLIENT_SECRET is missing[\s\S]*PAY_WEBHOOK_SECRET is missing/,
    );
  });

  it("sends webhooks to SANDBOX_WEBHOOK_URL, an http(s) URL", () => {
    const explicit = { ...validEnv, SANDBOX_WEBHOOK_URL: "http://127.0.0.1:9999/hook" };
    expect(readServeConfig(explicit, "/work").webhookUrl).toBe("http://127.0.0.1:9999/hook");
    expect(() => readServeConfig({ ...validEnv, SANDBOX_WEBHOOK_URL: "ftp://x" }, "/work")).toThrow(
      /SANDBOX_WEBHOOK_URL must be an http\(s\) URL/,
    );
  });

  it("takes SANDBOX_PORT and SANDBOX_DATA_FILE", () => {
    const config = readServeConfig({ ...validEnv, SANDBOX_PORT: "4999", SANDBOX_DATA_FILE: "/tmp/x.json" }, "/work");
    expect(config).toMatchObject({ port: 4999, dataFile: "/tmp/x.json" });
    expect(readServeConfig({ ...validEnv, SANDBOX_DATA_FILE: "state.json" }, "/work").dataFile).toBe(
      "/work/state.json",
    );
  });

  it("takes SANDBOX_TOKEN, refusing a short one without printing it", () => {
    const token = "t".repeat(16);
    expect(readServeConfig({ ...validEnv, SANDBOX_TOKEN: token }, "/work").token).toBe(token);
    expect(readServeConfig({ ...validEnv, SANDBOX_TOKEN: "" }, "/work").token).toBeUndefined();
    expect(() => readServeConfig({ ...validEnv, SANDBOX_TOKEN: "short-secret" }, "/work")).toThrow(
      /SANDBOX_TOKEN must be at least 16 characters/,
    );
    expect(() => readServeConfig({ ...validEnv, SANDBOX_TOKEN: "short-secret" }, "/work")).not.toThrow(/short-secret/);
  });

  it("refuses a pk_live_ publishable key", () => {
    expect(() => readServeConfig({ ...validEnv, PAY_PUBLISHABLE_KEY: "pk_live_abc" }, "/work")).toThrow(
      /PAY_PUBLISHABLE_KEY must be pk_test_ .*refuses pk_live_ keys/,
    );
  });

  it("names every missing or bad variable and never prints a value", () => {
    const env = {
      ...validEnv,
      PAY_CLIENT_ID: "",
      PAY_PUBLISHABLE_KEY: "sk_secretvalue",
      SANDBOX_PORT: "99999",
      PAY_CLIENT_SECRET: undefined,
    };
    const message = (() => {
      try {
        readServeConfig(env, "/work");
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ["PAY_CLIENT_ID", "PAY_CLIENT_SECRET", "PAY_PUBLISHABLE_KEY", "SANDBOX_PORT"])
      expect(message).toContain(name);
    expect(message).not.toContain("PAY_WEBHOOK_SECRET");
    for (const value of ["sk_secretvalue", "99999", credentials.webhookSecret]) expect(message).not.toContain(value);
  });
});

describe("flags", () => {
  it("set their variables, as --name value or --name=value, anywhere on the line", () => {
    const env: Record<string, string | undefined> = { SANDBOX_PORT: "4010" };
    const rest = takeFlags(
      ["--port", "4999", "trigger", "--webhook-url=http://127.0.0.1:3000/hook", "approve", "--token", "t".repeat(16)],
      env,
    );
    expect(rest).toEqual(["trigger", "approve"]);
    expect(env).toEqual({
      SANDBOX_PORT: "4999",
      SANDBOX_WEBHOOK_URL: "http://127.0.0.1:3000/hook",
      SANDBOX_TOKEN: "t".repeat(16),
    });
  });

  it("refuse an unknown option or a missing value", () => {
    expect(takeFlags(["--prot", "1"], {})).toBe("unknown option --prot");
    expect(takeFlags(["serve", "--token"], {})).toBe("--token needs a value");
    expect(takeFlags(["--token="], {})).toBe("--token needs a value");
  });
});

describe("loadEnvFiles", () => {
  let directory: string;
  const names = ["SANDBOX_TEST_A", "SANDBOX_TEST_B", "SANDBOX_TEST_C"];
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "pay-sandbox-env-"));
  });
  afterEach(async () => {
    for (const name of names) delete process.env[name];
    await rm(directory, { recursive: true, force: true });
  });

  it("lets the process's variables win over .env.local, and .env.local over .env", async () => {
    await writeFile(join(directory, ".env"), "SANDBOX_TEST_A=env\nSANDBOX_TEST_B=env\nSANDBOX_TEST_C=env\n");
    await writeFile(join(directory, ".env.local"), "SANDBOX_TEST_A=local\nSANDBOX_TEST_B=local\n");
    process.env.SANDBOX_TEST_A = "process";
    loadEnvFiles(directory);
    expect(names.map((name) => process.env[name])).toEqual(["process", "local", "env"]);
  });

  it("does nothing when neither file exists", () => {
    expect(() => loadEnvFiles(directory)).not.toThrow();
  });
});

describe("the running sandbox's address and the webhook secret", () => {
  it("is SANDBOX_URL, or 127.0.0.1 on SANDBOX_PORT, 4010 by default", () => {
    expect(sandboxUrl({ SANDBOX_URL: "http://10.0.0.2:5000/", SANDBOX_PORT: "1" })).toBe("http://10.0.0.2:5000");
    expect(sandboxUrl({ SANDBOX_PORT: "4999" })).toBe("http://127.0.0.1:4999");
    expect(sandboxUrl({ SANDBOX_PORT: "" })).toBe("http://127.0.0.1:4010");
  });

  it("reads PAY_WEBHOOK_SECRET as written, or says where to set it", () => {
    expect(readWebhookSecret({ PAY_WEBHOOK_SECRET: " spaced secret " })).toBe(" spaced secret ");
    expect(() => readWebhookSecret({ PAY_WEBHOOK_SECRET: "" })).toThrow(
      /PAY_WEBHOOK_SECRET is not set in \.env\.local/,
    );
  });
});

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cliPath = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** Runs `pay-sandbox <args>` to its end, in an empty folder (no .env files). */
function runCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", tsxLoader, cliPath, ...args], {
    cwd: tmpdir(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout, stderr })),
  );
}

describe("commands for a running sandbox", () => {
  let sandbox: TestSandbox;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  beforeAll(async () => {
    receiver = await startWebhookReceiver({ secret: credentials.webhookSecret });
    sandbox = await startTestSandbox({ credentials, webhookUrl: receiver.url });
    env = { SANDBOX_URL: sandbox.url, SANDBOX_TOKEN: sandbox.token };
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it("trigger approve latest: approves the newest order and prints it with its delivered notification", async () => {
    const token = await sandbox.accessToken();
    const older = sandbox.orderBody();
    const newest = sandbox.orderBody({ amount: 7200 });
    await sandbox.createOrder(token, older);
    await sandbox.control("POST", "/clock", { advanceSeconds: 1 });
    await sandbox.createOrder(token, newest);

    const run = await runCli(["trigger", "approve", "latest"], env);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`order ${newest.externalTransactionId}: CON by FPMCXEXPRSS, 7200 AOA`);
    expect(run.stdout).toMatch(/notification dlv_\w+ CON \(normal\) to http:\S+: delivered, HTTP 200 after 1 attempt/);
    expect((await sandbox.control("GET", `/orders/${older.externalTransactionId}`)).body.order.status).toBe("PEN");
    expect(receiver.received.at(-1)!.json.data.externalTransactionId).toBe(newest.externalTransactionId);
  });

  it("trigger pending and redeliver by id; a refused change exits 1 with the sandbox's reason", async () => {
    const body = sandbox.orderBody();
    await sandbox.createOrder(await sandbox.accessToken(), body);
    const id = body.externalTransactionId as string;

    const pending = await runCli(["trigger", "pending", id], env);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toMatch(/: PEN by FPSOLPGEXT/);
    expect(pending.stdout).toMatch(/payment reference \d{9}, entity \d{5}, expires \d{4}-/);

    const redeliver = await runCli(["trigger", "redeliver", id], env);
    expect(redeliver.code).toBe(0);
    expect(redeliver.stdout).toMatch(/PEN \(redelivery\) .*delivered/);

    await sandbox.control("POST", `/orders/${id}/cancel`);
    const refused = await runCli(["trigger", "confirm", id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the order is already CAN, a final state (invalid_transition)");
  });

  it("forward-to: points the running sandbox's notifications at a URL", async () => {
    const other = await startWebhookReceiver({ secret: credentials.webhookSecret });
    try {
      const run = await runCli(["forward-to", other.url], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`now sends notifications to ${other.url}`);
      expect((await sandbox.control("GET", "/settings")).body.settings.webhookUrl).toBe(other.url);
      expect((await runCli(["forward-to", "not-a-url"], env)).code).toBe(1);
    } finally {
      await sandbox.control("POST", "/settings", { webhookUrl: receiver.url });
      await other.close();
    }
  });

  it("sends the token of --token or SANDBOX_TOKEN, and says where to find it when it is missing or wrong", async () => {
    const flagged = await runCli(["trigger", "redeliver", "order_unknown", "--token", sandbox.token], {
      SANDBOX_URL: sandbox.url,
      SANDBOX_TOKEN: "wrong-token-but-long-enough",
    });
    expect(flagged.stderr).toContain("no payment order with externalTransactionId order_unknown (not_found)");
    const wrong = await runCli(["forward-to", receiver.url], {
      SANDBOX_URL: sandbox.url,
      SANDBOX_TOKEN: "x".repeat(20),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("wrong x-sandbox-token header");
    expect(wrong.stderr).toContain("(unauthorized)");
    expect((await runCli(["trigger", "approve", "latest", "--token"], env)).code).toBe(2);
  });

  it("print-secret: prints PAY_WEBHOOK_SECRET alone", async () => {
    const run = await runCli(["print-secret"], { PAY_WEBHOOK_SECRET: credentials.webhookSecret });
    expect(run).toMatchObject({ code: 0, stdout: `${credentials.webhookSecret}\n` });
  });

  it("says so when no sandbox is running, and shows the usage for a wrong command", async () => {
    const closed = await startTestSandbox();
    await closed.close();
    const run = await runCli(["trigger", "approve", "latest"], {
      SANDBOX_URL: closed.url,
      SANDBOX_TOKEN: closed.token,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`No sandbox answers at ${closed.url}`);
    const usage = await runCli(["trigger", "approve"], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Usage: pay-sandbox[\s\S]*forward-to <url>/);
    const help = await runCli(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /Usage: pay-sandbox[\s\S]*--port <port>[\s\S]*--webhook-url <url>[\s\S]*--token <token>/,
    );
  });
});

describe("serve", () => {
  /** Starts `pay-sandbox serve` with `args` and `env` and waits until it has printed its variables. */
  async function serve(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, ["--import", tsxLoader, cliPath, ...args], {
      cwd: tmpdir(),
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await expect
      .poll(() => output, { timeout: 15_000 })
      .toMatch(/listening on http:\/\/127\.0\.0\.1:\d+[\s\S]*^SANDBOX_TOKEN=\S+$/m);
    const variables = Object.fromEntries(
      [...output.matchAll(/^([A-Z_]+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]),
    );
    return { child, exited, output: () => output, variables, url: /listening on (\S+)/.exec(output)![1]! };
  }

  it("starts on SANDBOX_PORT with the credentials set, prints where it is and its token but no secret, and stops on SIGTERM", async () => {
    const directory = await mkdtemp(join(tmpdir(), "pay-sandbox-cli-"));
    const run = await serve([], { ...validEnv, SANDBOX_PORT: "0", SANDBOX_DATA_FILE: join(directory, "state.json") });
    try {
      expect(Object.keys(run.variables)).toEqual(["PAY_API_BASE_URL", "PAY_SDK_URL", "SANDBOX_TOKEN"]);
      expect(run.variables.PAY_SDK_URL).toBe(`${run.url}/sdks/v1/pay.js`);
      const health = await fetch(`${run.url}/__sandbox/health`, {
        headers: { "x-sandbox-token": run.variables.SANDBOX_TOKEN! },
      });
      expect(health.status).toBe(200);

      run.child.kill("SIGTERM");
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain("stopped");
      for (const secret of [credentials.clientSecret, credentials.webhookSecret])
        expect(run.output()).not.toContain(secret);
    } finally {
      run.child.kill("SIGKILL");
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("with no credentials set, prints fresh ones as VARIABLE=value lines that the sandbox accepts", async () => {
    const bare = Object.fromEntries(Object.keys(validEnv).map((name) => [name, ""]));
    const run = await serve(["--port", "0", "--webhook-url", "http://127.0.0.1:9/api/pay/webhook"], bare);
    try {
      const printed = run.variables;
      expect(Object.keys(printed)).toEqual([
        "PAY_PUBLISHABLE_KEY",
        "PAY_CLIENT_ID",
        "PAY_CLIENT_SECRET",
        "PAY_WEBHOOK_SECRET",
        "PAY_API_BASE_URL",
        "PAY_SDK_URL",
        "SANDBOX_TOKEN",
      ]);
      expect(printed.PAY_PUBLISHABLE_KEY).toMatch(/^pk_test_/);
      const token = await fetch(`${printed.PAY_API_BASE_URL}/token`, {
        method: "POST",
        headers: {
          Authorization: `Basic ${Buffer.from(`${printed.PAY_CLIENT_ID}:${printed.PAY_CLIENT_SECRET}`).toString("base64")}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&validity_period=3600",
      });
      expect(token.status).toBe(200);
      expect(run.output()).toContain("http://127.0.0.1:9/api/pay/webhook");
    } finally {
      run.child.kill("SIGKILL");
    }
  });
});
