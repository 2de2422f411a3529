import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attentionItems } from "@/lib/orders/attention-admin";
import { adminOrderDetail } from "@/lib/orders/timeline-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import { jobsOfOrders, requeueParkedJob } from "@/lib/jobs/queue";
import { changeFulfilment } from "@/lib/orders/fulfilment";
import { applyPaymentUpdate } from "@/lib/orders/state-machine";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, migrateBefore, type TestDatabase } from "../../../harness/support/database";

// Jobs name their order in jobs.order_id (migrations 20261204000000 to 20261204000300): on a
// database the release before filled, the jobs already there are backfilled in batches; a job the
// release before inserts afterwards (its exact statement: no order_id) gets its order from a
// trigger; and the back office finds an order's jobs by that column, through its index.

const FIRST_MIGRATION = "20261204000000_jobs_order_id";
/** More than two of the backfill's batches (5000 jobs each). */
const MANY_JOBS = 10_001;

let database: TestDatabase;
let pool: pg.Pool;
let client: PrismaClient;

const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await pool.query<R>(sql, params)).rows;

/** An order as the release before inserts it; its external id. */
const insertOrder = async (status: "CON" | "CAN") =>
  (
    await query<{ id: string; ext: string }>(
      `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, finalized_at)
       VALUES ('order_' || gen_random_uuid(), $1, 9500, 'before', now()) RETURNING id, external_transaction_id AS ext`,
      [status],
    )
  )[0]!;

/** The release before's enqueue, as lib/orders/state-machine.ts and fulfilment.ts of that release write it. */
const insertJobTheOldWay = (type: string, key: string, order: { id: string; ext: string }, status = "QUEUED") =>
  query(
    `INSERT INTO jobs (type, dedupe_key, payload, status)
     VALUES ($1, $2, jsonb_build_object('orderId', $3::text, 'externalTransactionId', $4::text), $5::"JobStatus")`,
    [type, key, order.id, order.ext, status],
  );

const orderIdOf = async (key: string) =>
  (await query<{ order_id: string | null }>(`SELECT order_id FROM jobs WHERE dedupe_key = $1`, [key]))[0]?.order_id;

const paid = {} as { id: string; ext: string };
const cancelled = {} as { id: string; ext: string };

beforeAll(async () => {
  database = await createTestDatabase("jobs-order-id");
  // Every migration before this step: the schema the release before runs on.
  await migrateBefore(database.url, FIRST_MIGRATION);
  pool = new pg.Pool({ connectionString: database.url, max: 2 });

  Object.assign(paid, await insertOrder("CON"));
  Object.assign(cancelled, await insertOrder("CAN"));
  await insertJobTheOldWay(JOB_TYPES.confirmationMail, `confirmation-mail:${paid.ext}`, paid, "DONE");
  await insertJobTheOldWay(JOB_TYPES.fulfilmentMail, `fulfilment-mail:shipped:${paid.ext}`, paid, "DONE");
  await insertJobTheOldWay(JOB_TYPES.releaseStock, `release-stock:${cancelled.ext}`, cancelled, "PARKED");
  // A key that names no order of this shop: left without one, and nothing fails.
  await insertJobTheOldWay("confirmation-mail", "confirmation-mail:order_nobody", paid);
  // Enough other jobs of the paid order for the backfill to take several batches.
  await query(
    `INSERT INTO jobs (type, dedupe_key, payload, status)
     SELECT 'bulk', 'bulk-' || n || ':' || $1, '{}'::jsonb, 'DONE' FROM generate_series(1, $2::int) AS n`,
    [paid.ext, MANY_JOBS],
  );

  // This release's migrations, on that data.
  await applyMigrations({ connectionString: database.url });
  // On the file's pool, which afterAll ends before the database is dropped.
  client = new PrismaClient({ adapter: new PrismaPg(pool) });
});
afterAll(async () => {
  await client?.$disconnect();
  await pool?.end();
  await database?.drop();
});

describe("the jobs of the release before", () => {
  it("are backfilled with their order, in batches, every one of them", async () => {
    expect(await orderIdOf(`confirmation-mail:${paid.ext}`)).toBe(paid.id);
    expect(await orderIdOf(`fulfilment-mail:shipped:${paid.ext}`)).toBe(paid.id);
    expect(await orderIdOf(`release-stock:${cancelled.ext}`)).toBe(cancelled.id);
    expect(await orderIdOf("confirmation-mail:order_nobody")).toBeNull();
    const [bulk] = await query<{ filled: number; total: number }>(
      `SELECT count(*) FILTER (WHERE order_id = $1)::int AS filled, count(*)::int AS total FROM jobs WHERE type = 'bulk'`,
      [paid.id],
    );
    expect(bulk).toEqual({ filled: MANY_JOBS, total: MANY_JOBS });
  });

  it("get their order from the trigger when the release before inserts one after the migration", async () => {
    await insertJobTheOldWay(JOB_TYPES.reopenCart, `reopen-cart:${cancelled.ext}`, cancelled);
    expect(await orderIdOf(`reopen-cart:${cancelled.ext}`)).toBe(cancelled.id);
    // This release's own statements set it; the trigger leaves a value it was given alone.
    await query(`INSERT INTO jobs (type, dedupe_key, payload, order_id) VALUES ('check', $1, '{}', $2)`, [
      `check:${cancelled.ext}`,
      paid.id,
    ]);
    expect(await orderIdOf(`check:${cancelled.ext}`)).toBe(paid.id);
    await query(`DELETE FROM jobs WHERE dedupe_key = $1`, [`check:${cancelled.ext}`]);
  });

  it("are on their order's back-office page, its attention list entry, and found to run or retry", async () => {
    const detail = await adminOrderDetail(client, cancelled.ext);
    expect(detail?.jobs.map((job) => job.type).sort()).toEqual([JOB_TYPES.releaseStock, JOB_TYPES.reopenCart]);
    expect(detail?.timeline.filter((event) => event.kind === "job")).toHaveLength(2);

    const parked = (await attentionItems(client)).parkedJobs.items;
    expect(parked).toEqual([
      expect.objectContaining({ type: JOB_TYPES.releaseStock, externalTransactionId: cancelled.ext }),
    ]);

    const found = await jobsOfOrders(client, [JOB_TYPES.releaseStock, JOB_TYPES.reopenCart], [cancelled.ext]);
    expect(found.map((job) => job.externalTransactionId)).toEqual([cancelled.ext, cancelled.ext]);
    const parkedId = detail!.jobs.find((job) => job.type === JOB_TYPES.releaseStock)!.id;
    expect(await requeueParkedJob(client, { id: parkedId, externalTransactionId: paid.ext })).toBe("not_found");
    expect(await requeueParkedJob(client, { id: parkedId, externalTransactionId: cancelled.ext })).toBe("requeued");
  });
});

describe("this release's enqueues", () => {
  it("set order_id themselves: a payment's jobs and a fulfilment step's mail, with the trigger switched off", async () => {
    const [order] = await query<{ id: string; ext: string }>(
      `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, customer_email)
       VALUES ('order_' || gen_random_uuid(), 'PEN', 9500, 'now', 'cliente@exemplo.ao') RETURNING id, external_transaction_id AS ext`,
    );
    await query("ALTER TABLE jobs DISABLE TRIGGER jobs_fill_order_id");
    try {
      expect(await applyPaymentUpdate(client, { externalTransactionId: order!.ext }, { status: "CON" })).toMatchObject({
        outcome: "transitioned",
      });
      const actor = { id: "jobs-order-id-test", name: "Teste", email: "teste@shop.example", role: "staff" } as const;
      await client.staff.create({ data: actor });
      expect(await changeFulfilment(client, order!.ext, { state: "shipped" }, actor)).toMatchObject({
        outcome: "changed",
      });
    } finally {
      await query("ALTER TABLE jobs ENABLE TRIGGER jobs_fill_order_id");
    }
    const jobs = await query<{ type: string; order_id: string | null }>(
      `SELECT type, order_id FROM jobs WHERE dedupe_key LIKE '%' || $1 ORDER BY type`,
      [order!.ext],
    );
    expect(jobs.map((job) => job.type)).toEqual([
      JOB_TYPES.clearCart,
      JOB_TYPES.confirmationMail,
      JOB_TYPES.fulfilmentMail,
      JOB_TYPES.recordInvoice,
      JOB_TYPES.shopperPaidMail,
    ]);
    expect(jobs.every((job) => job.order_id === order!.id)).toBe(true);
  });
});

describe("an order's page reads jobs.order_id", () => {
  it("finds a job by its order, whatever its key says", async () => {
    const order = await insertOrder("CON");
    await query(`INSERT INTO jobs (type, dedupe_key, payload, order_id) VALUES ('check', 'check:42', '{}', $1)`, [
      order.id,
    ]);
    const detail = await adminOrderDetail(client, order.ext);
    expect(detail?.jobs.map((job) => job.type)).toEqual(["check"]);
  });

  it("through the index, not by reading every job", async () => {
    await query("ANALYZE jobs");
    // The page's query (lib/orders/timeline-admin.ts) and jobsOfOrders', planned as PostgreSQL
    // plans them when it may not read the table whole.
    const plans = await pool.connect().then(async (session) => {
      try {
        await session.query("BEGIN");
        await session.query("SET LOCAL enable_seqscan = off");
        const plan = async (sql: string, params: unknown[]) =>
          (await session.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).rows
            .map((row) => row["QUERY PLAN"])
            .join("\n");
        return [
          await plan(`SELECT id, type FROM jobs WHERE order_id = $1 ORDER BY created_at, type`, [paid.id]),
          await plan(
            `SELECT j.id FROM orders o JOIN jobs j ON j.order_id = o.id
             WHERE o.external_transaction_id = ANY($1::text[]) AND j.type = ANY($2::text[])`,
            [[paid.ext], [JOB_TYPES.confirmationMail]],
          ),
        ];
      } finally {
        await session.query("ROLLBACK");
        session.release();
      }
    });
    for (const plan of plans) {
      expect(plan).toContain("jobs_order_id_idx");
      expect(plan).not.toMatch(/Seq Scan on jobs/);
    }
  });
});
