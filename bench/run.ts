/**
 * `npm run bench`: each scenario (bench/scenarios/) against the app's production build
 * (`next start`) and against a bare node:http + pg baseline doing the same work, both on
 * the same scratch database, measured in this run. See bench/README.md.
 *
 * Settings (environment): DATABASE_URL (a PostgreSQL server to create the scratch database
 * on; embedded PGlite when unset), BENCH_SCENARIOS (comma-separated names; all by default),
 * BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (10),
 * BENCH_RATE (200 requests/s for the fixed-rate run), BENCH_SKIP_BUILD=1 (reuse .next/).
 */
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { prepareIsolatedShop } from "../scripts/lib/isolated-shop";
import { prepareProductionBuild, startNextServer, waitUntilAnswering } from "../scripts/lib/next-production";
import { manageProcessLifetime, runUntilStopped } from "../scripts/lib/process-lifetime";
import { startBaselineServer } from "./lib/baseline-server";
import { freePort } from "./lib/free-port";
import { runLoad, type LoadMode, type LoadResult } from "./lib/load";
import { formatTable, type Measurement } from "./lib/report";
import type { Answer, BenchRequest } from "./lib/scenario";
import { selectScenarios } from "./scenarios/index";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (line: string) => console.log(`[bench] ${line}`);
// Ctrl-C still drops the scratch database and stops the servers, and reports an interrupted run.
const lifetime = manageProcessLifetime({ name: "bench", exitCodeOnSignal: 130 });

/** A whole number from the environment within [min, max], or `fallback` when unset. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

runUntilStopped(lifetime, "bench", async () => {
  const scenarios = selectScenarios(process.env.BENCH_SCENARIOS);
  // Bounded, so a typo cannot start an hour-long run.
  const durationSeconds = setting("BENCH_DURATION_SECONDS", 10, 1, 60);
  const warmupSeconds = setting("BENCH_WARMUP_SECONDS", 3, 1, 30);
  const connections = setting("BENCH_CONNECTIONS", 10, 1, 100);
  const rate = setting("BENCH_RATE", 200, 1, 5000);
  const modes: { name: string; load: LoadMode }[] = [
    { name: `${connections} connections`, load: { kind: "throughput", connections, durationSeconds } },
    { name: `${rate} req/s`, load: { kind: "fixed-rate", connections, rate, durationSeconds } },
  ];

  const port = await freePort();
  const shop = await prepareIsolatedShop({
    label: "bench",
    appUrl: `http://127.0.0.1:${port}`,
    serverDatabaseUrl: process.env.DATABASE_URL,
    log,
  });
  lifetime.onStop(() => shop.close());

  await prepareProductionBuild({
    root,
    appEnv: shop.appEnv,
    skipVariable: "BENCH_SKIP_BUILD",
    output: "on-failure",
    log,
  });
  if (lifetime.stopping) return;

  const next = startNextServer({ root, appEnv: shop.appEnv, port, output: "quiet" });
  lifetime.onStop(() => next.stop());
  await waitUntilAnswering(`${next.url}/`, { exited: next.exited, timeoutMs: 60_000 });

  const poolMax = Number(shop.appEnv.DATABASE_POOL_MAX);
  const baseline = await startBaselineServer({
    databaseUrl: shop.databaseUrl,
    poolMax,
    scenarioNames: scenarios.map((s) => s.name),
  });
  lifetime.onStop(() => baseline.stop());
  const targets = { baseline: baseline.url, app: next.url } as const;

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
      `each target: ${warmupSeconds} s warm-up at ${connections} connections, then ${modes.map((m) => `${durationSeconds} s at ${m.name}`).join(", then ")}`,
      "",
    ].join("\n"),
  );

  const measurements: Measurement[] = [];
  let failedRequests = 0;
  const countFailures = (result: LoadResult) => (failedRequests += result.errors + result.non2xx);

  for (const scenario of scenarios) {
    log(`${scenario.name}: ${scenario.summary}`);
    scenario.checkAnswers({
      app: await fetchAnswer(targets.app, scenario.request),
      baseline: await fetchAnswer(targets.baseline, scenario.request),
    });
    for (const [target, url] of Object.entries(targets)) {
      // Fills connection pools and JIT caches (and Next's lazily loaded route) before anything counts.
      countFailures(
        await runLoad(url, scenario.request, { kind: "throughput", connections, durationSeconds: warmupSeconds }),
      );
    }
    for (const mode of modes) {
      for (const target of ["baseline", "app"] as const) {
        log(`${scenario.name}: ${target} at ${mode.name}`);
        const result = await runLoad(targets[target], scenario.request, mode.load);
        countFailures(result);
        measurements.push({ scenario: scenario.name, mode: mode.name, target, result });
      }
    }
  }

  console.log(`\n${formatTable(measurements)}\n`);
  if (failedRequests > 0) {
    console.error(
      `[bench] ${failedRequests} requests failed (connection errors, timeouts or non-2xx answers): the figures are not valid`,
    );
    return 1;
  }
  return 0;
});

async function fetchAnswer(baseUrl: string, request: BenchRequest): Promise<Answer> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
}
