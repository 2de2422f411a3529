import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The package as an integrator gets it: `npm pack`, installed into an empty folder outside the
// repository, then run with npx's binary. Nothing here imports the source.

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL("..", import.meta.url));

let folder: string;
let bin: string;
let server: ChildProcess | undefined;
let output = "";

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "pay-sandbox-pack-"));
  // npm pack runs prepack (the build) first.
  await run("npm", ["pack", "--pack-destination", folder, "--silent"], { cwd: packageRoot, timeout: 120_000 });
  const [tarball] = (await readdir(folder)).filter((name) => name.endsWith(".tgz"));
  await writeFile(join(folder, "package.json"), JSON.stringify({ name: "integrator", private: true }));
  // Its one dependency (zod) comes from npm's cache when it has it, else the registry.
  // @types/node only for the type check below, as a TypeScript project of the integrator's has it.
  await run(
    "npm",
    ["install", `./${tarball}`, "@types/node@20", "--prefer-offline", "--no-audit", "--no-fund", "--silent"],
    {
      cwd: folder,
      timeout: 120_000,
    },
  );
  bin = join(folder, "node_modules", ".bin", "pay-sandbox");
}, 240_000);

afterAll(async () => {
  server?.kill("SIGKILL");
  await rm(folder, { recursive: true, force: true });
});

describe("the packed package, installed in an empty folder", () => {
  it("holds only what it ships: the build, the browser files, the README and the licence", async () => {
    const installed = join(folder, "node_modules", "pay-sandbox");
    expect((await readdir(installed)).sort()).toEqual(["LICENSE", "README.md", "assets", "dist", "package.json"]);
  });

  it("types a TypeScript consumer under node16/nodenext resolution, the strictest there is", async () => {
    await writeFile(
      join(folder, "consumer.ts"),
      [
        'import { randomCredentials, startSandbox, type SandboxOptions } from "pay-sandbox";',
        'import { controlClient, ControlError, type ControlClient } from "pay-sandbox/client";',
        'import type { PayButtonConfig, PayGlobal } from "pay-sandbox/sdk";',
        "const options: SandboxOptions = { port: 0, credentials: randomCredentials() };",
        'const client: ControlClient = controlClient({ url: "http://127.0.0.1:4010", token: "t".repeat(16) });',
        "const orders: Promise<{ status: string }[]> = client.orders();",
        "declare const Pay: PayGlobal;",
        "declare const config: PayButtonConfig;",
        'Pay("pk_test_x").generateButton(config).render("#pay");',
        "export { options, orders, startSandbox, ControlError };",
      ].join("\n"),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const check = await run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--types",
        "node",
        "consumer.ts",
      ],
      { cwd: folder },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(check.stdout).toBe("");
  });

  it("prints its usage for --help", async () => {
    const { stdout } = await run(bin, ["--help"], { cwd: folder });
    expect(stdout).toMatch(/^Usage: pay-sandbox/);
    expect(stdout).toContain("--webhook-url <url>");
  });

  it("serves the SDK, the dashboard with its token and /token for the credentials it printed, and guards its control API", async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PAY_|SANDBOX_)/.test(name)));
    server = spawn(bin, ["--port", "0", "--webhook-url", "http://localhost:3000/api/pay/webhook"], {
      cwd: folder,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 15_000 }).toMatch(/^SANDBOX_TOKEN=\S+$/m);
    const printed = Object.fromEntries([...output.matchAll(/^([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    const url = printed.PAY_API_BASE_URL!;
    const token = printed.SANDBOX_TOKEN!;

    const sdk = await fetch(printed.PAY_SDK_URL!);
    expect(sdk.status).toBe(200);
    expect(await sdk.text()).toContain("generateButton");
    const dashboard = await fetch(`${url}/__sandbox/dashboard?token=${token}`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get("content-type")).toMatch(/^text\/html/);

    const basic = Buffer.from(`${printed.PAY_CLIENT_ID}:${printed.PAY_CLIENT_SECRET}`).toString("base64");
    const accessToken = await fetch(`${url}/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&validity_period=3600",
    });
    expect(accessToken.status).toBe(200);
    expect((await accessToken.json()).access_token).toEqual(expect.any(String));

    const settings = `${url}/__sandbox/settings`;
    const json = { "Content-Type": "application/json" };
    expect((await fetch(settings, { method: "POST", headers: json, body: "{}" })).status).toBe(401);
    expect((await fetch(`${url}/__sandbox/dashboard`)).status).toBe(401);
    const foreignHost = await new Promise<number>((resolve, reject) => {
      // fetch cannot set Host; a raw request can, as a DNS-rebound page's would arrive.
      const call = request(
        settings,
        { headers: { Host: "attacker.example", "x-sandbox-token": token } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      call.on("error", reject);
      call.end();
    });
    expect(foreignHost).toBe(403);
    const plain = await fetch(settings, {
      method: "POST",
      headers: { "x-sandbox-token": token, "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(plain.status).toBe(415);
    expect((await fetch(settings, { headers: { "x-sandbox-token": token } })).status).toBe(200);
  });
});
