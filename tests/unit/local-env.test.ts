import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextDevPort, prepareLocalEnv } from "../../harness/local-env";

// What `npm run dev` writes to .env.local on a fresh clone, and what it leaves alone after.

let root: string;
const lines: string[] = [];
const prepare = (processEnv: Record<string, string> = {}, nextArgs: string[] = []) =>
  prepareLocalEnv({ root, processEnv: processEnv as NodeJS.ProcessEnv, log: (line) => lines.push(line), nextArgs });
const written = async () => parseEnv(await readFile(join(root, ".env.local"), "utf8"));

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "local-env-"));
  lines.length = 0;
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("prepareLocalEnv", () => {
  it("writes test credentials, the sandbox's token and webhook URL, and the back office's secrets on a fresh clone", async () => {
    const env = prepare({ APP_URL: "http://127.0.0.1:3001/" });
    const file = await written();
    expect(Object.keys(file).sort()).toEqual(
      [
        "ADMIN_PASSWORD",
        "ADMIN_SESSION_SECRET",
        "PAY_API_BASE_URL",
        "PAY_CLIENT_ID",
        "PAY_CLIENT_SECRET",
        "PAY_PUBLISHABLE_KEY",
        "PAY_SDK_URL",
        "PAY_WEBHOOK_SECRET",
        "SANDBOX_TOKEN",
        "SANDBOX_WEBHOOK_URL",
      ].sort(),
    );
    expect(file.PAY_PUBLISHABLE_KEY).toMatch(/^pk_test_/);
    expect(file.PAY_API_BASE_URL).toBe("http://127.0.0.1:4010");
    expect(file.SANDBOX_WEBHOOK_URL).toBe("http://127.0.0.1:3001/api/pay/webhook");
    expect(env).toMatchObject(file);
    expect(lines.join("\n")).toContain(file.ADMIN_PASSWORD);
  });

  it("keeps what is already set and appends nothing when nothing is missing", async () => {
    await writeFile(join(root, ".env.local"), "SANDBOX_TOKEN=mine-and-long-enough\n");
    prepare();
    const first = await readFile(join(root, ".env.local"), "utf8");
    expect((await written()).SANDBOX_TOKEN).toBe("mine-and-long-enough");
    prepare();
    expect(await readFile(join(root, ".env.local"), "utf8")).toBe(first);
  });

  it("writes no sandbox settings for a remote service, and wants its credentials set", async () => {
    expect(() => prepare({ PAY_API_BASE_URL: "https://api.example.test" })).toThrow(
      /PAY_API_BASE_URL points at a remote service, so these must be set too: PAY_PUBLISHABLE_KEY/,
    );
    const remote = {
      PAY_API_BASE_URL: "https://api.example.test",
      PAY_SDK_URL: "https://api.example.test/sdks/v1/pay.js",
      PAY_PUBLISHABLE_KEY: "pk_test_x",
      PAY_CLIENT_ID: "c",
      PAY_CLIENT_SECRET: "s",
      PAY_WEBHOOK_SECRET: "w",
    };
    prepare(remote);
    expect(Object.keys(await written()).sort()).toEqual(["ADMIN_PASSWORD", "ADMIN_SESSION_SECRET"]);
  });

  it("points an unset APP_URL, and the sandbox's notifications, at the port next dev listens on", async () => {
    const env = prepare({ PORT: "3005" }, ["--turbopack", "-p", "3007"]);
    expect(env.APP_URL).toBe("http://localhost:3007");
    expect((await written()).SANDBOX_WEBHOOK_URL).toBe("http://localhost:3007/api/pay/webhook");
    expect(prepare({ PORT: "3005" }).APP_URL).toBe("http://localhost:3005");
    expect(prepare({ APP_URL: "https://shop.example.ao", PORT: "3005" }).APP_URL).toBe("https://shop.example.ao");
  });
});

describe("nextDevPort", () => {
  it("reads --port and -p in each of their spellings, then PORT, then 3000", () => {
    expect(nextDevPort(["--port", "3001"], {})).toBe("3001");
    expect(nextDevPort(["--port=3002"], { PORT: "4000" })).toBe("3002");
    expect(nextDevPort(["-p", "3003"], {})).toBe("3003");
    expect(nextDevPort(["-p3004"], {})).toBe("3004");
    expect(nextDevPort(["--hostname", "0.0.0.0"], { PORT: "4000" })).toBe("4000");
    expect(nextDevPort([], { PORT: "not-a-port" })).toBe("3000");
    expect(nextDevPort([], {})).toBe("3000");
  });
});
