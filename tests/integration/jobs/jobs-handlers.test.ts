import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { JOB_TYPES, type JobType } from "@/lib/jobs/job-types";
import { jobHandlers } from "@/lib/jobs/handlers";
import type { ClaimedJob } from "@/lib/jobs/queue";
import { runDueJobs } from "@/lib/jobs/runner";
import { createOutboxMailer, type Mailer } from "@/lib/mail";
import { luanda } from "@/lib/mail/order-confirmation";
import { formatAoa } from "@/lib/money";
import { applyPaymentUpdate } from "@/lib/orders/state-machine";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { insertTestOrder, jobsOf, type TestOrder } from "../../../harness/support/orders";

// The real handlers against real rows. A database of this file's own: db() (and with it
// harness/support/orders.ts) points at it, so no other test file's runner can run these jobs
// before (or while) the assertions here look at them.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("jobs_handlers");
  await applyMigrations({ connectionString: database.url });
  // One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
  const max = process.env.TEST_SERVER_DATABASE_URL ? 6 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

const MAIL_TO = "encomendas@loja.test";
const quiet = () => {};
const outbox = () => createOutboxMailer({ db: client, log: quiet });

/** Runs the order's jobs (all of them, or those of the given types) through the real runner. */
async function runJobsOf(order: TestOrder, options: { types?: JobType[]; mailer?: Mailer } = {}) {
  const jobs = await jobsOf(order.externalTransactionId);
  const ids = jobs.filter((job) => !options.types || options.types.includes(job.type as JobType)).map((job) => job.id);
  return runDueJobs({ ids, db: client, mailer: options.mailer ?? outbox(), mailTo: MAIL_TO, log: quiet });
}

/** As after a crash between a job's work and its DONE: the job is due again. */
const requeue = (order: TestOrder) =>
  client.job.updateMany({
    where: { dedupeKey: { endsWith: `:${order.externalTransactionId}` } },
    data: { status: "QUEUED", runAt: new Date(0) },
  });

async function orderIn(status: "CON" | "CAN", options: { quantity?: number } = {}) {
  const order = await insertTestOrder({ quantity: options.quantity ?? 2, stockAfterReservation: 10 });
  await client.order.update({
    where: { id: order.id },
    data: { customerName: "Ana\nSilva", customerPhone: "+244 923 000 111" },
  });
  const result = await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status });
  expect(result.outcome).toBe("transitioned");
  return order;
}

const stockOf = async (productId: string) =>
  (await client.product.findUniqueOrThrow({ where: { id: productId } })).stock;
const cartOf = (cartId: string) => client.cart.findUniqueOrThrow({ where: { id: cartId }, include: { items: true } });
const emailsOf = (order: TestOrder) =>
  client.email.findMany({ where: { jobKey: `${JOB_TYPES.confirmationMail}:${order.externalTransactionId}` } });

/** A claimed job as the runner hands it to a handler, for calling handlers directly. */
async function claimedJob(order: TestOrder, type: JobType): Promise<ClaimedJob> {
  const job = (await jobsOf(order.externalTransactionId)).find((candidate) => candidate.type === type)!;
  return { ...job, attempt: 1, reclaimed: false };
}

const context = () => ({
  db: client,
  sql: client,
  mail: () => ({ mailer: outbox(), to: MAIL_TO }),
  signal: new AbortController().signal,
});

describe("a confirmed order (CON)", () => {
  it("mails the orders mailbox, issues the invoice and checks the cart out", async () => {
    const order = await orderIn("CON");
    expect(await runJobsOf(order)).toEqual({ done: 3, retried: 0, parked: 0 });
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.status)).toEqual(["DONE", "DONE", "DONE"]);

    const [email, ...more] = await emailsOf(order);
    expect(more).toEqual([]);
    const row = await client.order.findUniqueOrThrow({ where: { id: order.id }, include: { lines: true } });
    expect(email).toMatchObject({ to: MAIL_TO, transport: "outbox", messageId: null });
    expect(email!.subject).toBe(`Encomenda paga: ${formatAoa(order.amountAoa)} — ${order.externalTransactionId}`);
    for (const expected of [
      `Encomenda: ${order.externalTransactionId}`,
      `Identificador interno: ${order.id}`,
      `Referência: ${order.referenceNumber}`,
      `Valor: ${formatAoa(order.amountAoa)}`,
      "Cliente: «Ana Silva»",
      "Telefone: +244 923 000 111",
      `2 × ${row.lines[0]!.productName} — ${formatAoa(row.lines[0]!.unitPriceAoa)} cada — ${formatAoa(order.amountAoa)}`,
      `Pago em: ${luanda.format(row.finalizedAt!)} (hora de Luanda)`,
    ])
      expect(email!.text).toContain(expected);

    expect(await client.invoice.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({
      amountAoa: order.amountAoa,
    });
    expect(await cartOf(order.cartId)).toMatchObject({ status: "CHECKED_OUT", items: [] });
  });

  it("running the jobs again (a crash before DONE) sends no second mail and issues no second invoice or number", async () => {
    const order = await orderIn("CON");
    await runJobsOf(order);
    const invoice = await client.invoice.findUniqueOrThrow({ where: { orderId: order.id } });
    await requeue(order);
    expect(await runJobsOf(order)).toEqual({ done: 3, retried: 0, parked: 0 });
    expect(await emailsOf(order)).toHaveLength(1);
    expect(await client.invoice.findMany({ where: { orderId: order.id } })).toEqual([invoice]);
    expect(await cartOf(order.cartId)).toMatchObject({ status: "CHECKED_OUT", items: [] });
    // The re-run drew no number: the next invoice is the next number.
    const next = await orderIn("CON");
    await runJobsOf(next, { types: [JOB_TYPES.recordInvoice] });
    expect((await client.invoice.findUniqueOrThrow({ where: { orderId: next.id } })).number).toBe(invoice.number + 1);
  });

  it("invoice numbers are consecutive without gaps, however many are issued at once, and the counter holds the last", async () => {
    const orders = [];
    for (let i = 0; i < 12; i++) orders.push(await orderIn("CON"));
    const before = (await client.invoiceCounter.findUniqueOrThrow({ where: { id: 1 } })).lastNumber;
    // Each handler twice, all at once: twelve issue an invoice, the twelve duplicates issue nothing.
    const jobs = await Promise.all(orders.map((order) => claimedJob(order, JOB_TYPES.recordInvoice)));
    const handler = jobHandlers[JOB_TYPES.recordInvoice];
    await Promise.all([...jobs, ...jobs].map((job) => handler(job, context())));
    const numbers = (await client.invoice.findMany({ where: { orderId: { in: orders.map((order) => order.id) } } }))
      .map((invoice) => invoice.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => before + 1 + i));
    expect((await client.invoiceCounter.findUniqueOrThrow({ where: { id: 1 } })).lastNumber).toBe(before + 12);
    // A cancelled order draws no number either.
    const cancelled = await orderIn("CAN");
    await expect(
      handler({ ...(await claimedJob(cancelled, JOB_TYPES.releaseStock)), type: JOB_TYPES.recordInvoice }, context()),
    ).resolves.toEqual({ skipped: "order is CAN, not CON" });
    expect((await client.invoiceCounter.findUniqueOrThrow({ where: { id: 1 } })).lastNumber).toBe(before + 12);
  });

  it("a failed mail is retried and leaves no emails row; the retry sends it", async () => {
    const order = await orderIn("CON");
    const down: Mailer = {
      transport: "smtp",
      send: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:587");
      },
    };
    expect(await runJobsOf(order, { types: [JOB_TYPES.confirmationMail], mailer: down })).toEqual({
      done: 0,
      retried: 1,
      parked: 0,
    });
    const [job] = (await jobsOf(order.externalTransactionId)).filter((j) => j.type === JOB_TYPES.confirmationMail);
    expect(job).toMatchObject({ status: "QUEUED", lastError: "connect ECONNREFUSED 127.0.0.1:587" });
    expect(await emailsOf(order)).toEqual([]);
    await requeue(order);
    await runJobsOf(order, { types: [JOB_TYPES.confirmationMail] });
    expect(await emailsOf(order)).toHaveLength(1);
  });

  it("leaves a cart alone once a later order holds it", async () => {
    const order = await orderIn("CON");
    // Not reachable through checkout today; the handler must not rely on that.
    await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        amountAoa: 100,
        clientId: "shopper_test",
        cartId: order.cartId,
        createdAt: new Date(Date.now() + 60_000),
      },
    });
    await runJobsOf(order, { types: [JOB_TYPES.clearCart] });
    expect(await cartOf(order.cartId)).toMatchObject({ status: "LOCKED", items: [{ quantity: 2 }] });
  });

  it("an order without a cart (items checkout) completes clear-cart with nothing to do", async () => {
    const order = await orderIn("CON");
    await client.order.update({ where: { id: order.id }, data: { cartId: null } });
    expect(await runJobsOf(order, { types: [JOB_TYPES.clearCart] })).toEqual({ done: 1, retried: 0, parked: 0 });
    expect(await cartOf(order.cartId)).toMatchObject({ status: "LOCKED", items: [{ quantity: 2 }] });
  });
});

describe("a cancelled order (CAN)", () => {
  it("puts the units back once and reopens the cart with its items", async () => {
    const order = await orderIn("CAN", { quantity: 3 });
    expect(await stockOf(order.productId)).toBe(10);
    // The units are back on the shelf: the run says so, for the cached catalogue.
    expect(await runJobsOf(order)).toEqual({ done: 2, retried: 0, parked: 0, movedStock: true });
    expect(await stockOf(order.productId)).toBe(13);
    expect((await client.order.findUniqueOrThrow({ where: { id: order.id } })).stockReleasedAt).not.toBeNull();
    expect(await cartOf(order.cartId)).toMatchObject({ status: "OPEN", items: [{ quantity: 3 }] });

    await requeue(order);
    const again = await runJobsOf(order);
    expect(again).toEqual({ done: 2, retried: 0, parked: 0 });
    expect(again).not.toHaveProperty("movedStock");
    expect(await stockOf(order.productId)).toBe(13);
  });

  it("release-stock run many times at once still puts the units back exactly once", async () => {
    const order = await orderIn("CAN", { quantity: 2 });
    const job = await claimedJob(order, JOB_TYPES.releaseStock);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => jobHandlers[JOB_TYPES.releaseStock](job, context())),
    );
    expect(await stockOf(order.productId)).toBe(12);
    expect(results.filter((result) => result === undefined)).toHaveLength(1);
    expect(results.filter((result) => result?.skipped === "stock already released")).toHaveLength(5);
  });

  it("adds up several lines of the same product", async () => {
    const order = await insertTestOrder({ quantity: 1, stockAfterReservation: 10 });
    await client.orderLine.create({
      data: { orderId: order.id, productId: order.productId, productName: "extra", unitPriceAoa: 1, quantity: 4 },
    });
    await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status: "CAN" });
    await runJobsOf(order, { types: [JOB_TYPES.releaseStock] });
    expect(await stockOf(order.productId)).toBe(15);
  });

  it("does not reopen a cart another pending order has locked since", async () => {
    const order = await orderIn("CAN");
    await runJobsOf(order);
    expect((await cartOf(order.cartId)).status).toBe("OPEN");
    // The shopper checks the cart out again…
    await client.cart.update({ where: { id: order.cartId }, data: { status: "LOCKED" } });
    await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        amountAoa: order.amountAoa,
        clientId: "shopper_test",
        cartId: order.cartId,
      },
    });
    // …and the first order's reopen-cart runs again (a crash before DONE).
    await requeue(order);
    await runJobsOf(order, { types: [JOB_TYPES.reopenCart] });
    expect((await cartOf(order.cartId)).status).toBe("LOCKED");
  });
});

describe("defensive: a job whose order is not in the status that enqueued it", () => {
  it("CON jobs on a CAN order complete and change nothing", async () => {
    const order = await orderIn("CAN");
    const jobs = [JOB_TYPES.confirmationMail, JOB_TYPES.clearCart, JOB_TYPES.recordInvoice];
    const ids: string[] = [];
    for (const type of jobs) {
      const job = await client.job.create({
        data: {
          type,
          dedupeKey: `${type}:${order.externalTransactionId}`,
          payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
        },
      });
      ids.push(job.id);
    }
    expect(await runDueJobs({ ids, db: client, mailer: outbox(), mailTo: MAIL_TO, log: quiet })).toEqual({
      done: 3,
      retried: 0,
      parked: 0,
    });
    expect(await emailsOf(order)).toEqual([]);
    expect(await client.invoice.findUnique({ where: { orderId: order.id } })).toBeNull();
    expect(await cartOf(order.cartId)).toMatchObject({ status: "LOCKED", items: [{ quantity: 2 }] });
  });

  it("CAN jobs on a CON order complete and change nothing", async () => {
    const order = await orderIn("CON");
    await runJobsOf(order);
    const ids: string[] = [];
    for (const type of [JOB_TYPES.releaseStock, JOB_TYPES.reopenCart]) {
      const job = await client.job.create({
        data: {
          type,
          dedupeKey: `${type}:${order.externalTransactionId}`,
          payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
        },
      });
      ids.push(job.id);
    }
    expect(await runDueJobs({ ids, db: client, log: quiet })).toEqual({ done: 2, retried: 0, parked: 0 });
    expect(await stockOf(order.productId)).toBe(10);
    expect((await client.order.findUniqueOrThrow({ where: { id: order.id } })).stockReleasedAt).toBeNull();
    expect((await cartOf(order.cartId)).status).toBe("CHECKED_OUT");
  });

  it("a malformed payload parks the job at once", async () => {
    const job = await client.job.create({
      data: { type: JOB_TYPES.recordInvoice, dedupeKey: `record-invoice:broken-${randomUUID()}`, payload: { id: 1 } },
    });
    expect(await runDueJobs({ ids: [job.id], db: client, log: quiet })).toEqual({ done: 0, retried: 0, parked: 1 });
    expect(await client.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "PARKED",
      attempts: 1,
      lastError: "payload is not { orderId, externalTransactionId }",
    });
  });
});
