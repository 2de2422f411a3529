import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/admin/staff-events";
import { CATALOG_ROUTES } from "@/lib/catalog/cached-pages";
import { db } from "@/lib/db/client";
import { runDueJobs } from "@/lib/jobs/runner";
import { formatAoa } from "@/lib/money";
import { attentionItems } from "@/lib/orders/attention-admin";
import { fulfilAfterCancelShortfall } from "@/lib/orders/fulfil-after-cancel-admin";
import { applyPaymentUpdate } from "@/lib/orders/state-machine";
import { adminRequest, testOwner, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, jobsOf, type TestOrder } from "../../../harness/support/orders";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// The owner's decision on an order paid after the shop had cancelled it: "Reembolsar" (the refund
// route, which closes the attention item in the refund's own transaction) or "Cumprir" (POST
// /api/admin/orders/<id>/fulfil-after-cancel: the units taken again, CAN → CON through the state
// machine with a payment's jobs, the item closed). Against the suite's real database: PostgreSQL
// with DATABASE_URL set, embedded PGlite without it. Each test makes orders and products of its own.

afterEach(() => settleAfterTasks());

// Which cached catalogue pages an action marks stale (lib/catalog/cached-pages.ts): outside Next's
// server revalidatePath has no cache to mark; here it records.
const revalidated = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: (path: string) => void revalidated.paths.push(path),
}));

let owner: Actor;
beforeAll(async () => {
  owner = await testOwner();
});

async function post(route: "refunds" | "fulfil-after-cancel", externalTransactionId: string, caller: AdminCaller = {}) {
  const { POST } =
    route === "refunds"
      ? await import("@/app/api/admin/orders/[externalTransactionId]/refunds/route")
      : await import("@/app/api/admin/orders/[externalTransactionId]/fulfil-after-cancel/route");
  return POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/${route}`, caller), {
    params: Promise.resolve({ externalTransactionId }),
  });
}
const fulfil = (order: TestOrder, caller: AdminCaller = { json: {} }) =>
  post("fulfil-after-cancel", order.externalTransactionId, caller);

const orderRow = (id: string) => db().order.findUniqueOrThrow({ where: { id } });
const stockOf = async (variantId: string) =>
  (await db().productVariant.findUniqueOrThrow({ where: { id: variantId }, select: { stock: true } })).stock;
const eventsOf = (externalTransactionId: string) =>
  db().staffEvent.findMany({ where: { subject: `order:${externalTransactionId}` }, orderBy: { createdAt: "asc" } });
const isListed = async (externalTransactionId: string) =>
  (await attentionItems(db(), 10_000)).raisedOrders.items.some(
    (item) => item.externalTransactionId === externalTransactionId,
  );

/**
 * An order of 2 units, cancelled by the service (its units back on the shelf by the release job)
 * and then paid: raised for attention by the state machine, as the webhook route leaves it.
 */
async function paidAfterCancel(options: { email?: string } = {}): Promise<TestOrder> {
  const order = await insertTestOrder({ stockAfterReservation: 10 });
  if (options.email) await db().order.update({ where: { id: order.id }, data: { customerEmail: options.email } });
  await postWebhook(notification(order.externalTransactionId, "CAN"));
  await settleAfterTasks();
  expect(await stockOf(order.variantId)).toBe(12);
  const answer = await postWebhook(notification(order.externalTransactionId, "CON"));
  expect(answer.body.outcome).toBe("paid_after_cancel");
  await settleAfterTasks();
  return order;
}

describe("Reembolsar from the attention item", () => {
  it("records the refund and closes the item in the refund's own transaction, then the form lands on the order page", async () => {
    const order = await paidAfterCancel();
    expect(await isListed(order.externalTransactionId)).toBe(true);
    // The attention item's form: the whole payment, prefilled, as a browser sends it.
    const response = await post("refunds", order.externalTransactionId, {
      form: {
        amountAoa: String(order.amountAoa),
        method: "multicaixa_express",
        reference: "MCX-77",
        note: "Cliente preferiu o dinheiro.",
      },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      `/admin/orders/${order.externalTransactionId}?refund=refunded#refund`,
    );

    const [refund, ...more] = await db().refund.findMany({ where: { orderId: order.id } });
    expect(more).toEqual([]);
    expect(refund).toMatchObject({
      amountAoa: order.amountAoa,
      method: "multicaixa_express",
      reference: "MCX-77",
      staffId: owner.id,
    });
    const row = await orderRow(order.id);
    expect(row.status).toBe("CAN");
    expect(row.attentionNote).toBe(`Reembolsado: nota ${refund!.number}, ${formatAoa(order.amountAoa)}.`);
    // The same transaction: now() is its start, so the item closed at the refund's own instant.
    expect(row.attentionResolvedAt).toEqual(refund!.createdAt);
    expect(await isListed(order.externalTransactionId)).toBe(false);
    const events = await eventsOf(order.externalTransactionId);
    expect(events.map((event) => [event.kind, event.staffName])).toEqual([["order.refund", owner.name]]);
    expect(events[0]!.createdAt).toEqual(refund!.createdAt);
    // No units came back with it: its stock went back when it was cancelled.
    expect(await stockOf(order.variantId)).toBe(12);
  });

  it("a partial refund closes the item too, says so, and more refunds follow from the order page", async () => {
    const order = await paidAfterCancel();
    const first = await post("refunds", order.externalTransactionId, { json: { amountAoa: 1_000, method: "cash" } });
    expect(first.status).toBe(201);
    const { refund } = await first.json();
    const closed = await orderRow(order.id);
    expect(closed.attentionNote).toBe(
      `Reembolsado em parte: nota ${refund.number}, ${formatAoa(1_000)} de ${formatAoa(order.amountAoa)}.`,
    );
    expect(await isListed(order.externalTransactionId)).toBe(false);

    // The rest, later: recorded, and the closed item keeps its first note.
    const rest = await post("refunds", order.externalTransactionId, { json: { method: "bank_transfer" } });
    expect(rest.status).toBe(201);
    expect((await rest.json()).refund.amountAoa).toBe(order.amountAoa - 1_000);
    const after = await orderRow(order.id);
    expect([after.attentionNote, after.attentionResolvedAt]).toEqual([
      closed.attentionNote,
      closed.attentionResolvedAt,
    ]);
  });

  it("a refused refund leaves the item open", async () => {
    const order = await paidAfterCancel();
    const response = await post("refunds", order.externalTransactionId, {
      form: { amountAoa: String(order.amountAoa + 1), method: "cash" },
    });
    expect(response.headers.get("location")).toBe(
      `/admin/orders/${order.externalTransactionId}?refundError=exceeds_paid&refundField=amountAoa#refund`,
    );
    expect((await orderRow(order.id)).attentionResolvedAt).toBeNull();
    expect(await isListed(order.externalTransactionId)).toBe(true);
  });
});

describe("Cumprir", () => {
  it("takes the units again, moves the order CAN → CON with a payment's jobs once, closes the item and records who", async () => {
    const order = await paidAfterCancel({ email: `ana.${randomUUID().slice(0, 8)}@example.com` });
    const paidAt = (await orderRow(order.id)).paidAfterCancelAt!;
    const jobsBefore = await jobsOf(order.externalTransactionId);
    revalidated.paths = [];

    const response = await fulfil(order);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ done: "fulfilled_after_cancel", stockTaken: true, promoRetaken: false });
    await settleAfterTasks();

    expect(await stockOf(order.variantId)).toBe(10);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({
      status: "CON",
      attentionNote: "Cumprida: o stock foi retirado de novo e a encomenda passou a paga.",
    });
    // Paid when the payment reached the shop: what the figures and the receipt read.
    expect(row.finalizedAt).toEqual(paidAt);
    expect(row.attentionResolvedAt).toBeInstanceOf(Date);
    expect(await isListed(order.externalTransactionId)).toBe(false);

    // The jobs a payment enqueues, each once, run after the answer; the cancellation's stay as they were.
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((job) => [job.type, job.status])).toEqual([
      ["clear-cart", "DONE"],
      ["confirmation-mail", "DONE"],
      ["paid-after-cancel-mail", "DONE"],
      ["record-invoice", "DONE"],
      ["release-stock", "DONE"],
      ["reopen-cart", "DONE"],
      ["shopper-paid-mail", "DONE"],
    ]);
    expect(body.jobIds.sort()).toEqual(
      jobs
        .filter((job) => !jobsBefore.some((before) => before.id === job.id))
        .map((job) => job.id)
        .sort(),
    );
    expect(await db().invoice.count({ where: { orderId: order.id } })).toBe(1);
    for (const type of ["confirmation-mail", "shopper-paid-mail"])
      expect(await db().email.count({ where: { jobKey: `${type}:${order.externalTransactionId}` } })).toBe(1);

    const events = await eventsOf(order.externalTransactionId);
    expect(events.map((event) => [event.kind, event.staffName, event.details])).toEqual([
      ["order.fulfil_after_cancel", owner.name, { amountAoa: order.amountAoa, stockTaken: true, promoRetaken: false }],
    ]);
    // Units taken: the cached catalogue pages are refreshed, as for any stock change.
    expect([...new Set(revalidated.paths)].sort()).toEqual([...CATALOG_ROUTES].sort());
  });

  it("a second Cumprir is 409 already_fulfilled and changes nothing", async () => {
    const order = await paidAfterCancel();
    expect((await fulfil(order)).status).toBe(200);
    await settleAfterTasks();
    const [row, jobs, stock] = [
      await orderRow(order.id),
      await jobsOf(order.externalTransactionId),
      await stockOf(order.variantId),
    ];
    const again = await fulfil(order);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: "already_fulfilled" });
    expect(await orderRow(order.id)).toEqual(row);
    expect(await jobsOf(order.externalTransactionId)).toEqual(jobs);
    expect(await stockOf(order.variantId)).toBe(stock);
    expect((await eventsOf(order.externalTransactionId)).map((event) => event.kind)).toEqual([
      "order.fulfil_after_cancel",
    ]);
  });

  it("is refused with 409 naming what is short when the stock is not there, and changes nothing", async () => {
    const order = await paidAfterCancel();
    await db().productVariant.update({ where: { id: order.variantId }, data: { stock: 1 } });
    const before = await orderRow(order.id);
    const jobs = await jobsOf(order.externalTransactionId);
    const line = await db().orderLine.findFirstOrThrow({ where: { orderId: order.id } });
    expect(await fulfilAfterCancelShortfall(db(), order.externalTransactionId)).toEqual([
      { productName: line.productName, variantTitle: "", needed: 2, inStock: 1 },
    ]);

    const response = await fulfil(order);
    expect(response.status).toBe(409);
    const { error } = await response.json();
    expect(error.code).toBe("stock_short");
    expect(error.message).toContain(`${line.productName} needs 2, 1 in stock`);
    // The page's form goes back to the order with the page's flash.
    const form = await fulfil(order, { form: {} });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?error=stock_short`);

    expect(await orderRow(order.id)).toEqual(before);
    expect(await jobsOf(order.externalTransactionId)).toEqual(jobs);
    expect(await stockOf(order.variantId)).toBe(1);
    expect(await eventsOf(order.externalTransactionId)).toEqual([]);
    expect(await isListed(order.externalTransactionId)).toBe(true);
  });

  it("is refused to staff (403), who still see the item", async () => {
    const order = await paidAfterCancel();
    const staff = await testPerson("staff", "Bento");
    const response = await fulfil(order, { json: {}, session: staff });
    expect(response.status).toBe(403);
    const refund = await post("refunds", order.externalTransactionId, { json: { method: "cash" }, session: staff });
    expect(refund.status).toBe(403);
    expect(await orderRow(order.id)).toMatchObject({ status: "CAN", attentionResolvedAt: null });
    expect(await stockOf(order.variantId)).toBe(12);
    expect(await isListed(order.externalTransactionId)).toBe(true);
  });

  it("is refused once a refund was recorded (the money is going back), and for an order not paid after a cancellation", async () => {
    const refunded = await paidAfterCancel();
    expect(
      (await post("refunds", refunded.externalTransactionId, { json: { amountAoa: 500, method: "cash" } })).status,
    ).toBe(201);
    const afterRefund = await fulfil(refunded);
    expect(afterRefund.status).toBe(409);
    expect((await afterRefund.json()).error.code).toBe("already_refunded");
    expect((await orderRow(refunded.id)).status).toBe("CAN");
    expect(await stockOf(refunded.variantId)).toBe(12);

    for (const status of ["PEN", "CON", "CAN"] as const) {
      const other = await insertTestOrder({ status });
      const answer = await fulfil(other);
      expect(answer.status).toBe(409);
      expect((await answer.json()).error.code).toBe("not_paid_after_cancel");
      expect((await orderRow(other.id)).status).toBe(status);
    }
    expect((await fulfil({ externalTransactionId: `order_${randomUUID()}` } as TestOrder)).status).toBe(404);
  });

  it("counts the promo code's use again: it went back with the units", async () => {
    const order = await insertTestOrder({ stockAfterReservation: 10 });
    const code = await db().promoCode.create({
      data: { code: `PAC${randomUUID().slice(0, 8).toUpperCase()}`, kind: "fixed", value: 100, uses: 1, maxUses: 1 },
    });
    await db().promoRedemption.create({ data: { promoCodeId: code.id, orderId: order.id, discountAoa: 100 } });
    await postWebhook(notification(order.externalTransactionId, "CAN"));
    await settleAfterTasks();
    expect((await db().promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(0);
    await postWebhook(notification(order.externalTransactionId, "CON"));
    await settleAfterTasks();

    const response = await fulfil(order);
    expect(await response.json()).toMatchObject({ stockTaken: true, promoRetaken: true });
    expect((await db().promoCode.findUniqueOrThrow({ where: { id: code.id } })).uses).toBe(1);
    expect(await db().promoRedemption.findUniqueOrThrow({ where: { orderId: order.id } })).toMatchObject({
      releasedAt: null,
    });
  });

  it("units the cancellation never gave back are not taken twice: the release, run later, skips", async () => {
    const order = await insertTestOrder({ stockAfterReservation: 10 });
    const lookup = { externalTransactionId: order.externalTransactionId };
    await applyPaymentUpdate(db(), lookup, { status: "CAN" });
    expect((await applyPaymentUpdate(db(), lookup, { status: "CON" })).outcome).toBe("paid_after_cancel");
    // The release job is still queued: the units are still set aside for the order.
    const release = (await jobsOf(order.externalTransactionId)).find((job) => job.type === "release-stock")!;
    expect(release.status).toBe("QUEUED");

    expect(await (await fulfil(order)).json()).toMatchObject({ stockTaken: false });
    await settleAfterTasks();
    expect((await orderRow(order.id)).attentionNote).toBe(
      "Cumprida: o stock ainda estava reservado e a encomenda passou a paga.",
    );
    await runDueJobs({ ids: [release.id] });
    expect(await stockOf(order.variantId)).toBe(10);
    expect((await orderRow(order.id)).stockReleasedAt).toBeNull();
  });

  it("races a refund of the same order: one of them decides, never both", async () => {
    for (let round = 0; round < 3; round++) {
      const order = await paidAfterCancel();
      const [fulfilled, refunded] = await Promise.all([
        fulfil(order),
        post("refunds", order.externalTransactionId, { json: { amountAoa: 500, method: "cash" } }),
      ]);
      await settleAfterTasks();
      const row = await orderRow(order.id);
      // The refund always goes through (a fulfilled order may be refunded too); Cumprir only when first.
      expect(refunded.status).toBe(201);
      if (fulfilled.status === 200) {
        expect(row.status).toBe("CON");
        expect(row.attentionNote).toMatch(/^Cumprida/);
        expect(await stockOf(order.variantId)).toBe(10);
      } else {
        expect(fulfilled.status).toBe(409);
        expect(row.status).toBe("CAN");
        expect(row.attentionNote).toMatch(/^Reembolsado em parte/);
        expect(await stockOf(order.variantId)).toBe(12);
      }
    }
  });
});
