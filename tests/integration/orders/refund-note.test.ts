import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import type { Actor } from "@/lib/admin/staff-events";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import { jobHandlers } from "@/lib/jobs/handlers";
import { claimJobs } from "@/lib/jobs/queue";
import { runDueJobs } from "@/lib/jobs/runner";
import { createOutboxMailer } from "@/lib/mail";
import { formatAoa } from "@/lib/money";
import { refundNote, shopperRefunds } from "@/lib/orders/refund-note";
import { recordCorrection } from "@/lib/orders/refund-corrections-admin";
import { recordRefund } from "@/lib/orders/refunds-admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";

// What the shopper has of a refund (lib/orders/refund-note.ts): the mail's job, enqueued in the
// refund's own transaction and only for an order with an email, and the mail its run sends once
// (lib/jobs/refund-mail.ts); the order page's record with the net paid; each refund's note, which
// only its own order's id opens. On a database of this file's own (PostgreSQL with DATABASE_URL
// set, embedded PGlite without), so that its refunds are numbered from 1 and move no counter that
// tests/integration/orders/refunds.test.ts reads. That file checks the counter has no gaps.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;
let owner: Pick<Actor, "id" | "name">;

beforeAll(async () => {
  database = await createTestDatabase("refund-note");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url));
  shared.client = client;
  owner = await client.staff.create({
    data: { id: `staff_${randomUUID()}`, name: "Dona Rosa", email: "rosa@shop.example", role: "owner" },
    select: { id: true, name: true },
  });
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

/**
 * A paid, invoiced order of one line: 3 units of 2 000 Kz and a delivery fee of 1 000 (7 000 paid),
 * by "Ana Silva", with `email` or none.
 */
async function paidOrder(email: string | null, invoiceNumber: number) {
  const product = await insertTestProduct({ priceAoa: 2_000, stock: 5 });
  const externalTransactionId = newExternalTransactionId();
  const order = await client.order.create({
    data: {
      externalTransactionId,
      status: "CON",
      finalizedAt: new Date(),
      amountAoa: 7_000,
      subtotalAoa: 6_000,
      deliveryFeeAoa: 1_000,
      deliveryMethod: "delivery",
      customerName: "Ana Silva",
      customerEmail: email,
      clientId: `shopper_${randomUUID()}`,
      lines: {
        create: {
          productId: product.id,
          variantId: product.variantId,
          productName: product.name,
          unitPriceAoa: 2_000,
          quantity: 3,
        },
      },
      invoice: { create: { number: invoiceNumber, amountAoa: 7_000 } },
    },
  });
  return { id: order.id, externalTransactionId, product };
}

const refund = async (externalTransactionId: string, fields: Record<string, unknown>) => {
  const result = await recordRefund(client, externalTransactionId, fields, owner);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
};

const mailJobsOf = (orderId: string) =>
  client.job.findMany({ where: { orderId, type: JOB_TYPES.refundMail }, orderBy: { createdAt: "asc" } });

describe("the shopper's refund mail", () => {
  it("is enqueued once per refund with the refund, and its run mails the shopper what went back, once", async () => {
    const order = await paidOrder("ana.silva@example.com", 1);
    const first = await refund(order.externalTransactionId, {
      method: "bank_transfer",
      reference: "TRF-0001",
      returns: [
        { variantId: order.product.variantId, quantity: 1, restock: true },
        { variantId: order.product.variantId, quantity: 1, restock: false },
      ],
    });
    const second = await refund(order.externalTransactionId, { amountAoa: 500, method: "cash" });

    const jobs = await mailJobsOf(order.id);
    expect(jobs.map((job) => [job.dedupeKey, job.payload])).toEqual(
      [first, second].map(({ refund: { number } }) => [
        `refund-mail:${number}:${order.externalTransactionId}`,
        { orderId: order.id, externalTransactionId: order.externalTransactionId, refundNumber: number },
      ]),
    );
    expect([first.mailJobId, second.mailJobId]).toEqual(jobs.map((job) => job.id));

    const summary = await runDueJobs({ db: client, ids: jobs.map((job) => job.id), log: () => {} });
    expect(summary).toMatchObject({ done: 2, retried: 0, parked: 0 });
    const mails = await client.email.findMany({
      where: { jobKey: { in: jobs.map((job) => job.dedupeKey) } },
      orderBy: { createdAt: "asc" },
    });
    expect(mails.map((mail) => [mail.to, mail.jobKey, mail.transport])).toEqual(
      jobs.map((job) => ["ana.silva@example.com", job.dedupeKey, "outbox"]),
    );
    const orderNumber = order.externalTransactionId.slice(6, 14).toUpperCase();
    // The return's value: two units of 2 000, whichever went back to stock; the shopper is told the units, not that.
    expect(first.refund.amountAoa).toBe(4_000);
    expect(mails[0]!.subject).toBe(`Encomenda ${orderNumber}: reembolso de ${formatAoa(4_000)}`);
    expect(mails[0]!.text).toContain(`\nNota de reembolso: N.º ${String(first.refund.number).padStart(6, "0")}\n`);
    expect(mails[0]!.text).toContain("\nMétodo: Transferência bancária\nReferência: TRF-0001\n");
    expect(mails[0]!.text).toContain(`\nArtigos devolvidos:\n  2 × ${order.product.name}\n`);
    expect(mails[0]!.text).not.toMatch(/stock|danific/i);
    expect(mails[0]!.text).toContain(
      `\nNota de reembolso para imprimir: ${new URL(`/orders/${order.externalTransactionId}/refunds/${first.refund.number}`, process.env.APP_URL)}\n`,
    );
    expect(mails[1]!.subject).toBe(`Encomenda ${orderNumber}: reembolso de ${formatAoa(500)}`);
    expect(mails[1]!.text).toContain(`\nPago, descontados os reembolsos: ${formatAoa(2_500)}\n`);

    // Run again (a crash between sending and DONE): the mail is not sent twice.
    await client.job.update({ where: { id: jobs[0]!.id }, data: { status: "QUEUED", runAt: new Date(0) } });
    const [claimed] = await claimJobs(client, { limit: 1, ids: [jobs[0]!.id] });
    const mailer = createOutboxMailer({ db: client, log: () => {} });
    const again = await jobHandlers[JOB_TYPES.refundMail](claimed!, {
      db: client,
      sql: client,
      mail: () => ({ mailer, to: "encomendas@loja.test" }),
      signal: new AbortController().signal,
    });
    expect(again).toEqual({ skipped: "already mailed" });
    expect(await client.email.count({ where: { jobKey: jobs[0]!.dedupeKey } })).toBe(1);
  });

  it("is not enqueued for an order without an email, nor by a refund refused", async () => {
    const order = await paidOrder(null, 2);
    const recorded = await refund(order.externalTransactionId, { amountAoa: 1_000, method: "cash" });
    expect(recorded.mailJobId).toBeUndefined();
    expect(await mailJobsOf(order.id)).toEqual([]);

    const mailed = await paidOrder("refused@example.com", 3);
    const refused = await recordRefund(
      client,
      mailed.externalTransactionId,
      { amountAoa: 7_001, method: "cash" },
      owner,
    );
    expect(refused).toMatchObject({ ok: false, status: 409, code: "exceeds_paid" });
    expect(await mailJobsOf(mailed.id)).toEqual([]);
  });
});

describe("the shopper's mail about a correcting entry", () => {
  it("is enqueued with the correction and says which note it corrects and what is refunded now", async () => {
    const order = await paidOrder("corrigida@example.com", 40);
    const first = await refund(order.externalTransactionId, { amountAoa: 3_000, method: "multicaixa_express" });
    const corrected = await recordCorrection(
      client,
      order.externalTransactionId,
      first.refund.number,
      { amountAoa: 1_000, note: "Só 2 000 Kz foram transferidos" },
      owner,
    );
    if (!corrected.ok) throw new Error(`correction refused: ${corrected.message}`);
    expect(corrected.mailJobId).toBeDefined();
    const jobs = await mailJobsOf(order.id);
    expect(jobs.map((job) => job.dedupeKey)).toEqual([
      `refund-mail:${first.refund.number}:${order.externalTransactionId}`,
      `refund-mail:${corrected.correction.number}:${order.externalTransactionId}`,
    ]);
    expect(await runDueJobs({ db: client, ids: [corrected.mailJobId!], log: () => {} })).toMatchObject({ done: 1 });
    const mail = await client.email.findFirstOrThrow({ where: { jobKey: jobs[1]!.dedupeKey } });
    expect(mail.to).toBe("corrigida@example.com");
    expect(mail.text).toContain(String(first.refund.number).padStart(6, "0"));
    expect(mail.text).toContain(`\nPago, descontados os reembolsos: ${formatAoa(5_000)}\n`);
  });
});

describe("the shopper's record of refunds and the refund note", () => {
  it("lists each refund with its units and the net paid; a note is numbered from the refund counter and opens only from its own order", async () => {
    const [a, b] = [await paidOrder("a@example.com", 4), await paidOrder(null, 5)];
    expect(await shopperRefunds(client, a.externalTransactionId)).toBeNull();
    const before = (await client.refundCounter.findUniqueOrThrow({ where: { id: 1 } })).lastNumber;
    const first = await refund(a.externalTransactionId, {
      method: "multicaixa_express",
      returns: [{ variantId: a.product.variantId, quantity: 1, restock: false }],
    });
    const other = await refund(b.externalTransactionId, { amountAoa: 700, method: "other" });
    const second = await refund(a.externalTransactionId, { method: "cash", reference: "Recibo 12" });
    // Two orders' refunds, numbered one after the other across the shop.
    expect([first, other, second].map((done) => done.refund.number)).toEqual([before + 1, before + 2, before + 3]);

    const record = await shopperRefunds(client, a.externalTransactionId);
    expect(record).toEqual({
      paidAoa: 7_000,
      refundedAoa: 7_000,
      netPaidAoa: 0,
      refunds: [
        {
          number: before + 1,
          amountAoa: 2_000,
          method: "multicaixa_express",
          reference: null,
          refundedAt: first.refund.refundedAt,
          correctsNumber: null,
          units: [{ productName: a.product.name, variantTitle: "", quantity: 1 }],
        },
        {
          number: before + 3,
          amountAoa: 5_000,
          method: "cash",
          reference: "Recibo 12",
          refundedAt: second.refund.refundedAt,
          correctsNumber: null,
          units: [],
        },
      ],
    });

    const note = await refundNote(client, a.externalTransactionId, before + 3);
    expect(note).toMatchObject({
      number: before + 3,
      amountAoa: 5_000,
      externalTransactionId: a.externalTransactionId,
      orderNumber: a.externalTransactionId.slice(6, 14).toUpperCase(),
      invoiceNumber: 4,
      customerName: "Ana Silva",
      paidAoa: 7_000,
      refundedToDateAoa: 7_000,
      units: [],
    });
    expect((await refundNote(client, a.externalTransactionId, before + 1))!.refundedToDateAoa).toBe(2_000);

    // Someone with order b's id learns nothing of order a's refunds, and the other way round.
    expect(await refundNote(client, b.externalTransactionId, before + 1)).toBeNull();
    expect(await refundNote(client, a.externalTransactionId, before + 2)).toBeNull();
    expect(await refundNote(client, b.externalTransactionId, before + 2)).toMatchObject({ amountAoa: 700 });
    // Nor does a number no refund has, or an id that names no order.
    expect(await refundNote(client, a.externalTransactionId, before + 99)).toBeNull();
    expect(await refundNote(client, newExternalTransactionId(), before + 1)).toBeNull();
    expect(await refundNote(client, "order_not-an-id", before + 1)).toBeNull();
  });

  it("a cancelled order paid after all: refunded in money, its note without a receipt, paid when the payment came", async () => {
    const product = await insertTestProduct({ priceAoa: 3_000, stock: 5 });
    const externalTransactionId = newExternalTransactionId();
    const paidAfterCancelAt = new Date(Date.now() - 60_000);
    await client.order.create({
      data: {
        externalTransactionId,
        status: "CAN",
        finalizedAt: new Date(Date.now() - 3_600_000),
        paidAfterCancelAt,
        amountAoa: 3_000,
        customerEmail: "tarde@example.com",
        clientId: `shopper_${randomUUID()}`,
        lines: {
          create: {
            productId: product.id,
            variantId: product.variantId,
            productName: product.name,
            unitPriceAoa: 3_000,
            quantity: 1,
          },
        },
      },
    });
    const done = await refund(externalTransactionId, { method: "bank_transfer" });
    expect(done.mailJobId).toBeDefined();
    const note = await refundNote(client, externalTransactionId, done.refund.number);
    expect(note).toMatchObject({
      amountAoa: 3_000,
      invoiceNumber: null,
      customerName: null,
      paidAt: paidAfterCancelAt,
    });
    expect(await runDueJobs({ db: client, ids: [done.mailJobId!], log: () => {} })).toMatchObject({ done: 1 });
    const [mail] = await client.email.findMany({
      where: { jobKey: { startsWith: `${JOB_TYPES.refundMail}:` }, to: "tarde@example.com" },
    });
    expect(mail!.text).toContain("\nEm nome de: —\n");
  });
});
