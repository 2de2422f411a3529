import type pg from "pg";
import { dedupeKeyOf, jobsForTransition, type JobType } from "../../lib/jobs/job-types";

/**
 * Orders made for the benchmarks with set-based SQL (one statement for any number), tagged in
 * `client_id` with the run they belong to, so each run's checks look at its own orders only.
 */

export interface BenchOrder {
  id: string;
  externalTransactionId: string;
  referenceNumber: string;
  amountAoa: number;
}

/** The jobs a CON enqueues for the bench's orders, which have no shopper's email. */
export const CON_JOBS: readonly JobType[] = jobsForTransition("CON", false);

/** The dedupe keys of the jobs a CON transition enqueues for this order, sorted. */
export const conJobKeys = (externalTransactionId: string) =>
  CON_JOBS.map((type) => dedupeKeyOf(type, externalTransactionId)).sort();

/**
 * `count` PEN orders as a checkout leaves them: one line of the first catalogue product, its
 * cart LOCKED (so the CON jobs have a cart to clear), a reference number from the service.
 * Ids are `order_` + gen_random_uuid(): a lower-case UUID v4, as the CHECK constraint requires.
 */
export async function createPendingOrders(database: pg.Pool, tag: string, count: number): Promise<BenchOrder[]> {
  const { rows } = await database.query<BenchOrder>(
    `
WITH product AS (
  SELECT p.id, p.name, v.price_aoa, v.id AS variant_id
  FROM products p JOIN product_variants v ON v.product_id = p.id AND v.archived_at IS NULL
  ORDER BY p.slug, v.position LIMIT 1
),
numbered AS MATERIALIZED (
  SELECT gen_random_uuid() AS order_id, gen_random_uuid() AS cart_id FROM generate_series(1, $2::int)
),
carts AS (INSERT INTO carts (id, status, updated_at) SELECT cart_id, 'LOCKED', now() FROM numbered),
items AS (
  INSERT INTO cart_lines (cart_id, variant_id, quantity, updated_at)
  SELECT numbered.cart_id, product.variant_id, 1, now() FROM numbered, product
),
created AS (
  INSERT INTO orders (id, external_transaction_id, reference_number, status, amount_aoa, client_id, cart_id, updated_at)
  SELECT numbered.order_id, 'order_' || gen_random_uuid(), ${randomReference}, 'PEN', product.price_aoa, $1,
         numbered.cart_id, now()
  FROM numbered, product
  RETURNING id, external_transaction_id, reference_number, amount_aoa
),
lines AS (
  INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity)
  SELECT numbered.order_id, product.id, product.variant_id, product.name, product.price_aoa, 1 FROM numbered, product
)
SELECT id, external_transaction_id AS "externalTransactionId", reference_number AS "referenceNumber",
       amount_aoa AS "amountAoa"
FROM created`,
    [tag, count],
  );
  await database.query("ANALYZE orders, carts, cart_lines, order_lines");
  return rows;
}

/** When the orders of {@link createConfirmedOrders} became CON: long before any run. */
export const CONFIRMED_AT = "2026-01-01T00:00:00.000Z";

/**
 * `count` orders that were paid long ago (CON since {@link CONFIRMED_AT}, their three jobs DONE),
 * the target of repeated deliveries.
 */
export async function createConfirmedOrders(
  database: pg.Pool,
  tag: string,
  count: number,
): Promise<{ orders: BenchOrder[]; confirmedAt: string }> {
  const { rows } = await database.query<BenchOrder & { confirmedAt: string }>(
    `
WITH product AS (
  SELECT p.id, p.name, v.price_aoa, v.id AS variant_id
  FROM products p JOIN product_variants v ON v.product_id = p.id AND v.archived_at IS NULL
  ORDER BY p.slug, v.position LIMIT 1
),
created AS (
  INSERT INTO orders (external_transaction_id, reference_number, status, amount_aoa, client_id, created_at,
                      updated_at, finalized_at)
  SELECT 'order_' || gen_random_uuid(), ${randomReference}, 'CON', product.price_aoa, $1, $3::timestamptz,
         $3::timestamptz, $3::timestamptz
  FROM generate_series(1, $2::int), product
  RETURNING id, external_transaction_id, reference_number, amount_aoa
),
lines AS (
  INSERT INTO order_lines (order_id, product_id, product_name, unit_price_aoa, quantity)
  SELECT created.id, product.id, product.name, product.price_aoa, 1 FROM created, product
),
jobs AS (
  INSERT INTO jobs (type, dedupe_key, payload, status, attempts, run_at, created_at, updated_at)
  SELECT job.type, job.type || ':' || created.external_transaction_id,
         jsonb_build_object('orderId', created.id, 'externalTransactionId', created.external_transaction_id),
         'DONE', 1, $3::timestamptz, $3::timestamptz, $3::timestamptz
  FROM created CROSS JOIN unnest($4::text[]) AS job(type)
)
SELECT id, external_transaction_id AS "externalTransactionId", reference_number AS "referenceNumber",
       amount_aoa AS "amountAoa", $3::timestamptz::timestamp(3)::text AS "confirmedAt"
FROM created`,
    [tag, count, CONFIRMED_AT, CON_JOBS],
  );
  await database.query("ANALYZE orders, order_lines, jobs");
  // finalized_at and updated_at as the database prints them, to compare with OrderState's.
  return { orders: rows, confirmedAt: rows[0]?.confirmedAt ?? "" };
}

/** A 12-digit reference number, like the service's; collisions are harmless (the column is not unique). */
const randomReference = "lpad(floor(random() * 1e12)::bigint::text, 12, '0')";

/** What the database holds about each order of a run, for the checks after it. */
export interface OrderState {
  externalTransactionId: string;
  status: "PEN" | "CON" | "CAN";
  /** As the database prints them, for exact comparisons. */
  finalizedAt: string | null;
  updatedAt: string;
  /** The outcome of every webhook event recorded for the order. */
  eventOutcomes: string[];
  /** The dedupe keys of every job whose payload names the order, sorted. */
  jobKeys: string[];
  /** Their statuses, in the same order. */
  jobStatuses: string[];
}

export async function orderStates(database: pg.Pool, tag: string): Promise<OrderState[]> {
  const { rows } = await database.query<OrderState>(
    `
SELECT o.external_transaction_id AS "externalTransactionId", o.status::text AS status,
       o.finalized_at::text AS "finalizedAt", o.updated_at::text AS "updatedAt",
       COALESCE(e.outcomes, '{}') AS "eventOutcomes",
       COALESCE(j.keys, '{}') AS "jobKeys", COALESCE(j.statuses, '{}') AS "jobStatuses"
FROM orders o
LEFT JOIN LATERAL (SELECT array_agg(outcome) AS outcomes FROM webhook_events WHERE order_id = o.id) e ON true
LEFT JOIN (
  SELECT payload->>'orderId' AS order_id, array_agg(dedupe_key ORDER BY dedupe_key) AS keys,
         array_agg(status::text ORDER BY dedupe_key) AS statuses
  FROM jobs GROUP BY 1
) j ON j.order_id = o.id::text
WHERE o.client_id = $1`,
    [tag],
  );
  return rows;
}

/** Webhook events recorded for the run's orders (`client_id` = tag). */
export async function countEvents(database: pg.Pool, tag: string): Promise<number> {
  const { rows } = await database.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM webhook_events WHERE order_id IN (SELECT id FROM orders WHERE client_id = $1)",
    [tag],
  );
  return rows[0]?.count ?? 0;
}

/** The run's jobs by status, e.g. { QUEUED: 30, DONE: 3 }. */
export async function jobStatusCounts(database: pg.Pool, tag: string): Promise<Record<string, number>> {
  const { rows } = await database.query<{ status: string; count: number }>(
    `SELECT status::text AS status, count(*)::int AS count FROM jobs
     WHERE payload->>'orderId' IN (SELECT id::text FROM orders WHERE client_id = $1) GROUP BY 1 ORDER BY 1`,
    [tag],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/**
 * The baseline runs no jobs, so the ones its transitions enqueued would wait for the app's
 * background runner, which picks up every due job: pushed to the end of time, they are never
 * due and the app does not spend its measured runs on them. Still QUEUED: they never ran.
 */
export async function setJobsAside(database: pg.Pool, tag: string): Promise<number> {
  const { rowCount } = await database.query(
    `UPDATE jobs SET run_at = 'infinity' WHERE status = 'QUEUED'
     AND payload->>'orderId' IN (SELECT id::text FROM orders WHERE client_id = $1)`,
    [tag],
  );
  return rowCount ?? 0;
}

/** Deliveries recorded for no order since `since` (none should be). */
export async function countUnmatchedEvents(database: pg.Pool, since: DatabaseTime): Promise<number> {
  const { rows } = await database.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM webhook_events WHERE order_id IS NULL AND received_at >= $1::timestamp",
    [since],
  );
  return rows[0]?.count ?? 0;
}

/** A timestamp as the database prints it (its clock, its time zone): compared in SQL, never in JS. */
export type DatabaseTime = string & { readonly databaseTime: unique symbol };

export async function databaseNow(database: pg.Pool): Promise<DatabaseTime> {
  const { rows } = await database.query<{ now: DatabaseTime }>("SELECT now()::timestamp(3)::text AS now");
  return rows[0]!.now;
}
