// `npm run worker`: runs the job queue (docs/jobs.md) outside the web server — on a server host
// next to `npm start`, or anywhere that reaches the database — and, once a minute, the reconcile
// sweep (lib/orders/reconcile.ts) that ends expired stock holds and catches webhooks that never came. `npm run dev` runs it too.
// Polls every 2 s; Ctrl-C or SIGTERM
// stops it after the jobs in progress have finished (a second signal stops it at once).
// `npm run worker -- --once` runs the jobs due now, prints a summary and exits (for crontab).
// Loads .env files as `next start` does.
import { setTimeout as sleep } from "node:timers/promises";
import nextEnv from "@next/env";
import { db } from "../lib/db/client";
import { EnvError, getEnv } from "../lib/env";
import { describeJobError } from "../lib/jobs/queue";
import { runDueJobs, type RunSummary } from "../lib/jobs/runner";
import { consoleLogger, redactText } from "../lib/log";
import { reconcilePendingOrders } from "../lib/orders/reconcile";
import { payClient } from "../lib/orders/pay-client";

const POLL_MS = 2_000;
/** After the database failed: wait longer before trying again. */
const ERROR_PAUSE_MS = 10_000;
/** Jobs per round; a full round goes again without waiting. */
const ROUND_LIMIT = 100;
const RECONCILE_EVERY_MS = 60_000;

const log = (line: string) => console.log(`[worker] ${line}`);
const describe = (summary: RunSummary) => `${summary.done} done, ${summary.retried} retried, ${summary.parked} parked`;

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
try {
  getEnv();
} catch (error) {
  console.error(`[worker] ${error instanceof EnvError || error instanceof Error ? error.message : String(error)}`);
  if (error instanceof EnvError && error.problems.some((problem) => problem.variable === "DATABASE_URL"))
    console.error("[worker] `npm run dev`'s embedded database is private to the dev server, which runs jobs itself.");
  process.exit(1);
}

const once = process.argv.slice(2).includes("--once");
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stop.signal.aborted) process.exit(130);
    log(`${signal}: finishing the jobs in progress (again to stop at once)`);
    stop.abort();
  });
}

const total: RunSummary = { done: 0, retried: 0, parked: 0 };
let exitCode = 0;
if (!once) log(`polling for due jobs every ${POLL_MS / 1000} s`);
let lastSweep = 0;
while (!stop.signal.aborted) {
  if (!once && Date.now() - lastSweep >= RECONCILE_EVERY_MS) {
    lastSweep = Date.now();
    await reconcile();
  }
  let ran = 0;
  let pause = POLL_MS;
  try {
    const summary = await runDueJobs({ limit: once ? Number.MAX_SAFE_INTEGER : ROUND_LIMIT, signal: stop.signal });
    ran = summary.done + summary.retried + summary.parked;
    total.done += summary.done;
    total.retried += summary.retried;
    total.parked += summary.parked;
  } catch (error) {
    // An error message may name an order or a shopper: lib/log.ts keeps them out.
    console.error(`[worker] could not run jobs: ${redactText(describeJobError(error))}`);
    exitCode = 1;
    pause = ERROR_PAUSE_MS;
  }
  if (once) break;
  if (ran < ROUND_LIMIT) await sleep(pause, undefined, { signal: stop.signal }).catch(() => {});
}

/** One sweep; a failure is logged and the next one comes a minute later. */
async function reconcile(): Promise<void> {
  try {
    const summary = await reconcilePendingOrders({
      db: db(),
      pay: payClient(),
      log: consoleLogger,
    });
    if (summary.checked > 0)
      log(
        `checked ${summary.checked} orders: ${summary.transitioned} paid or cancelled, ${summary.abandoned} abandoned, ` +
          `${summary.holdsExpired} holds expired, ${summary.paidAfterCancel} paid after cancel, ` +
          `${summary.failed} not answered` +
          (summary.stoppedEarly ? ` (stopped early: ${summary.stoppedEarly})` : ""),
      );
  } catch (error) {
    console.error(`[worker] reconcile sweep failed: ${redactText(describeJobError(error))}`);
  }
}

log(once ? `ran the due jobs: ${describe(total)}` : `stopped after ${describe(total)}`);
await db().$disconnect();
process.exit(once ? exitCode : 0);
