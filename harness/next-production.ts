import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `next build` and the shop's production server (scripts/serve.mjs, what `npm start` runs) as
 * child processes, for the e2e server and the benchmarks: both measure or test what a
 * deployment runs, the production build, not `next dev`. The one exception, the e2e project
 * that checks `npm run dev` itself (harness/e2e-dev-server.ts), starts `next dev` from here too.
 */

// Next's own entry point as our direct child (not through npx), so stopping it stops it.
export const NEXT_BIN = fileURLToPath(import.meta.resolve("next/dist/bin/next"));
/** The production server: Next's request handler behind one that appends the peer to X-Forwarded-For. */
export const SERVE_SCRIPT = fileURLToPath(new URL("../scripts/serve.mjs", import.meta.url));

/** The child's environment: ours, without NODE_ENV (Next sets it and warns about other values), plus `appEnv`. */
function childEnv(appEnv: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _ignored, ...inherited } = process.env;
  // Next's types declare NODE_ENV as always present; leaving it out is the point here.
  return { ...inherited, ...appEnv } as NodeJS.ProcessEnv;
}

/**
 * Runs `next build`, unless the variable named `skipVariable` is "1": then the existing .next/
 * build is used (and its absence is an error). Opt-in only, because a build left from other
 * sources would silently be what gets tested or measured.
 */
export async function prepareProductionBuild(options: {
  root: string;
  appEnv: Record<string, string>;
  skipVariable: string;
  output: "inherit" | "on-failure";
  log: (line: string) => void;
}): Promise<void> {
  if (process.env[options.skipVariable] === "1") {
    if (!existsSync(path.join(options.root, ".next", "BUILD_ID"))) {
      throw new Error(`${options.skipVariable}=1 but there is no production build in .next/; run once without it`);
    }
    options.log(`${options.skipVariable}=1: using the existing .next/ build`);
    return;
  }
  options.log(options.output === "inherit" ? "next build" : "next build (its output is shown only if it fails)");
  await buildNextApp(options);
}

/**
 * Runs `next build` in `root`. With output "on-failure" its output is kept and printed only
 * if the build fails, for callers whose own output matters more (the benchmarks).
 */
async function buildNextApp(options: {
  root: string;
  appEnv: Record<string, string>;
  output: "inherit" | "on-failure";
}): Promise<void> {
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: options.root,
    env: childEnv(options.appEnv),
    stdio: options.output === "inherit" ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
  });
  const captured: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => captured.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => captured.push(chunk));
  const code = await exitCodeOf(child);
  if (code !== 0) {
    if (captured.length) process.stderr.write(Buffer.concat(captured));
    throw new Error(`next build failed (exit code ${code})`);
  }
}

export interface RunningNextServer {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code when the server exits, for whatever reason. */
  exited: Promise<number | null>;
  /** SIGTERM, and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the production server (scripts/serve.mjs, as `npm start` does) on 127.0.0.1:`port`
 * (loopback only) from an existing production build.
 */
export function startNextServer(options: {
  root: string;
  appEnv: Record<string, string>;
  port: number;
  /** Default: inherit both; "quiet" drops stdout (request logs, banner) and keeps stderr. */
  output?: "inherit" | "quiet";
}): RunningNextServer {
  const host = "127.0.0.1";
  const child = spawn(process.execPath, [SERVE_SCRIPT, "--port", String(options.port), "--hostname", host], {
    cwd: options.root,
    env: childEnv(options.appEnv),
    stdio: ["ignore", options.output === "quiet" ? "ignore" : "inherit", "inherit"],
  });
  return runningServer(`http://${host}:${options.port}`, child);
}

/**
 * Starts `next dev` on `port` the way `npm run dev` does (harness/dev.ts): without --hostname,
 * so it listens on every interface and serves its development resources (/_next/*, the HMR
 * socket) to pages from localhost and next.config's allowedDevOrigins only. A --hostname would
 * be allowed as well, and hide a missing entry there. Its output goes to `.next/dev/`, beside a
 * production build in `.next/`, which `next build` leaves alone.
 */
export function startNextDevServer(options: {
  root: string;
  appEnv: Record<string, string>;
  port: number;
}): RunningNextServer {
  const child = spawn(process.execPath, [NEXT_BIN, "dev", "--port", String(options.port)], {
    cwd: options.root,
    env: childEnv(options.appEnv),
    stdio: ["ignore", "inherit", "inherit"],
  });
  return runningServer(`http://localhost:${options.port}`, child);
}

function runningServer(url: string, child: ChildProcess): RunningNextServer {
  const exited = exitCodeOf(child);
  return {
    url,
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Resolves once `url` answers with any HTTP status; rejects when `exited` settles first
 * (the server died) or after `timeoutMs`.
 */
export async function waitUntilAnswering(
  url: string,
  options: { exited: Promise<unknown>; timeoutMs: number },
): Promise<void> {
  let serverExited = false;
  void options.exited.then(() => (serverExited = true));
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (serverExited) throw new Error(`the server exited before ${url} answered`);
    // A body cut by the timeout (a server still starting, on a busy machine) is no answer yet.
    const answered = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then(async (response) => (await response.arrayBuffer(), true))
      .catch(() => false);
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${options.timeoutMs} ms`);
    // Polling a port that is not listening yet; the interval only bounds how often we ask.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exitCodeOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}
