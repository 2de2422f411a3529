import { execFile, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_PRODUCTS } from "@/scripts/db/seed.mjs";
import { pt } from "@/lib/i18n/dictionaries";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { waitUntilAnswering } from "@/harness/next-production";
import { composeServices, parseDockerfile, type DockerStage } from "../../harness/support/container-recipe";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";
import { freshCopy, type FreshCopy } from "../../harness/support/fresh-copy";

// The shop self-hosted as docs/self-hosting.md, the Dockerfile and compose.yaml run it, without a
// container (this machine has no container daemon). A fresh copy of the repository is built with
// the Dockerfile's build-stage commands, as written there (`npm run build`, then the prune of dev
// dependencies); the runtime stage is assembled from its COPY lines alone; then the image's CMD
// and HEALTHCHECK and compose.yaml's migrate and worker commands run in it against a scratch
// database and the suite's sandbox. The deps stage's `npm install` is the one step stood in for:
// the checkout's node_modules, installed from the same lock file, hard-linked in (no network).
//
// CI runs the suite twice, against PostgreSQL and against embedded PGlite. What is built here
// does not depend on the database, and a self-hosted shop runs on a PostgreSQL server, so CI runs
// this file once, in the PostgreSQL run (it takes about a minute, most of it `next build`).
// Elsewhere it runs in either mode.

const root = fileURLToPath(new URL("../../", import.meta.url));
const BUILD_TIMEOUT_MS = 10 * 60_000;
const embedded = !inject("serverDatabaseUrl");

/** What a container's processes have besides the image's ENV: a PATH, and a HOME for npm's cache and logs. */
const hostEnv = Object.fromEntries(
  ["PATH", "HOME", "TMPDIR", "LANG"].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
);

// Next's types declare NODE_ENV as always present; these environments leave it to the image's ENV.
const processEnv = (env: Record<string, string>) => env as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv;

interface Run {
  code: number | null;
  output: string;
}

function run(command: string[], options: { cwd: string; env: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command[0]!,
      command.slice(1),
      { cwd: options.cwd, env: processEnv(options.env), timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

interface Running {
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM to the process itself, as `docker stop` sends it to a container's first process; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<Running>();

function start(command: string[], options: { cwd: string; env: Record<string, string> }): Running {
  // A process group of its own, so that clean-up can end whatever it started as well.
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: processEnv(options.env),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  };
  const handle: Running = {
    output: () => Buffer.concat(chunks).toString(),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      // Still there after the server's own 10 s grace: the whole group goes.
      const timer = setTimeout(killGroup, 20_000);
      const code = await exited;
      clearTimeout(timer);
      // Whatever it started and left behind goes too, so a failed test leaves no server running.
      killGroup();
      running.delete(handle);
      return code;
    },
  };
  running.add(handle);
  return handle;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An npm script split into its leading VAR=value assignments and the command they run. */
function npmScript(script: string): { env: Record<string, string>; command: string[] } {
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let assignment; (assignment = /^(\w+)=(\S*)$/.exec(words[0] ?? "")); words.shift())
    env[assignment[1]!] = assignment[2]!;
  return { env, command: words };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe.skipIf(Boolean(process.env.CI) && embedded)(
  "self-hosting: the Dockerfile's build and runtime, without a container",
  () => {
    let stages: DockerStage[];
    let services: ReturnType<typeof composeServices>;
    let copy: FreshCopy;
    let runtimeDir: string;
    let database: TestDatabase;

    const stage = (name: string) => {
      const found = stages.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`the Dockerfile has no stage named ${name}`);
      return found;
    };

    /** The runtime stage's environment with the suite's PAY_ settings and sandbox, as `docker run -e …` would add them. */
    const runtimeEnv = (overrides: Record<string, string>) => ({
      ...hostEnv,
      ...stage("runtime").env,
      ...inject("appEnv"),
      // Mail goes to the outbox (the emails table), never to a server.
      SMTP_URL: "",
      ...overrides,
    });

    beforeAll(async () => {
      stages = parseDockerfile(await readFile(path.join(root, "Dockerfile"), "utf8"));
      services = composeServices(await readFile(path.join(root, "compose.yaml"), "utf8"));
      database = await createTestDatabase("self_host");

      copy = await freshCopy("self-host");
      // npm rewrites its record of the installed tree (node_modules/.package-lock.json) when it
      // prunes; the copy gets a file of its own, so the checkout's is not rewritten through the link.
      const hiddenLock = path.join(copy.dir, "node_modules", ".package-lock.json");
      await rm(hiddenLock, { force: true });
      await copyFile(path.join(root, "node_modules", ".package-lock.json"), hiddenLock);

      const build = stage("build");
      for (const command of build.run) {
        const started = Date.now();
        const result = await run(["sh", "-c", command], { cwd: copy.dir, env: { ...hostEnv, ...build.env } });
        if (result.code !== 0) throw new Error(`\`${command}\` failed (exit code ${result.code}):\n${result.output}`);
        console.log(`[self-host] ${command}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }

      // The runtime stage: only what its COPY lines take from the build stage (hard links, not copies).
      const runtime = stage("runtime");
      runtimeDir = await mkdtemp(path.join(os.tmpdir(), "pay-self-host-runtime-"));
      for (const { from, sources, destination } of runtime.copy) {
        if (from !== build.name)
          throw new Error(`the runtime stage copies from ${from}; only the build stage is read here`);
        for (const source of sources) {
          const inBuild = path.join(copy.dir, path.posix.relative(build.workdir, source));
          const target = path.resolve(
            runtimeDir,
            path.posix.relative(runtime.workdir, path.posix.resolve(runtime.workdir, destination)),
          );
          const into =
            sources.length > 1 || destination.endsWith("/") ? path.join(target, path.basename(source)) : target;
          await mkdir(path.dirname(into), { recursive: true });
          await run(["cp", "-al", inBuild, into], { cwd: root, env: hostEnv }).then((result) => {
            if (result.code !== 0) throw new Error(`COPY ${source}: ${result.output}`);
          });
        }
      }
    }, BUILD_TIMEOUT_MS);

    afterAll(async () => {
      for (const handle of [...running]) await handle.stop();
      if (runtimeDir) await rm(runtimeDir, { recursive: true, force: true });
      await copy?.remove();
      await database?.drop();
    });

    it("follows the repository: Node major, non-root runtime, the port, a build context like a fresh clone", async () => {
      const nodeMajor = (await readFile(path.join(root, ".nvmrc"), "utf8")).trim();
      const { engines, scripts } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
      expect(engines.node).toBe(`${nodeMajor}.x`);
      for (const { from } of stages) {
        if (!stages.some((earlier) => earlier.name === from)) expect(from).toBe(`node:${nodeMajor}-bookworm-slim`);
      }

      // The deps stage's install, which this test stands in for with the checkout's node_modules.
      expect(stage("deps").run).toEqual(["npm install --no-audit --no-fund --ignore-scripts"]);

      const runtime = stage("runtime");
      expect(runtime.user).toBe("node");
      expect(runtime.env).toMatchObject({ NODE_ENV: "production", PORT: "3000", HOSTNAME: "0.0.0.0" });
      expect(runtime.expose).toEqual([runtime.env.PORT]);
      // The container runs `npm start`'s and `npm run start:worker`'s commands without npm, which
      // does not pass a SIGTERM on (docker stop): the same commands, the same variables.
      const start = npmScript(scripts.start);
      expect(runtime.cmd).toEqual(start.command);
      expect(runtime.env).toMatchObject(start.env);
      const startWorker = npmScript(scripts["start:worker"]);
      expect(services.get("worker")?.command).toEqual(startWorker.command);
      expect(runtime.env).toMatchObject(startWorker.env);

      // `COPY . .` sees what a fresh clone holds (what this test builds from), never local secrets.
      const ignored = (file: string) =>
        readFile(path.join(root, file), "utf8").then((text) =>
          text.split("\n").filter((line) => line && !line.startsWith("#")),
        );
      const dockerignore = await ignored(".dockerignore");
      expect(dockerignore).toEqual(expect.arrayContaining([...(await ignored(".gitignore")), ".git", ".env*"]));

      expect([...services.keys()].sort()).toEqual(["app", "caddy", "migrate", "postgres", "worker"]);
      // The app service runs the image's CMD and HEALTHCHECK.
      expect(services.get("app")?.command).toBeUndefined();
    });

    it("builds, then leaves no dev dependency behind", async () => {
      for (const built of [".next/BUILD_ID", "dist/worker.mjs", "dist/reconcile.mjs", "dist/catalogue-import.mjs"]) {
        expect(await exists(path.join(copy.dir, built)), built).toBe(true);
      }
      for (const devDependency of ["tsx", "vitest", "esbuild", "prettier", "@electric-sql/pglite", "vercel"]) {
        expect(await exists(path.join(copy.dir, "node_modules", devDependency)), devDependency).toBe(false);
      }
      for (const dependency of ["next", "pg", "@prisma/client", "@prisma/adapter-pg", "zod", "server-only"]) {
        expect(await exists(path.join(copy.dir, "node_modules", dependency)), dependency).toBe(true);
      }
    });

    it("compose's migrate: migrates an empty database and loads the demo catalogue once", async () => {
      // `$$` is compose's escape for a `$` the container's shell reads.
      const migrate = services.get("migrate")!.command!.map((word) => word.replaceAll("$$", "$"));
      const env = runtimeEnv({ DATABASE_URL: database.url, SEED_DEMO_CATALOGUE: "1" });

      const first = await run(migrate, { cwd: runtimeDir, env });
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain(`[seed] demo catalogue loaded`);
      const again = await run(migrate, { cwd: runtimeDir, env });
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain("[migrate] database schema is up to date");
      expect(again.output).toContain("already has products; the demo catalogue was not loaded");

      const withoutDemo = await run(migrate, { cwd: runtimeDir, env: { ...env, SEED_DEMO_CATALOGUE: "0" } });
      expect(withoutDemo.code, withoutDemo.output).toBe(0);
      expect(withoutDemo.output).not.toContain("[seed]");

      await withPgClient(database.url, async (client) => {
        const { rows } = await client.query("SELECT slug FROM products ORDER BY slug");
        expect(rows.map((row) => row.slug)).toEqual(DEMO_PRODUCTS.map((product) => product.slug).sort());
      });
    });

    it("the image's CMD serves the shop: health 200, the catalogue, pages, public files, the service worker, next.config's headers; the HEALTHCHECK passes; SIGTERM stops it", async () => {
      const runtime = stage("runtime");
      const port = String(await freePort());
      const cronSecret = "operators-secret-for-the-health-details";
      const env = runtimeEnv({
        DATABASE_URL: database.url,
        PORT: port,
        HOSTNAME: "127.0.0.1",
        CRON_SECRET: cronSecret,
      });
      const server = start(runtime.cmd!, { cwd: runtimeDir, env });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/api/health`, { exited: server.exited, timeoutMs: 60_000 }).catch((error) => {
        throw new Error(`${error.message}\n${server.output()}`);
      });

      const health = await fetch(`${url}/api/health`);
      expect(health.status, server.output()).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
      const details = await fetch(`${url}/api/health`, { headers: { Authorization: `Bearer ${cronSecret}` } });
      expect(await details.json()).toEqual({ status: "ok", database: "ok", migrations: "current" });

      const products = await fetch(`${url}/api/products`);
      expect(products.status, server.output()).toBe(200);
      // next.config.mjs is part of the runtime stage: its headers and settings apply.
      expect(products.headers.get("x-frame-options")).toBe("DENY");
      expect(products.headers.get("x-powered-by")).toBeNull();
      const catalogue = (await products.json()) as { slug: string; name: string; priceAoa: number; stock: number }[];
      expect(
        catalogue
          .map(({ slug, name, priceAoa, stock }) => ({ slug, name, priceAoa, stock }))
          .sort((a, b) => a.slug.localeCompare(b.slug)),
      ).toEqual(
        DEMO_PRODUCTS.map(({ slug, name, priceAoa, initialStock }) => ({
          slug,
          name,
          priceAoa,
          stock: initialStock,
        })).sort((a, b) => a.slug.localeCompare(b.slug)),
      );

      // A page rendered on the server, its scripts from .next/static, and a file from public/.
      const home = await fetch(url);
      expect(home.status, server.output()).toBe(200);
      const html = await home.text();
      expect(html).toContain(DEMO_PRODUCTS[0]!.name);
      const script = /\/_next\/static\/[^"]+\.js/.exec(html)?.[0];
      expect(script, "a script of the page").toBeDefined();
      expect((await fetch(`${url}${script}`)).status).toBe(200);
      const image = await fetch(`${url}${DEMO_PRODUCTS[0]!.imagePath}`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      // The service worker, prerendered by the build: served without the packages that built it
      // (serwist and @serwist/turbopack are dev dependencies, pruned), for the whole shop.
      const worker = await fetch(`${url}/serwist/sw.js`);
      expect(worker.status, server.output()).toBe(200);
      expect(worker.headers.get("service-worker-allowed")).toBe("/");
      expect(await worker.text()).toContain('url:"/offline"');
      // The page it precaches: not built ahead by an image's build (no settings then), rendered on its first request.
      const offline = await fetch(`${url}/offline`);
      expect(offline.status, server.output()).toBe(200);
      expect(await offline.text()).toContain(pt.offline.title);

      const healthcheck = await run(runtime.healthcheck!, { cwd: runtimeDir, env });
      expect(healthcheck.code, healthcheck.output).toBe(0);

      expect(await server.stop(), server.output()).toBe(0);
      expect(server.output()).toContain("[serve] SIGTERM: finishing requests in flight");
    }, 120_000);

    it("compose's worker: --once runs what is due, the loop stops cleanly on SIGTERM; start:reconcile sweeps once", async () => {
      const worker = services.get("worker")!.command!;
      const env = runtimeEnv({ DATABASE_URL: database.url });

      const once = await run([...worker, "--once"], { cwd: runtimeDir, env });
      expect(once.code, once.output).toBe(0);
      expect(once.output).toContain("[worker] ran the due jobs: 0 done, 0 retried, 0 parked");

      const reconcile = await run(["npm", "run", "start:reconcile"], { cwd: runtimeDir, env });
      expect(reconcile.code, reconcile.output).toBe(0);
      expect(reconcile.output).toContain("[reconcile] checked 0 pending orders");

      const loop = start(worker, { cwd: runtimeDir, env });
      await until(() => loop.output().includes("[worker] polling for due jobs"), "the worker to start polling");
      expect(await loop.stop(), loop.output()).toBe(0);
      expect(loop.output()).toContain("[worker] stopped after 0 done, 0 retried, 0 parked");
    }, 120_000);

    it("with the database unreachable the server still starts; /api/health answers 503 unavailable and the HEALTHCHECK fails", async () => {
      const runtime = stage("runtime");
      const port = String(await freePort());
      // Port 1: nothing listens there, so every connection is refused at once.
      const env = runtimeEnv({
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/shop",
        PORT: port,
        HOSTNAME: "127.0.0.1",
      });
      const server = start(runtime.cmd!, { cwd: runtimeDir, env });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/api/health`, { exited: server.exited, timeoutMs: 60_000 }).catch((error) => {
        throw new Error(`${error.message}\n${server.output()}`);
      });

      const health = await fetch(`${url}/api/health`);
      expect(health.status, server.output()).toBe(503);
      expect(health.headers.get("content-type")).toMatch(/^application\/json/);
      // Why is for the operators (Authorization: Bearer <CRON_SECRET>): tests/integration/db/health.test.ts.
      expect(await health.json()).toEqual({ status: "unavailable" });

      const healthcheck = await run(runtime.healthcheck!, { cwd: runtimeDir, env });
      expect(healthcheck.code).toBe(1);

      expect(await server.stop(), server.output()).toBe(0);
    }, 120_000);
  },
);
