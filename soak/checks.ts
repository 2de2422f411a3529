/**
 * The invariants the soak proves, read after the sweeps from the database (direct connection)
 * and the sandbox's records (its orders and its delivery log). Each check returns what it
 * looked at and every violation it found; it changes nothing.
 */
import type pg from "pg";
import type { ControlClient } from "pay-sandbox/client";
import { jobsForTransition } from "../lib/jobs/job-types";
import type { HttpLog } from "./http-log";

export interface CheckResult {
  name: string;
  /** What was looked at, for the report. */
  detail: string;
  violations: string[];
}

/** The jobs a final transition enqueues, each exactly once and DONE. */
const CAN_JOBS = jobsForTransition("CAN");
const WEBHOOK_ANSWER_LIMIT_MS = 5_000;
const MAX_LISTED = 8;

const listed = (items: string[]) =>
  items.length <= MAX_LISTED ? items : [...items.slice(0, MAX_LISTED), `… and ${items.length - MAX_LISTED} more`];

/**
 * Stock: no variant below zero, and for every variant
 * initial − units of PEN orders (open holds) − units of CON orders (sold) = stock,
 * since checkout takes the units (lib/catalog/stock.ts) and only a CAN's release-stock job
 * puts them back (a paid-after-cancel order stays CAN: its units were given back).
 */
export async function checkStock(database: pg.Pool, initial: Map<string, number>): Promise<CheckResult> {
  const { rows } = await database.query<{ id: string; stock: number; held: number; sold: number }>(`
    SELECT v.id, v.stock,
           COALESCE(SUM(l.quantity) FILTER (WHERE o.status = 'PEN'), 0)::int AS held,
           COALESCE(SUM(l.quantity) FILTER (WHERE o.status = 'CON'), 0)::int AS sold
    FROM product_variants v
    LEFT JOIN order_lines l ON l.variant_id = v.id
    LEFT JOIN orders o ON o.id = l.order_id
    GROUP BY v.id`);
  const violations: string[] = [];
  let sold = 0;
  let held = 0;
  for (const row of rows) {
    sold += row.sold;
    held += row.held;
    if (row.stock < 0) violations.push(`variant ${row.id}: stock ${row.stock} below zero`);
    const start = initial.get(row.id);
    if (start === undefined) continue;
    if (start - row.held - row.sold !== row.stock)
      violations.push(
        `variant ${row.id}: initial ${start} − held ${row.held} − sold ${row.sold} = ${start - row.held - row.sold}, stock is ${row.stock}`,
      );
  }
  return {
    name: "stock",
    detail: `${rows.length} variants; ${sold} units sold (CON lines), ${held} held by open orders`,
    violations: listed(violations),
  };
}

interface ShopOrder {
  external_transaction_id: string;
  status: string;
  paid_after_cancel_at: Date | null;
  has_email: boolean;
  transitions: number;
  jobs: { type: string; status: string }[];
}

/**
 * Payments: every order the sandbox says is CON is CON in the shop (or CAN recorded as paid
 * after cancel), one transition recorded for it, and its jobs each once and DONE; no order is
 * CON in the shop that the service did not confirm; every CAN's release jobs are DONE; no job parked.
 */
export async function checkPayments(database: pg.Pool, control: ControlClient): Promise<CheckResult> {
  const serviceOrders = await control.orders();
  const { rows } = await database.query<ShopOrder>(`
    SELECT o.external_transaction_id, o.status::text AS status, o.paid_after_cancel_at,
      o.customer_email IS NOT NULL AS has_email,
      (SELECT count(*) FROM webhook_events e
        WHERE e.external_transaction_id = o.external_transaction_id AND e.outcome = 'transitioned')::int AS transitions,
      COALESCE((SELECT json_agg(json_build_object('type', j.type, 'status', j.status)) FROM jobs j WHERE j.order_id = o.id), '[]') AS jobs
    FROM orders o`);
  const shop = new Map(rows.map((row) => [row.external_transaction_id, row]));
  const violations: string[] = [];
  const jobsDone = (order: ShopOrder, types: string[]) => {
    for (const type of types) {
      const found = order.jobs.filter((job) => job.type === type);
      if (found.length !== 1 || found[0]!.status !== "DONE")
        violations.push(
          `${order.external_transaction_id} (${order.status}): job ${type} ${found.map((job) => job.status).join(",") || "missing"}`,
        );
    }
  };
  let paid = 0;
  let paidAfterCancel = 0;
  for (const serviceOrder of serviceOrders) {
    const order = shop.get(serviceOrder.externalTransactionId);
    if (!order) {
      violations.push(`${serviceOrder.externalTransactionId}: at the service, not in the shop`);
      continue;
    }
    if (serviceOrder.status !== "CON") {
      if (order.status === "CON")
        violations.push(`${order.external_transaction_id}: CON in the shop, ${serviceOrder.status} at the service`);
      continue;
    }
    if (order.status === "CON") {
      paid += 1;
      jobsDone(order, jobsForTransition("CON", order.has_email));
    } else if (order.status === "CAN" && order.paid_after_cancel_at) {
      paidAfterCancel += 1;
      jobsDone(order, ["paid-after-cancel-mail"]);
    } else violations.push(`${order.external_transaction_id}: paid at the service, ${order.status} in the shop`);
  }
  for (const order of rows) {
    if (order.status === "CON" && order.transitions > 1)
      violations.push(`${order.external_transaction_id}: ${order.transitions} webhooks recorded a transition`);
    if (order.status === "CAN") jobsDone(order, CAN_JOBS);
    for (const job of order.jobs)
      if (job.status === "PARKED") violations.push(`${order.external_transaction_id}: job ${job.type} parked`);
    if (order.status === "CON" && !serviceOrders.some((s) => s.externalTransactionId === order.external_transaction_id))
      violations.push(`${order.external_transaction_id}: CON in the shop, unknown to the service`);
  }
  return {
    name: "payments",
    detail: `${serviceOrders.length} orders at the service, ${rows.length} in the shop; ${paid} paid and CON, ${paidAfterCancel} paid after cancel`,
    violations: listed(violations),
  };
}

/** Promo codes: a one-use code paid for by at most one CON order, and never counted past its limit. */
export async function checkPromoCodes(database: pg.Pool, codes: string[]): Promise<CheckResult> {
  const { rows } = await database.query<{
    code: string;
    max_uses: number;
    uses: number;
    paid: number;
    live: number;
    tried: number;
  }>(
    `SELECT p.code, p.max_uses, p.uses,
            (SELECT count(*) FROM orders o WHERE o.promo_code_id = p.id AND o.status = 'CON')::int AS paid,
            (SELECT count(*) FROM orders o WHERE o.promo_code_id = p.id)::int AS tried,
            (SELECT count(*) FROM promo_redemptions r WHERE r.promo_code_id = p.id AND r.released_at IS NULL)::int AS live
     FROM promo_codes p WHERE p.code = ANY($1)`,
    [codes],
  );
  const violations: string[] = [];
  for (const row of rows) {
    if (row.paid > row.max_uses) violations.push(`${row.code}: ${row.paid} paid orders for ${row.max_uses} use(s)`);
    if (row.uses > row.max_uses || row.live > row.max_uses)
      violations.push(`${row.code}: counted ${row.uses} uses, ${row.live} live redemptions, limit ${row.max_uses}`);
    if (row.uses !== row.live) violations.push(`${row.code}: uses ${row.uses} ≠ live redemptions ${row.live}`);
  }
  const summary = rows.map((row) => `${row.code} ${row.tried} orders/${row.paid} paid`).join(", ");
  return { name: "promo codes", detail: summary || "no codes", violations: listed(violations) };
}

/**
 * Holds: an order the shop cancelled for its expired hold was cancelled at most `boundSeconds`
 * after the hold ran out (one sweep: its interval plus its budget), and no PEN order's hold has
 * been over for longer.
 */
export async function checkHolds(database: pg.Pool, boundSeconds: number): Promise<CheckResult> {
  const { rows } = await database.query<{ id: string; late: number; status: string }>(
    `SELECT external_transaction_id AS id, status::text AS status,
            EXTRACT(EPOCH FROM COALESCE(finalized_at, now()) - hold_expires_at)::float AS late
     FROM orders WHERE cancel_reason = 'hold_expired' OR (status = 'PEN' AND hold_expires_at < now())`,
  );
  const violations = rows
    .filter((row) => row.late > boundSeconds)
    .map((row) => `${row.id} (${row.status}): ended ${row.late.toFixed(0)} s after its hold expired`);
  const worst = rows.reduce((max, row) => Math.max(max, row.late), 0);
  return {
    name: "holds",
    detail: `${rows.length} holds ended by expiry, the latest ${worst.toFixed(1)} s after it (bound ${boundSeconds} s)`,
    violations: listed(violations),
  };
}

/** Shoppers' answers: no 5xx and no refused connection outside an outage; inside one only 503 with Retry-After. */
export function checkAnswers(log: HttpLog): CheckResult {
  const violations: string[] = [];
  let inOutage = 0;
  for (const answer of log.answers) {
    const outage = log.outageAt(answer.at, answer.instance, answer.ms);
    const failed = answer.status === 0 || answer.status >= 500;
    if (!failed) continue;
    const what = `${answer.route} on instance ${answer.instance}: ${answer.status || answer.error}${answer.retryAfter ? ` (Retry-After ${answer.retryAfter})` : ""}`;
    if (!outage) violations.push(`${what} at ${log.since(answer.at)}, outside any outage`);
    else {
      inOutage += 1;
      // A cut connection is what a killed instance gives; the database's outage must be answered.
      const cut = answer.status === 0 && outage.instance !== undefined;
      if (!cut && !(answer.status === 503 && answer.retryAfter)) violations.push(`${what} during ${outage.what}`);
    }
  }
  return {
    name: "shoppers' answers",
    detail: `${log.answers.length} answers, ${inOutage} failed during outages`,
    violations: listed(dedupe(violations)),
  };
}

/** Webhooks: every attempt answered within 5 s, and 5xx or no answer only during an outage. */
export async function checkWebhooks(
  control: ControlClient,
  log: HttpLog,
  webhookInstance: number,
): Promise<CheckResult> {
  const deliveries = await control.deliveries();
  const violations: string[] = [];
  let attempts = 0;
  let slowest = 0;
  const kinds = new Map<string, number>();
  for (const delivery of deliveries) {
    kinds.set(delivery.kind, (kinds.get(delivery.kind) ?? 0) + 1);
    if (delivery.state === "failed")
      violations.push(`${delivery.id} (${delivery.kind}) failed: ${delivery.reason ?? ""}`);
    for (const attempt of delivery.attempts) {
      attempts += 1;
      slowest = Math.max(slowest, attempt.durationMs);
      if (attempt.durationMs >= WEBHOOK_ANSWER_LIMIT_MS)
        violations.push(`${delivery.id}: answered in ${attempt.durationMs} ms`);
      const failed = attempt.status === undefined || attempt.status >= 500;
      const outage = log.outageAt(Date.parse(attempt.at), webhookInstance, attempt.durationMs);
      if (failed && !outage)
        violations.push(
          `${delivery.id}: ${attempt.status ?? attempt.error} at ${log.since(Date.parse(attempt.at))}, outside any outage`,
        );
      else if (failed && outage && attempt.status !== undefined && attempt.status !== 503)
        violations.push(`${delivery.id}: ${attempt.status} during ${outage.what}`);
    }
  }
  return {
    name: "webhooks",
    detail: `${deliveries.length} deliveries (${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ")}), ${attempts} attempts, slowest ${slowest} ms`,
    violations: listed(dedupe(violations)),
  };
}

function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}
