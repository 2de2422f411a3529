/**
 * `npm run soak`: starts the shop under soak (soak/shop.ts), lets the shoppers
 * (soak/shoppers.ts) race for scarce stock while the database restarts and an app instance is
 * killed, waits for the sweeps, then checks the invariants (soak/checks.ts) and prints the
 * report. Exits 1 when any invariant is broken. Settings: soak/settings.ts, soak/README.md.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { manageProcessLifetime, runUntilStopped } from "../harness/process-lifetime";
import { DEFAULT_LEASE_MS } from "../lib/jobs/queue";
import {
  checkAnswers,
  checkHolds,
  checkPayments,
  checkPromoCodes,
  checkStock,
  checkWebhooks,
  type CheckResult,
} from "./checks";
import { HttpLog } from "./http-log";
import { readSettings } from "./settings";
import { shop, type CatalogueVariant, type ShopperOutcome } from "./shoppers";
import { startShopUnderSoak, type ShopUnderSoak } from "./shop";

/** The worker sweeps every 60 s and a sweep may take up to 25 s (scripts/worker.ts, lib/orders/reconcile.ts). */
const SWEEP_INTERVAL_SECONDS = 60;
const SWEEP_BUDGET_SECONDS = 25;
/** After an outage ends, answers still count as part of it for this long (pools reconnecting). */
const OUTAGE_GRACE_MS = 10_000;

const log = (line: string) => console.log(`[soak] ${line}`);
const lifetime = manageProcessLifetime({ name: "soak", exitCodeOnSignal: 130 });

runUntilStopped(lifetime, "soak", async () => {
  const settings = readSettings();
  log(
    `${settings.shoppers} shoppers over ${settings.durationSeconds} s, holds of ${settings.holdSeconds} s, ` +
      `${settings.scarceVariants} variants of ${settings.scarceStock} units, ${settings.promoCodes} one-use codes, ` +
      `faults ${settings.faults ? "on" : "off"}, seed ${settings.seed}`,
  );
  const started = Date.now();
  const soak = await startShopUnderSoak({
    holdSeconds: settings.holdSeconds,
    skipBuild: settings.skipBuild,
    lifetime,
    log,
  });
  const ready = Date.now();
  const { variants, initialStock, promoCodes, pickupPointId } = await prepareCatalogue(soak, settings);

  const httpLog = new HttpLog();
  const random = mulberry32(settings.seed);
  const loadEnds = Date.now() + settings.durationSeconds * 1000;
  const world = {
    instances: soak.instances.map((instance) => instance.url),
    variants,
    pickupPointId,
    promoCodes,
    holdSeconds: settings.holdSeconds,
    control: soak.control,
    log: httpLog,
    random,
    // Retries stop well after the load: a late payment may come a minute and a half after it.
    deadline: loadEnds + (settings.holdSeconds + 120) * 1000,
  };
  const arrivals = Array.from({ length: settings.shoppers }, () => random() * settings.durationSeconds * 1000).sort(
    (a, b) => a - b,
  );
  log(`load: ${settings.shoppers} shoppers arrive over ${settings.durationSeconds} s`);
  const shoppers = arrivals.map(async (delay, index) => {
    await sleep(delay);
    return shop(world, index).catch((error: unknown): ShopperOutcome => {
      log(`shopper ${index} stopped: ${(error as Error).message}`);
      return { plan: "abandon", checkout: "crashed", usedPromo: false, shapes: [] };
    });
  });
  const faults = settings.faults ? induceFaults(soak, httpLog, settings.durationSeconds) : Promise.resolve();

  const outcomes = await Promise.all(shoppers);
  await faults;
  log(`load over after ${((Date.now() - ready) / 1000).toFixed(0)} s; waiting for deliveries and sweeps`);
  await waitForDeliveries(soak);
  const sweepsTook = await waitForSweeps(soak, settings.holdSeconds);

  const checks: CheckResult[] = [
    await checkStock(soak.database, initialStock),
    await checkPayments(soak.database, soak.control),
    await checkPromoCodes(soak.database, promoCodes),
    await checkHolds(soak.database, SWEEP_INTERVAL_SECONDS + SWEEP_BUDGET_SECONDS),
    checkAnswers(httpLog),
    await checkWebhooks(soak.control, httpLog, 0),
  ];
  await printReport({ soak, outcomes, httpLog, checks, started, ready, sweepsTook });
  return checks.some((check) => check.violations.length > 0) ? 1 : 0;
});

/** Makes a few variants scarce and the rest plentiful, adds the one-use codes; the starting stock of every variant. */
async function prepareCatalogue(soak: ShopUnderSoak, settings: ReturnType<typeof readSettings>) {
  const { rows } = await soak.database.query<{ id: string; product_id: string; siblings: number }>(`
    SELECT v.id, v.product_id,
           (SELECT count(*) FROM product_variants w WHERE w.product_id = v.product_id AND w.archived_at IS NULL)::int AS siblings
    FROM product_variants v JOIN products p ON p.id = v.product_id
    WHERE v.archived_at IS NULL AND p.archived_at IS NULL
    ORDER BY siblings DESC, v.product_id, v.id`);
  // Scarce variants from products with options first, so shoppers also race across siblings.
  const scarce = new Set(rows.slice(0, settings.scarceVariants).map((row) => row.id));
  await soak.database.query("UPDATE product_variants SET stock = CASE WHEN id = ANY($1) THEN $2 ELSE 1000 END", [
    [...scarce],
    settings.scarceStock,
  ]);
  const variants: CatalogueVariant[] = rows.map((row) => ({
    productId: row.product_id,
    variantId: row.id,
    scarce: scarce.has(row.id),
  }));
  const stock = await soak.database.query<{ id: string; stock: number }>("SELECT id, stock FROM product_variants");
  const initialStock = new Map(stock.rows.map((row) => [row.id, row.stock]));

  const promoCodes = Array.from({ length: settings.promoCodes }, (_, index) => `SOAK-ONCE-${index + 1}`);
  for (const code of promoCodes)
    await soak.database.query("INSERT INTO promo_codes (code, kind, value, max_uses) VALUES ($1, 'percent', 10, 1)", [
      code,
    ]);

  const options = (await (await fetch(`${soak.instances[0]!.url}/api/delivery-options`)).json()) as {
    pickupPoints: { id: string }[];
  };
  const pickupPointId = options.pickupPoints[0]?.id;
  if (!pickupPointId) throw new Error("the demo catalogue has no pickup point");
  log(
    `catalogue: ${rows.length} variants, ${scarce.size} of ${settings.scarceStock} units; codes ${promoCodes.join(", ")}`,
  );
  return { variants, initialStock, promoCodes, pickupPointId };
}

/**
 * Rounds of faults, one per two minutes of load (at least one): in each round's share of the load
 * PostgreSQL restarts at 35 %, and at 65 % instance 0 is killed and started again.
 */
async function induceFaults(soak: ShopUnderSoak, httpLog: HttpLog, durationSeconds: number): Promise<void> {
  const rounds = Math.max(1, Math.floor(durationSeconds / 120));
  const begin = Date.now();
  for (let round = 0; round < rounds; round++) {
    const at = (fraction: number) =>
      sleep(Math.max(0, begin + ((round + fraction) / rounds) * durationSeconds * 1000 - Date.now()));
    await faultRound(soak, httpLog, round + 1, at);
  }
}

async function faultRound(
  soak: ShopUnderSoak,
  httpLog: HttpLog,
  round: number,
  at: (fraction: number) => Promise<unknown>,
): Promise<void> {
  await at(0.35);
  const restart = { what: `PostgreSQL restart ${round}`, from: Date.now(), to: Number.POSITIVE_INFINITY };
  httpLog.outages.push(restart);
  log("fault: pg_ctl restart -m fast");
  await soak.cluster.restart();
  const restarted = Date.now();
  // Through PgBouncer the outage lasts until the pooler logs in again (server_login_retry).
  await untilAnswering(soak.instances.map((instance) => `${instance.url}/api/products`));
  restart.to = Date.now() + OUTAGE_GRACE_MS;
  log(
    `fault: PostgreSQL back after ${((restarted - restart.from) / 1000).toFixed(1)} s, ` +
      `the shop answering again after ${((Date.now() - restart.from) / 1000).toFixed(1)} s`,
  );

  // Apart from the restart's outage, so that each failure is told apart from the other's.
  await at(0.65);
  await sleep(Math.max(0, restart.to - Date.now()));
  const instance = soak.instances[0]!;
  const kill = { what: `instance 0 killed (${round})`, from: Date.now(), to: Number.POSITIVE_INFINITY, instance: 0 };
  httpLog.outages.push(kill);
  log("fault: SIGKILL instance 0 (it receives the webhooks)");
  await instance.kill();
  await instance.start();
  kill.to = Date.now() + OUTAGE_GRACE_MS;
  log(`fault: instance 0 answering again after ${((Date.now() - kill.from) / 1000).toFixed(1)} s`);
}

/** Until every URL answers 200 (at most a minute). */
async function untilAnswering(urls: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const url of urls) {
    while (Date.now() < deadline) {
      const status = await fetch(url, { signal: AbortSignal.timeout(5_000) })
        .then(async (response) => (await response.arrayBuffer(), response.status))
        .catch(() => 0);
      if (status === 200) break;
      await sleep(250);
    }
  }
}

/** Until the sandbox has no delivery waiting or retrying (at most 2 minutes). */
async function waitForDeliveries(soak: ShopUnderSoak): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const open = (await soak.control.deliveries()).filter((d) => d.state === "scheduled" || d.state === "pending");
    if (open.length === 0) return;
    if (Date.now() > deadline) return log(`${open.length} deliveries still open after 2 minutes`);
    await sleep(1_000);
  }
}

/**
 * Until no PEN order's hold has run out and no job is waiting: what the worker's sweeps and job
 * runs leave once they have caught up. At most two sweeps after the last hold ends. Seconds waited.
 */
async function waitForSweeps(soak: ShopUnderSoak, holdSeconds: number): Promise<number> {
  const begin = Date.now();
  const sweepsDeadline = begin + (holdSeconds + 2 * SWEEP_INTERVAL_SECONDS + SWEEP_BUDGET_SECONDS) * 1000;
  let told = false;
  for (;;) {
    const { rows } = await soak.database.query<{ expired: number; jobs: number; leased_until: Date | null }>(
      `SELECT (SELECT count(*) FROM orders WHERE status = 'PEN' AND hold_expires_at <= now())::int AS expired,
              (SELECT count(*) FROM jobs WHERE status IN ('QUEUED', 'RUNNING'))::int AS jobs,
              (SELECT max(locked_at) + $1 * interval '1 millisecond' FROM jobs WHERE status = 'RUNNING') AS leased_until`,
      [DEFAULT_LEASE_MS],
    );
    const { expired, jobs, leased_until } = rows[0]!;
    if (expired === 0 && jobs === 0) break;
    // A job the killed instance was running stays RUNNING until its lease ends, then runs again.
    const deadline = Math.max(sweepsDeadline, (leased_until?.getTime() ?? 0) + 2 * SWEEP_INTERVAL_SECONDS * 1000);
    if (leased_until && leased_until.getTime() > sweepsDeadline && !told) {
      told = true;
      log(`jobs are RUNNING on a lease that ends at ${leased_until.toISOString()}: waiting for them to run again`);
    }
    if (Date.now() > deadline) {
      log(`gave up waiting: ${expired} expired holds still PEN, ${jobs} jobs waiting`);
      break;
    }
    await sleep(2_000);
  }
  return (Date.now() - begin) / 1000;
}

async function printReport(run: {
  soak: ShopUnderSoak;
  outcomes: ShopperOutcome[];
  httpLog: HttpLog;
  checks: CheckResult[];
  started: number;
  ready: number;
  sweepsTook: number;
}): Promise<void> {
  const { soak, outcomes, httpLog, checks } = run;
  const count = <T>(items: T[], key: (item: T) => string) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${n} ${name}`)
      .join(", ");
  };
  const { rows: orders } = await soak.database.query<{ state: string }>(`
    SELECT CASE WHEN paid_after_cancel_at IS NOT NULL THEN 'paid after cancel'
                ELSE status::text || COALESCE(' ' || cancel_reason, '') END AS state FROM orders`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const lines = [
    "",
    "Soak report",
    `  time: ${seconds(run.ready - run.started)} to start, ${seconds(Date.now() - run.ready)} of load and drain (sweeps caught up in ${run.sweepsTook.toFixed(0)} s)`,
    `  shoppers: ${outcomes.length}; plans: ${count(outcomes, (o) => o.plan)}`,
    `  checkouts: ${count(outcomes, (o) => o.checkout)}; with a promo code: ${outcomes.filter((o) => o.usedPromo).length}`,
    `  webhook shapes asked: ${
      count(
        outcomes.flatMap((o) => o.shapes),
        (s) => s,
      ) || "none"
    }; refused by the service: ${
      count(
        outcomes.filter((o) => o.refusedByService),
        (o) => o.refusedByService!,
      ) || "none"
    }`,
    `  orders in the shop: ${orders.length}: ${count(orders, (o) => o.state)}`,
    `  answers: ${count(httpLog.answers, (a) => `${a.route} ${a.status || a.error}`)}`,
    `  outages: ${httpLog.outages.map((o) => `${o.what} ${httpLog.since(o.from)} → ${httpLog.since(o.to)} (grace included)`).join("; ") || "none"}`,
    ...httpLog.outages.map((outage) => {
      const failed = httpLog.answers.filter(
        (a) => (a.status === 0 || a.status >= 500) && httpLog.outageAt(a.at, a.instance, a.ms) === outage,
      );
      return `    ${outage.what}: ${failed.length} failed answers${failed.length ? `, ${httpLog.since(Math.min(...failed.map((a) => a.at)))} → ${httpLog.since(Math.max(...failed.map((a) => a.at)))}: ${count(failed, (a) => `${a.status || a.error}${a.retryAfter ? " Retry-After" : ""}`)}` : ""}`;
    }),
    "",
    "Invariants",
    ...checks.flatMap((check) => [
      `  ${check.violations.length === 0 ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`,
      ...check.violations.map((violation) => `         ${violation}`),
    ]),
    "",
  ];
  console.log(lines.join("\n"));
}

/** A small seeded generator, so a run's choices can be told again with SOAK_SEED. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
