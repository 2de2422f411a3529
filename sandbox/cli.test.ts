import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEnvFiles, readServeConfig } from "./cli";
import { randomCredentials } from "./credentials";

// `npm run sandbox`: configuration from the environment and a clean start and stop.

const credentials = randomCredentials();
const validEnv = {
  PAY_PUBLISHABLE_KEY: credentials.publishableKey,
  PAY_CLIENT_ID: credentials.clientId,
  PAY_CLIENT_SECRET: credentials.clientSecret,
  PAY_WEBHOOK_SECRET: credentials.webhookSecret,
};

describe("readServeConfig", () => {
  it("reads the credentials, with port 4010 and .sandbox/state.json under the root by default", () => {
    expect(readServeConfig({ ...validEnv, SANDBOX_PORT: "" }, "/repo")).toEqual({
      credentials,
      port: 4010,
      dataFile: "/repo/.sandbox/state.json",
    });
  });

  it("takes SANDBOX_PORT and SANDBOX_DATA_FILE", () => {
    const config = readServeConfig({ ...validEnv, SANDBOX_PORT: "4999", SANDBOX_DATA_FILE: "/tmp/x.json" }, "/repo");
    expect(config).toMatchObject({ port: 4999, dataFile: "/tmp/x.json" });
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
        readServeConfig(env, "/repo");
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

describe("serve", () => {
  it("starts on SANDBOX_PORT, answers, and stops cleanly on SIGTERM", async () => {
    const directory = await mkdtemp(join(tmpdir(), "pay-sandbox-cli-"));
    const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url));
    const child = spawn(tsx, [fileURLToPath(new URL("./cli.ts", import.meta.url))], {
      env: { ...process.env, ...validEnv, SANDBOX_PORT: "0", SANDBOX_DATA_FILE: join(directory, "state.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      await expect.poll(() => output, { timeout: 15_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      const url = /listening on (\S+)/.exec(output)![1]!;
      expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);

      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toContain("stopped");
      for (const secret of [credentials.clientSecret, credentials.webhookSecret]) expect(output).not.toContain(secret);
    } finally {
      child.kill("SIGKILL");
      await rm(directory, { recursive: true, force: true });
    }
  });
});
