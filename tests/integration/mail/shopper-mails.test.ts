import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { JOB_TYPES, jobsForTransition } from "@/lib/jobs/job-types";
import { jobHandlers } from "@/lib/jobs/handlers";
import { claimJobs } from "@/lib/jobs/queue";
import { createOutboxMailer } from "@/lib/mail";
import { luandaDayAndTime } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import { startAppServer, type AppServer } from "../../../harness/support/app-server";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct, jobsOf } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";

// The shopper's mails before and at payment (jobs shopper-reference-mail and shopper-paid-mail):
// when the sandbox's signed webhook brings a bank reference, or makes an order CON, the mail lands
// in the outbox (the `emails` table, transport "outbox") addressed to the order's customer_email,
// once; an order without an email gets none. End to end over HTTP like contract-flows.test.ts: the
// app's routes behind a real listener, the sandbox creating the order and delivering its webhook.
// The test writes the email (and the delivery snapshot) on the pending order itself.

let app: AppServer;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  app = await startAppServer();
  sandbox = await useOwnSandbox({ settings: { webhookUrl: `${app.url}/api/pay/webhook`, webhookRetryBaseMs: 50 } });
});
afterAll(async () => {
  await sandbox.close();
  await app.close();
});
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

/** A pending order made through the app's checkout and the sandbox, then given `email` and a pickup. */
async function pendingOrder(email: string | null) {
  const product = await insertTestProduct({ stock: 10, priceAoa: 4000 });
  const cart = await db().cart.create({ data: { lines: { create: { variantId: product.variantId, quantity: 2 } } } });
  const response = await fetch(`${app.url}/api/pay/create-order`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: `cart_id=${cart.id}` },
    body: JSON.stringify({ customer: { name: "Maria\nJoão", phone: "923 000 111" } }),
  });
  expect(response.status).toBe(200);
  const { externalTransactionId } = (await response.json()) as { externalTransactionId: string };
  await db().order.update({
    where: { externalTransactionId },
    data: {
      customerEmail: email,
      subtotalAoa: 8000,
      deliveryMethod: "pickup",
      pickupPointName: "Loja do Kinaxixi",
      pickupPointAddress: "Largo do Kinaxixi, 3",
      pickupPointHours: "Seg a Sáb, 9h às 18h",
    },
  });
  return { externalTransactionId, productName: product.name };
}

/** The sandbox approves the order and delivers its signed webhook to the app; the jobs it enqueued run. */
async function payThroughSandbox(externalTransactionId: string) {
  await sandbox.control.call("POST", `/orders/${externalTransactionId}/approve`, {});
  const [delivery] = await sandbox.waitForDeliveries({
    externalTransactionId,
    state: "delivered",
    count: 1,
  } as Parameters<typeof sandbox.waitForDeliveries>[0]);
  expect(delivery!.attempts.at(-1)).toMatchObject({ status: 200 });
  await settleAfterTasks();
  expect((await db().order.findUniqueOrThrow({ where: { externalTransactionId } })).status).toBe("CON");
}

const shopperMails = (externalTransactionId: string) =>
  db().email.findMany({ where: { jobKey: `${JOB_TYPES.shopperPaidMail}:${externalTransactionId}` } });

describe("the shopper's confirmation mail", () => {
  it("lands in the outbox, addressed to customer_email, when the signed webhook makes the order CON", async () => {
    const order = await pendingOrder("maria.joao@example.com");
    expect(await shopperMails(order.externalTransactionId)).toEqual([]);
    await payThroughSandbox(order.externalTransactionId);

    const [mail, ...more] = await shopperMails(order.externalTransactionId);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: "maria.joao@example.com", transport: "outbox" });
    const number = order.externalTransactionId.slice(6, 14).toUpperCase();
    expect(mail!.subject).toBe(`Encomenda ${number} paga — ${formatAoa(8000)}`);
    // The greeting is the shop's, without the name; the name typed with a line break is a quoted field on
    // one line; lines, amount in parts, pickup and the page's link.
    expect(mail!.text.split("\n")[0]).toBe("Olá,");
    expect(mail!.text).toContain("\nEm nome de: «Maria João»\n");
    expect(mail!.text).toContain(`2 × ${order.productName}`);
    expect(mail!.text).toContain(`Subtotal: ${formatAoa(8000)}`);
    expect(mail!.text).toContain("Levantamento em: Loja do Kinaxixi");
    expect(mail!.text).toContain("Horário: Seg a Sáb, 9h às 18h");
    expect(mail!.text).toContain(new URL(`/orders/${order.externalTransactionId}`, process.env.APP_URL).toString());
    // The shop's own mailbox still gets its mail; the shopper's is a separate one.
    expect(await db().email.count({ where: { jobKey: `confirmation-mail:${order.externalTransactionId}` } })).toBe(1);
  });

  it("is not even enqueued for an order without an email: no job, no mail", async () => {
    const order = await pendingOrder(null);
    await payThroughSandbox(order.externalTransactionId);
    expect(await shopperMails(order.externalTransactionId)).toEqual([]);
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((j) => j.type).sort()).toEqual(jobsForTransition("CON", false).sort());
  });

  it("is sent once when its job runs again (a crash before DONE)", async () => {
    const order = await pendingOrder("again@example.com");
    await payThroughSandbox(order.externalTransactionId);
    const job = (await jobsOf(order.externalTransactionId)).find((j) => j.type === JOB_TYPES.shopperPaidMail)!;
    await db().job.update({ where: { id: job.id }, data: { status: "QUEUED", runAt: new Date(0) } });
    const [claimed] = await claimJobs(db(), { limit: 1, ids: [job.id] });
    const mailer = createOutboxMailer({ db: db(), log: () => {} });
    const result = await jobHandlers[JOB_TYPES.shopperPaidMail](claimed!, {
      db: db(),
      sql: db(),
      mail: () => ({ mailer, to: "encomendas@loja.test" }),
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ skipped: "already mailed" });
    expect(await shopperMails(order.externalTransactionId)).toHaveLength(1);
  });
});

/** The sandbox issues a bank reference for the order (the shopper picked that method) and delivers its PEN. */
async function issueReference(externalTransactionId: string, paymentReference: string, entityNumber = "00123") {
  await sandbox.control.call("POST", `/orders/${externalTransactionId}/pending`, { paymentReference, entityNumber });
  await waitFor(async () => {
    const order = await db().order.findUniqueOrThrow({ where: { externalTransactionId } });
    return order.paymentReference === paymentReference;
  });
  await settleAfterTasks();
}

async function waitFor(condition: () => Promise<boolean>) {
  const until = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("timed out waiting for the webhook");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const referenceMails = (externalTransactionId: string) =>
  db().email.findMany({
    where: {
      jobKey: { startsWith: `${JOB_TYPES.shopperReferenceMail}:` },
      AND: { jobKey: { endsWith: externalTransactionId } },
    },
    orderBy: { createdAt: "asc" },
  });

describe("the shopper's bank reference mail", () => {
  it("carries the entity, reference, amount and until when, once, when the service issues a reference", async () => {
    const order = await pendingOrder("referencia@example.com");
    await issueReference(order.externalTransactionId, "987654321");

    const [mail, ...more] = await referenceMails(order.externalTransactionId);
    expect(more).toEqual([]);
    const number = order.externalTransactionId.slice(6, 14).toUpperCase();
    expect(mail).toMatchObject({
      to: "referencia@example.com",
      transport: "outbox",
      subject: `Encomenda ${number}: referência para pagar ${formatAoa(8000)}`,
    });
    const row = await db().order.findUniqueOrThrow({ where: { externalTransactionId: order.externalTransactionId } });
    // The slip's lines, as the pending page shares and saves them.
    const until = new Date(row.createdAt.getTime() + 1440 * 60_000);
    expect(mail!.text).toContain("Entidade: 00123");
    expect(mail!.text).toContain("Referência: 987654321");
    expect(mail!.text).toContain(`Montante: ${formatAoa(8000)}`);
    expect(mail!.text).toContain(`Válida até: ${luandaDayAndTime(until.toISOString(), "pt-AO")} (hora de Luanda)`);
    expect(mail!.text).toContain("não confirma nenhum pagamento");
    expect(mail!.text).toContain(`2 × ${order.productName}`);
    expect(mail!.text).toContain(new URL(`/orders/${order.externalTransactionId}`, process.env.APP_URL).toString());
    // Nothing is paid by it: the order waits, and no paid mail exists.
    expect(row.status).toBe("PEN");
    expect(await shopperMails(order.externalTransactionId)).toEqual([]);

    // The same PEN again (a redelivery) mails nothing more.
    await sandbox.control.call("POST", `/orders/${order.externalTransactionId}/redeliver`, {});
    await sandbox.waitForDeliveries({
      externalTransactionId: order.externalTransactionId,
      state: "delivered",
      count: 2,
    } as Parameters<typeof sandbox.waitForDeliveries>[0]);
    await settleAfterTasks();
    expect(await referenceMails(order.externalTransactionId)).toHaveLength(1);
  });

  it("is not enqueued for an order without an email", async () => {
    const order = await pendingOrder(null);
    await issueReference(order.externalTransactionId, "987654322");
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.filter((j) => j.type === JOB_TYPES.shopperReferenceMail)).toEqual([]);
    expect(await referenceMails(order.externalTransactionId)).toEqual([]);
  });

  it("mails a newer reference again, and a job whose reference was replaced or whose order was paid is skipped", async () => {
    const order = await pendingOrder("skip@example.com");
    await issueReference(order.externalTransactionId, "987654323");
    const first = (await jobsOf(order.externalTransactionId)).find((j) => j.type === JOB_TYPES.shopperReferenceMail)!;
    expect(first).toMatchObject({ status: "DONE" });

    await issueReference(order.externalTransactionId, "987654324", "00456");
    const mails = await referenceMails(order.externalTransactionId);
    expect(mails.map((m) => m.text.match(/Referência: (\d+)/)![1])).toEqual(["987654323", "987654324"]);
    expect(mails[1]!.text).toContain("Entidade: 00456");

    // Run the first job again now: its reference is no longer the order's.
    await db().job.update({ where: { id: first.id }, data: { status: "QUEUED", runAt: new Date(0) } });
    const [claimed] = await claimJobs(db(), { limit: 1, ids: [first.id] });
    const context = {
      db: db(),
      sql: db(),
      mail: () => ({ mailer: createOutboxMailer({ db: db(), log: () => {} }), to: "encomendas@loja.test" }),
      signal: new AbortController().signal,
    };
    await db().email.deleteMany({ where: { jobKey: first.dedupeKey } });
    expect(await jobHandlers[JOB_TYPES.shopperReferenceMail](claimed!, context)).toEqual({
      skipped: "the order has another payment reference",
    });

    // Paid meanwhile (at the bank): the reference mail would mislead.
    await sandbox.control.call("POST", `/orders/${order.externalTransactionId}/confirm`, {});
    await waitFor(
      async () =>
        (await db().order.findUniqueOrThrow({ where: { externalTransactionId: order.externalTransactionId } }))
          .status === "CON",
    );
    await settleAfterTasks();
    await db().job.update({ where: { id: first.id }, data: { status: "QUEUED", runAt: new Date(0) } });
    const [again] = await claimJobs(db(), { limit: 1, ids: [first.id] });
    expect(await jobHandlers[JOB_TYPES.shopperReferenceMail](again!, context)).toEqual({
      skipped: "order is CON, not PEN",
    });
  });
});
