import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createRateLimits } from "@/lib/db/rate-limit";
import { jobHandlers, OVER_RECIPIENT_ALLOWANCE, type JobContext } from "@/lib/jobs/handlers";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import type { ClaimedJob } from "@/lib/jobs/queue";
import { runDueJobs } from "@/lib/jobs/runner";
import type { LogFields } from "@/lib/log";
import { createOutboxMailer } from "@/lib/mail";
import { recipientKey, recipientLimit, SHOPPER_MAIL_LIMIT } from "@/lib/mail/recipient-limit";
import { insertTestOrder } from "../../../harness/support/orders";

// The shopper's free mails per recipient address a day (lib/mail/recipient-limit.ts, applied in
// lib/jobs/handlers.ts' mailShopper): the bank reference mail, which anyone can have the shop send
// to any address by choosing a reference at checkout. Counted in the suite's real database
// (rate_limits), through pools of this file's own: two pools play two instances of the app.

const pools: pg.Pool[] = [];
const newPool = (connectionString = process.env.DATABASE_URL!) => {
  const pool = new pg.Pool({ connectionString, max: 2, connectionTimeoutMillis: 2_000 });
  pool.on("error", () => {});
  pools.push(pool);
  return pool;
};
let instanceA: ReturnType<typeof createRateLimits>;
let instanceB: ReturnType<typeof createRateLimits>;

beforeAll(() => {
  instanceA = createRateLimits(newPool(), { log: () => {} });
  instanceB = createRateLimits(newPool(), { log: () => {} });
});
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

/** An address of its own per test: the counters live in the suite's database for the whole run. */
const newAddress = () => `ana.${randomUUID().slice(0, 8)}@example.com`;

/** A PEN order with `email`, holding a bank reference, and the claimed job that mails it. */
async function referenceMailJob(email: string): Promise<ClaimedJob> {
  const order = await insertTestOrder();
  const paymentReference = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
  await db().order.update({
    where: { id: order.id },
    data: { customerEmail: email, customerName: "Ana", paymentReference, entityNumber: "00123" },
  });
  return {
    id: randomUUID(),
    type: JOB_TYPES.shopperReferenceMail,
    dedupeKey: `${JOB_TYPES.shopperReferenceMail}:${paymentReference}:${order.externalTransactionId}`,
    payload: { orderId: order.id, externalTransactionId: order.externalTransactionId, paymentReference },
    attempt: 1,
    maxAttempts: 8,
    reclaimed: false,
  };
}

/** A CON order with `email`, and the claimed job that mails its payment. */
async function paidMailJob(email: string): Promise<ClaimedJob> {
  const order = await insertTestOrder({ status: "CON" });
  await db().order.update({ where: { id: order.id }, data: { customerEmail: email } });
  return {
    id: randomUUID(),
    type: JOB_TYPES.shopperPaidMail,
    dedupeKey: `${JOB_TYPES.shopperPaidMail}:${order.externalTransactionId}`,
    payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
    attempt: 1,
    maxAttempts: 8,
    reclaimed: false,
  };
}

function contextWith(limits: ReturnType<typeof createRateLimits>, perDay: number) {
  const lines: { level: string; event: string; fields: LogFields }[] = [];
  const context: Omit<JobContext, "signal"> & { signal: AbortSignal } = {
    db: db(),
    sql: db(),
    mail: () => ({ mailer: createOutboxMailer({ db: db(), log: () => {} }), to: "encomendas@loja.test" }),
    signal: new AbortController().signal,
    log: (level, event, fields = {}) => void lines.push({ level, event, fields }),
    recipients: recipientLimit(limits, perDay),
  };
  return { context, lines };
}

const run = (job: ClaimedJob, context: JobContext) => jobHandlers[job.type as keyof typeof jobHandlers](job, context);
const mailsTo = (to: string) => db().email.count({ where: { to } });

describe("the shopper's reference mails to one address", () => {
  it("go out up to the allowance; the next is skipped, not retried, and logged without the address", async () => {
    const address = newAddress();
    const { context, lines } = contextWith(instanceA, 3);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await run(await referenceMailJob(address), context));

    expect(results).toEqual([undefined, undefined, undefined, { skipped: OVER_RECIPIENT_ALLOWANCE }]);
    expect(await mailsTo(address)).toBe(3);
    expect(lines).toEqual([
      {
        level: "warn",
        event: "mail.over_allowance",
        fields: {
          type: JOB_TYPES.shopperReferenceMail,
          order: expect.stringMatching(/^order#[0-9a-f]{12}$/),
          reason: "recipient_allowance",
        },
      },
    ]);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(address);
    expect(logged).not.toContain(address.split("@")[0]);
    expect(logged).not.toContain("order_");

    // The counter is under the mailbox's hash: the table never holds the address.
    const rows = await db().$queryRaw<{ key: string; points: number }[]>`
      SELECT key, points FROM rate_limits WHERE key = ${`${SHOPPER_MAIL_LIMIT}:${recipientKey(address)}`}`;
    expect(rows).toEqual([{ key: `${SHOPPER_MAIL_LIMIT}:${recipientKey(address)}`, points: 4 }]);
    const leaked = await db().$queryRaw<{ count: bigint }[]>`
      SELECT count(*) AS count FROM rate_limits WHERE key LIKE ${`%${address.split("@")[0]}%`}`;
    expect(leaked).toEqual([{ count: 0n }]);
  });

  it("the same mailbox written otherwise (capitals, a +tag) shares the allowance; another address has its own", async () => {
    const address = newAddress();
    const other = newAddress();
    const [local, domain] = address.split("@") as [string, string];
    const { context } = contextWith(instanceA, 2);
    expect(await run(await referenceMailJob(address), context)).toBeUndefined();
    expect(await run(await referenceMailJob(`${local}+premio@${domain.toUpperCase()}`), context)).toBeUndefined();
    expect(await run(await referenceMailJob(` ${local.toUpperCase()}@${domain}`), context)).toEqual({
      skipped: OVER_RECIPIENT_ALLOWANCE,
    });
    expect(await run(await referenceMailJob(other), context)).toBeUndefined();
    expect(await run(await referenceMailJob(other), context)).toBeUndefined();
    expect(await mailsTo(other)).toBe(2);
  });

  it("two instances share one count: in turn, and at once", async () => {
    const address = newAddress();
    const a = contextWith(instanceA, 3).context;
    const b = contextWith(instanceB, 3).context;
    const inTurn = [];
    for (const context of [a, b, a, b]) inTurn.push(await run(await referenceMailJob(address), context));
    expect(inTurn).toEqual([undefined, undefined, undefined, { skipped: OVER_RECIPIENT_ALLOWANCE }]);
    expect(await mailsTo(address)).toBe(3);

    const burst = newAddress();
    const jobs = await Promise.all(Array.from({ length: 10 }, () => referenceMailJob(burst)));
    const results = await Promise.all(jobs.map((job, i) => run(job, i % 2 ? a : b)));
    expect(results.filter((result) => result === undefined)).toHaveLength(3);
    expect(await mailsTo(burst)).toBe(3);
  });

  it("a mail about a paid order always goes, and spends nothing", async () => {
    const address = newAddress();
    const { context } = contextWith(instanceA, 1);
    expect(await run(await referenceMailJob(address), context)).toBeUndefined();
    expect(await run(await referenceMailJob(address), context)).toEqual({ skipped: OVER_RECIPIENT_ALLOWANCE });
    expect(await run(await paidMailJob(address), context)).toBeUndefined();
    expect(await run(await paidMailJob(address), context)).toBeUndefined();
    expect(await mailsTo(address)).toBe(3);
    const rows = await db().$queryRaw<{ points: number }[]>`
      SELECT points FROM rate_limits WHERE key = ${`${SHOPPER_MAIL_LIMIT}:${recipientKey(address)}`}`;
    expect(rows).toEqual([{ points: 2 }]);
  });

  it("with the counters out of reach, the job fails (to be retried) and nothing is mailed uncounted", async () => {
    const address = newAddress();
    const unreachable = createRateLimits(newPool("postgres://postgres@127.0.0.1:1/none"), { log: () => {} });
    const { context } = contextWith(unreachable, 3);
    await expect(run(await referenceMailJob(address), context)).rejects.toThrow();
    expect(await mailsTo(address)).toBe(0);
  });

  it("0 turns the cap off", async () => {
    const address = newAddress();
    const { context } = contextWith(instanceA, 0);
    for (let i = 0; i < 4; i++) expect(await run(await referenceMailJob(address), context)).toBeUndefined();
    expect(await mailsTo(address)).toBe(4);
  });
});

describe("through the job runner, with the app's setting (SHOPPER_MAILS_PER_ADDRESS_PER_DAY, 5 by default)", () => {
  it("the sixth reference mail's job is done as skipped, logged without the address", async () => {
    const address = newAddress();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const job = await referenceMailJob(address);
      const { orderId } = job.payload as { orderId: string };
      const row = await db().job.create({
        data: { type: job.type, dedupeKey: job.dedupeKey, payload: job.payload as object, orderId },
      });
      ids.push(row.id);
      const lines: string[] = [];
      const summary = await runDueJobs({
        ids: [row.id],
        db: db(),
        mailer: createOutboxMailer({ db: db(), log: () => {} }),
        log: (level, event, fields) => void lines.push(JSON.stringify({ level, event, ...fields })),
      });
      expect(summary).toMatchObject({ done: 1, retried: 0, parked: 0 });
      expect(lines.join("\n")).not.toContain(address);
      if (i === 5) {
        expect(lines.some((line) => line.includes('"event":"mail.over_allowance"'))).toBe(true);
        expect(lines.some((line) => line.includes(OVER_RECIPIENT_ALLOWANCE))).toBe(true);
      }
    }
    expect(await mailsTo(address)).toBe(5);
    expect((await db().job.findMany({ where: { id: { in: ids } } })).map((job) => job.status)).toEqual(
      Array(6).fill("DONE"),
    );
  });
});
