/**
 * `npm run bench`: each scenario (bench/scenarios/) against the app's production build
 * (`scripts/serve.mjs`, as `npm start` runs it) and against a bare node:http + pg baseline doing the same work, both on
 * the same scratch database, measured in this run, and every run checked in the database
 * afterwards. See bench/README.md.
 *
 * Settings (environment): DATABASE_URL (a PostgreSQL server to create the scratch database
 * on; embedded PGlite when unset), BENCH_SCENARIOS (comma-separated names; all by default),
 * BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (10),
 * BENCH_RATE (requests/s of the fixed-rate run: 200, or the scenario's own `fixedRate`),
 * BENCH_PACING (`even`, the default, or `burst`: autocannon's bursts at the fixed rate),
 * BENCH_SKIP_BUILD=1 (reuse .next/), BENCH_CHECK_ONLY=1 (each scenario's answer check and its
 * database check, no load: what `npm test` runs, so a baseline that drifts from the app is caught
 * there). A scenario that fails is reported and the run goes on with the next; the run then
 * exits non-zero.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { prepareIsolatedShop } from "../harness/isolated-shop";
import { prepareProductionBuild, startNextServer, waitUntilAnswering } from "../harness/next-production";
import { manageProcessLifetime, runUntilStopped } from "../harness/process-lifetime";
import { startBaselineServer } from "./lib/baseline-server";
import { cpuSnapshot, cpuUse } from "./lib/cpu";
import { freePort } from "../harness/free-port";
import { runLoad, type LoadMode, type LoadResult } from "./lib/load";
import { formatChecks, formatTable, type Check, type Measurement } from "./lib/report";
import { waitFor } from "./lib/wait";
import {
  isStaticFileBaseline,
  type Answer,
  type PreparedRun,
  type Scenario,
  type ShopSettings,
  type StaticFileBaseline,
  type Target,
} from "./lib/scenario";
import { selectScenarios } from "./scenarios/index";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => console.log(`[bench] ${line}`);
// Ctrl-C still drops the scratch database and stops the servers, and reports an interrupted run.
const lifetime = manageProcessLifetime({ name: "bench", exitCodeOnSignal: 130 });

/**
 * Requests per second the warm-up prepares data for (scenarios that use one row per request):
 * above any target's capacity here, so the warm-up runs its full time; the measured runs are
 * then sized from the rate each target reached in it.
 */
const WARMUP_RATE_CEILING = 8000;

/** BENCH_PACING: how the fixed-rate run spreads its requests (bench/lib/load.ts); evenly by default. */
function pacingSetting(value: string | undefined): "even" | "burst" {
  if (value === undefined || value === "" || value === "even") return "even";
  if (value === "burst") return "burst";
  throw new Error(`BENCH_PACING must be "even" or "burst"`);
}

/** A whole number from the environment within [min, max], or `fallback` when unset. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

// The sandbox logs every request; at a few thousand a second only its failures are worth a line.
const SANDBOX_SUCCESS = /^\[sandbox\] [A-Z]+ \S+ 2\d\d$/;

runUntilStopped(lifetime, "bench", async () => {
  const scenarios = selectScenarios(process.env.BENCH_SCENARIOS);
  const checkOnly = process.env.BENCH_CHECK_ONLY === "1";
  // Bounded, so a typo cannot start an hour-long run.
  const durationSeconds = setting("BENCH_DURATION_SECONDS", 10, 1, 60);
  const warmupSeconds = setting("BENCH_WARMUP_SECONDS", 3, 1, 30);
  const connections = setting("BENCH_CONNECTIONS", 10, 1, 100);
  const rateSetting = process.env.BENCH_RATE ? setting("BENCH_RATE", 200, 1, 5000) : undefined;
  const rateOf = (scenario: Scenario) => rateSetting ?? scenario.fixedRate ?? 200;
  const pacing = pacingSetting(process.env.BENCH_PACING);
  const modesOf = (scenario: Scenario): { name: string; load: LoadMode }[] => {
    const rate = rateOf(scenario);
    return [
      { name: `${connections} connections`, load: { kind: "throughput", connections, durationSeconds } },
      { name: `${rate} req/s`, load: { kind: "fixed-rate", connections, rate, durationSeconds, pacing } },
    ];
  };

  const port = await freePort();
  const shop = await prepareIsolatedShop({
    label: "bench",
    appUrl: `http://127.0.0.1:${port}`,
    serverDatabaseUrl: process.env.DATABASE_URL,
    // Checkout as in a shop offering no delivery method: the scenarios and their baselines send
    // none (a choice adds one read by primary key to the checkout's transaction).
    deliveryMethods: false,
    log: (line) => SANDBOX_SUCCESS.test(line) || log(line),
  });
  lifetime.onStop(() => shop.close());
  // Lets the bench run, through /api/cron/jobs, jobs the app's after() leaves behind (bench/README.md).
  shop.appEnv.CRON_SECRET = randomBytes(24).toString("hex");
  const settings: ShopSettings = {
    webhookSecret: shop.credentials.webhookSecret,
    pay: {
      apiBaseUrl: shop.sandboxUrl,
      clientId: shop.credentials.clientId,
      clientSecret: shop.credentials.clientSecret,
      applicationUUID: shop.credentials.publishableKey.replace(/^pk_(test|live)_/, ""),
      lang: shop.appEnv.PAY_LANG ?? "pt",
    },
    appUrl: `http://127.0.0.1:${port}`,
    cronSecret: shop.appEnv.CRON_SECRET,
    adminPassword: shop.appEnv.ADMIN_PASSWORD!,
  };
  // The bench's own connections, to prepare each run's rows and check them afterwards.
  const database = new pg.Pool({ connectionString: shop.databaseUrl, max: 2 });
  // An idle connection ended by the server (the scratch database dropped while stopping) is an
  // "error" event on the pool, which would crash the run after its results were printed.
  database.on("error", () => {});
  lifetime.onStop(() => database.end());

  // Rows some scenarios need for the whole run, before the build renders pages from them.
  for (const scenario of scenarios) {
    if (!scenario.setup) continue;
    const started = performance.now();
    await scenario.setup(database);
    log(`${scenario.name}: its data is in the database (${Math.round(performance.now() - started)} ms)`);
  }

  await prepareProductionBuild({
    root,
    appEnv: shop.appEnv,
    skipVariable: "BENCH_SKIP_BUILD",
    output: "on-failure",
    log,
  });
  if (lifetime.stopping) return;

  // Static-file baselines that hold a page the build does not render ahead: a first server
  // renders and caches it, and the bytes it then answers from its cache become the file.
  // So are the pages a reused build did not render ahead (BENCH_SKIP_BUILD=1 after the browser tests).
  const notBuilt = (b: StaticFileBaseline) =>
    b.copyOf !== undefined && b.page !== undefined && !existsSync(path.join(root, b.copyOf));
  const visits = scenarios
    .map((s) => s.baseline)
    .filter(isStaticFileBaseline)
    .flatMap((b) => {
      const visitFirst = b.visitFirst ?? (notBuilt(b) ? b.page : undefined);
      return visitFirst ? [{ visitFirst, staticFile: b.staticFile }] : [];
    });
  if (visits.length > 0) {
    const first = startNextServer({ root, appEnv: shop.appEnv, port, output: "quiet" });
    try {
      await waitUntilAnswering(`${first.url}/`, { exited: first.exited, timeoutMs: 60_000 });
      for (const { visitFirst, staticFile } of visits) {
        let cached: string | undefined;
        const tookMs = await waitFor(
          async () => {
            const response = await fetch(`${first.url}${visitFirst}`, { headers: { Accept: "text/html" } });
            const body = await response.text();
            if (!response.ok) throw new Error(`GET ${visitFirst} answered ${response.status}`);
            if (response.headers.get("x-nextjs-cache") === "HIT") cached = body;
            return cached !== undefined;
          },
          { intervalMs: 250, timeoutMs: 30_000 },
        );
        if (tookMs === undefined || cached === undefined)
          throw new Error(`GET ${visitFirst} never came from Next's cache: is it still a cached page?`);
        const target = path.join(root, "public", staticFile);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, cached);
        lifetime.onStop(() => rm(path.dirname(target), { recursive: true, force: true }));
        log(
          `${visitFirst}: rendered on a first visit, then answered from the cache (${Buffer.byteLength(cached)} bytes)`,
        );
      }
    } finally {
      await first.stop();
    }
  }

  // Static-file baselines that copy a file of the build into public/, where the server finds
  // them only if they are there when it starts.
  for (const scenario of scenarios) {
    const { baseline } = scenario;
    if (!isStaticFileBaseline(baseline) || !baseline.copyOf || notBuilt(baseline)) continue;
    const target = path.join(root, "public", baseline.staticFile);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(root, baseline.copyOf), target);
    lifetime.onStop(() => rm(path.dirname(target), { recursive: true, force: true }));
  }

  const next = startNextServer({ root, appEnv: shop.appEnv, port, output: "quiet" });
  lifetime.onStop(() => next.stop());
  await waitUntilAnswering(`${next.url}/`, { exited: next.exited, timeoutMs: 60_000 });

  const poolMax = Number(shop.appEnv.DATABASE_POOL_MAX);
  const baseline = await startBaselineServer({
    databaseUrl: shop.databaseUrl,
    poolMax,
    scenarioNames: scenarios.map((s) => s.name),
    shop: settings,
  });
  lifetime.onStop(() => baseline.stop());
  const targets: Record<Target, string> = { baseline: baseline.url, app: next.url };
  const serverPids: Record<Target, number | undefined> = { baseline: baseline.pid, app: next.child.pid };
  // Our backends on a PostgreSQL server, told apart from other databases' by their process title.
  const databaseName = process.env.DATABASE_URL ? new URL(shop.databaseUrl).pathname.slice(1) : undefined;

  console.log(
    [
      "",
      `database: ${shop.databaseDescription}, ${poolMax} connections per server`,
      ...(process.env.DATABASE_URL
        ? []
        : [
            "  (PGlite runs inside this process, next to the load generator: compare ratios, not absolute figures, with PostgreSQL runs)",
          ]),
      `machine: ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? "unknown"}), Node ${process.version}; loopback only`,
      `each target: ${warmupSeconds} s warm-up at ${connections} connections, then ${durationSeconds} s at ${connections} connections, then ${durationSeconds} s at ${[...new Set(scenarios.map(rateOf))].join(" or ")} req/s`,
      "",
    ].join("\n"),
  );

  const measurements: Measurement[] = [];
  const checks: Check[] = [];
  let failedRequests = 0;
  const countFailures = (result: LoadResult) => (failedRequests += result.errors + result.non2xx);

  /** Prepares one run; after it, `finish` checks what it did and prints the checks. */
  const prepare = async (scenario: Scenario, target: Target, phase: string, maxRequests: number) => {
    const run = await scenario.prepare({
      target,
      phase,
      tag: `${scenario.name}/${target}/${phase}`,
      maxRequests,
      database,
      shop: settings,
    });
    const finish = async (result?: LoadResult) => {
      const verification = await run.verify?.();
      const problems = [...(verification?.problems ?? [])];
      if (result?.ranOut && phase !== "warm-up")
        problems.push(`its ${run.capacity} prepared requests ran out after ${result.durationSeconds} s`);
      if (!verification && problems.length === 0) return;
      log(`${scenario.name}: ${target} at ${phase}: ${problems.length === 0 ? "checked" : "FAILED"}`);
      for (const line of [...(verification?.lines ?? []), ...problems.map((problem) => `PROBLEM: ${problem}`)])
        console.log(`    ${line}`);
      checks.push({ scenario: scenario.name, target, phase, summary: verification?.summary ?? "", problems });
    };
    return { run, finish };
  };

  /** The scenarios that stopped, and why: the others' figures are still printed. */
  const failedScenarios: { scenario: string; error: string }[] = [];

  /** One scenario: its answer check, then (unless BENCH_CHECK_ONLY) its warm-up and measured runs. */
  const runScenario = async (scenario: Scenario) => {
    log(`${scenario.name}: ${scenario.summary}`);
    const scenarioTargets: Target[] = scenario.baseline ? ["baseline", "app"] : ["app"];
    if (!scenario.baseline) log(`${scenario.name}: no baseline, the app only`);
    // A page's baseline is the same Next server sending a static file.
    const onApp = isStaticFileBaseline(scenario.baseline);
    const urlOf = (target: Target) => (onApp ? next.url : targets[target]);
    const pidOf = (target: Target) => (onApp ? next.child.pid : serverPids[target]);

    const answers: Partial<Record<Target, Answer>> = {};
    for (const target of scenarioTargets) {
      const { run, finish } = await prepare(scenario, target, "answer check", 1);
      answers[target] = await fetchAnswer(urlOf(target), run);
      await finish();
    }
    scenario.checkAnswers({ app: answers.app!, baseline: answers.baseline });
    log(`${scenario.name}: the app's and the baseline's answers agree`);
    if (checkOnly) return;

    // Fills connection pools and JIT caches (and Next's lazily loaded route) before anything counts.
    const warmupRate: Partial<Record<Target, number>> = {};
    for (const target of scenarioTargets) {
      const { run, finish } = await prepare(scenario, target, "warm-up", warmupSeconds * WARMUP_RATE_CEILING);
      const result = await runLoad(urlOf(target), run, {
        kind: "throughput",
        connections,
        durationSeconds: warmupSeconds,
      });
      countFailures(result);
      warmupRate[target] = result.requestsPerSecond;
      await finish(result);
    }

    for (const mode of modesOf(scenario)) {
      for (const target of scenarioTargets) {
        // Enough rows for twice the warm-up's pace (it is usually slower than a warm target).
        const maxRequests =
          mode.load.kind === "throughput"
            ? Math.ceil((warmupRate[target] ?? 0) * durationSeconds * 2.5) + 2000
            : mode.load.rate * (durationSeconds + 2) + connections;
        const { run, finish } = await prepare(scenario, target, mode.name, maxRequests);
        log(`${scenario.name}: ${target} at ${mode.name}`);
        const [cpuBefore, started] = [cpuSnapshot(), performance.now()];
        const result = await runLoad(urlOf(target), run, mode.load);
        const cpu = cpuUse(cpuBefore, cpuSnapshot(), pidOf(target), databaseName, performance.now() - started);
        countFailures(result);
        measurements.push({ scenario: scenario.name, mode: mode.name, target, result, cpu, cpus: cpus().length });
        await finish(result);
      }
    }
  };

  for (const scenario of scenarios) {
    if (lifetime.stopping) break;
    try {
      await runScenario(scenario);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failedScenarios.push({ scenario: scenario.name, error: message });
      console.error(`[bench] ${scenario.name} FAILED: ${message}; the run goes on with the next scenario`);
    }
  }

  if (measurements.length > 0) console.log(`\n${formatTable(measurements)}\n`);
  if (checks.length > 0) console.log(`${formatChecks(checks)}\n`);
  for (const { scenario, error } of failedScenarios) console.error(`[bench] FAILED ${scenario}: ${error}`);
  const failedChecks = checks.filter((check) => check.problems.length > 0).length;
  if (failedRequests > 0 || failedChecks > 0 || failedScenarios.length > 0) {
    if (failedScenarios.length > 0)
      console.error(`[bench] ${failedScenarios.length} of ${scenarios.length} scenarios failed (above)`);
    if (failedRequests > 0)
      console.error(
        `[bench] ${failedRequests} requests failed (connection errors, timeouts or non-2xx answers): the figures are not valid`,
      );
    if (failedChecks > 0)
      console.error(`[bench] ${failedChecks} runs failed their checks in the database (see PROBLEM lines above)`);
    return 1;
  }
  if (checkOnly) log(`all ${scenarios.length} scenarios: the app's and the baseline's answers agree`);
  return 0;
});

/** Sends the run's first request with fetch, for the answer check. */
async function fetchAnswer(baseUrl: string, run: PreparedRun): Promise<Answer> {
  const request = run.next();
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const answer = {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: await response.text(),
  };
  run.answered?.(request, answer);
  return answer;
}
