import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { adminOrderDetail } from "@/lib/orders/timeline-admin";
import { adminOrderPage } from "@/lib/orders/order-page-admin";
import { recordCorrection } from "@/lib/orders/refund-corrections-admin";
import { recordRefund } from "@/lib/orders/refunds-admin";
import { db } from "@/lib/db/client";
import { adminRequest, testOwner } from "../../../harness/support/admin";
import { postCreateOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { notification, postWebhook } from "../../../harness/support/webhooks";

// The back office's order page: its timeline (lib/orders/timeline-admin.ts) and its actions
// (lib/http/order-actions.ts through the routes under app/api/admin/orders/[externalTransactionId]),
// against the suite's real database and a sandbox of this file's own (no webhook URL: the
// sandbox's notifications are dropped, so "ask the service" is the only way its news arrives).

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

/** An order created through endpoint A, so the sandbox knows it too. */
async function placeOrder() {
  const product = await insertTestProduct({ stock: 10, priceAoa: 3000 });
  const answer = await postCreateOrder({
    items: [{ productId: product.id, quantity: 2 }],
    customer: { name: "Ana Tchissola", phone: "923 000 111" },
  });
  expect(answer.status).toBe(200);
  const body = answer.body as { externalTransactionId: string; referenceNumber: string };
  return { ...body, product };
}

type Caller = { session?: boolean; crossSite?: boolean; form?: boolean };

/** The page's buttons post an empty form; a JSON client posts nothing. */
const post = (path: string, caller: Caller = {}) =>
  adminRequest(path, { ...caller, form: caller.form ? {} : undefined });

async function askService(externalTransactionId: string, caller?: Caller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/refresh/route");
  return POST(await post(`/api/admin/orders/${externalTransactionId}/refresh`, caller), {
    params: Promise.resolve({ externalTransactionId }),
  });
}

async function retry(externalTransactionId: string, jobId: string, caller?: Caller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/jobs/[jobId]/retry/route");
  return POST(await post(`/api/admin/orders/${externalTransactionId}/jobs/${jobId}/retry`, caller), {
    params: Promise.resolve({ externalTransactionId, jobId }),
  });
}

/** A PARKED job row as a runner leaves one after its last failed attempt. */
async function insertParkedJob(order: { id: string; externalTransactionId: string }, type = "record-invoice") {
  return db().job.create({
    data: {
      type,
      dedupeKey: `${type}:${order.externalTransactionId}`,
      payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
      status: "PARKED",
      attempts: 8,
      maxAttempts: 8,
      lastError: "the database was down",
    },
  });
}

describe("the timeline", () => {
  it("holds created → PEN webhook → CON webhook, its jobs, mail and invoice, in time order", async () => {
    const placed = await placeOrder();
    const id = placed.externalTransactionId;
    const pending = notification(id, "PEN", { paymentReference: "123 456 789", entityNumber: "01055" });
    expect((await postWebhook(pending)).status).toBe(200);
    expect((await postWebhook(notification(id, "CON"))).status).toBe(200);
    await settleAfterTasks();

    const detail = (await adminOrderDetail(db(), id))!;
    expect(detail.order).toMatchObject({
      externalTransactionId: id,
      status: "CON",
      amountAoa: 6000,
      customerName: "Ana Tchissola",
      referenceNumber: placed.referenceNumber,
      paymentReference: "123 456 789",
      finalizedAt: expect.any(Date),
    });
    expect(detail.lines).toEqual([
      { productName: placed.product.name, variantTitle: "", sku: null, quantity: 2, unitPriceAoa: 3000 },
    ]);

    const times = detail.timeline.map((event) => event.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const kinds = detail.timeline.map((event) => event.kind);
    expect(kinds[0]).toBe("created");
    expect(kinds.indexOf("webhook")).toBeLessThan(kinds.lastIndexOf("webhook"));
    expect(kinds.lastIndexOf("webhook")).toBeLessThan(kinds.indexOf("job"));
    // The shopper gave no email: no paid mail to send, so three jobs.
    expect(kinds.filter((kind) => kind === "job")).toHaveLength(3);
    for (const kind of ["finalized", "email", "invoice"]) expect(kinds).toContain(kind);
    expect(kinds).not.toContain("stock_released");

    expect(detail.timeline[0]).toMatchObject({
      kind: "created",
      lines: [{ quantity: 2 }],
      paymentOrder: { kind: "created", referenceNumber: placed.referenceNumber },
    });
    const webhooks = detail.timeline.filter((event) => event.kind === "webhook");
    expect(webhooks.map((event) => [event.paymentStatus, event.outcome])).toEqual([
      ["PEN", "pending_updated"],
      ["CON", "transitioned"],
    ]);
    expect(JSON.parse(webhooks[0]!.rawBody)).toEqual(JSON.parse(pending));
    expect(detail.timeline.find((event) => event.kind === "finalized")).toMatchObject({ status: "CON" });
    expect(detail.jobs.map((job) => [job.type, job.status])).toEqual(
      expect.arrayContaining([
        ["confirmation-mail", "DONE"],
        ["clear-cart", "DONE"],
        ["record-invoice", "DONE"],
      ]),
    );
    const mail = detail.timeline.find((event) => event.kind === "email");
    expect(mail).toMatchObject({ transport: "outbox", subject: expect.stringContaining(id) });
    const invoice = await db().invoice.findUniqueOrThrow({ where: { orderId: detail.order.id } });
    expect(detail.timeline.find((event) => event.kind === "invoice")).toMatchObject({
      number: invoice.number,
      amountAoa: 6000,
    });
  });

  it("is null for an unknown or malformed order id", async () => {
    expect(await adminOrderDetail(db(), `order_${randomUUID()}`)).toBeNull();
    expect(await adminOrderDetail(db(), "order_<script>")).toBeNull();
  });
});

describe("the page as the owner and as staff", () => {
  it("the owner reads the refunds with what remains; staff do not, and both see each refund and correction on the timeline, by name", async () => {
    const owner = await testOwner();
    const order = await insertTestOrder({ status: "CON", quantity: 3 }); // 3 × 2 500
    const id = order.externalTransactionId;
    const refunded = await recordRefund(
      db(),
      id,
      {
        method: "multicaixa_express",
        reference: "MCX-77",
        returns: [
          { variantId: order.variantId, quantity: 1, restock: true },
          { variantId: order.variantId, quantity: 1, restock: false },
        ],
      },
      owner,
    );
    expect(refunded).toMatchObject({ ok: true, refund: { amountAoa: 5_000 } });
    const number = refunded.ok ? refunded.refund.number : 0;
    const corrected = await recordCorrection(db(), id, number, { amountAoa: 1_000, note: "Só 4 000 voltaram." }, owner);
    expect(corrected.ok).toBe(true);

    const asOwner = (await adminOrderPage(db(), id, "owner"))!;
    expect(asOwner.refunds).toMatchObject({
      paidAoa: 7_500,
      refundedAoa: 4_000,
      remainingAoa: 3_500,
      returnsAllowed: true,
      lines: [{ variantId: order.variantId, quantity: 3, returned: 2, returnable: 1 }],
      refunds: [
        {
          number,
          amountAoa: 5_000,
          correctsNumber: null,
          method: "multicaixa_express",
          reference: "MCX-77",
          staffName: owner.name,
          lines: [
            { variantId: order.variantId, quantity: 1, restock: true },
            { variantId: order.variantId, quantity: 1, restock: false },
          ],
        },
        { amountAoa: -1_000, correctsNumber: number, note: "Só 4 000 voltaram.", lines: [] },
      ],
    });

    const asStaff = (await adminOrderPage(db(), id, "staff"))!;
    expect(asStaff.refunds).toBeNull();
    expect(asStaff.timeline).toEqual(asOwner.timeline);
    const refundEvents = asOwner.timeline.filter((event) => event.kind === "refund");
    expect(refundEvents).toMatchObject([
      { number, amountAoa: 5_000, staffName: owner.name, lines: [{ restock: true }, { restock: false }] },
      { correctsNumber: number, amountAoa: -1_000, staffName: owner.name },
    ]);
    // The staff events of the refund and the correction are not listed a second time.
    expect(asOwner.timeline.filter((event) => event.kind === "staff")).toEqual([]);
    expect(await adminOrderPage(db(), `order_${randomUUID()}`, "owner")).toBeNull();
  });

  it("a paid-after-cancel order is refunded without returns; an order never paid has nothing", async () => {
    const cancelled = await insertTestOrder({ status: "CAN" });
    await db().order.update({ where: { id: cancelled.id }, data: { paidAfterCancelAt: new Date() } });
    expect((await adminOrderPage(db(), cancelled.externalTransactionId, "owner"))!.refunds).toMatchObject({
      paidAoa: 5_000,
      remainingAoa: 5_000,
      returnsAllowed: false,
    });
    const pending = await insertTestOrder();
    expect((await adminOrderPage(db(), pending.externalTransactionId, "owner"))!.refunds).toMatchObject({
      paidAoa: 0,
      refunds: [],
    });
  });
});

describe("ask the service now", () => {
  it("applies a CON the sandbox knows, and runs the jobs it enqueued", async () => {
    const placed = await placeOrder();
    const id = placed.externalTransactionId;
    await sandbox.control.call("POST", `/orders/${id}/confirm`, { delivery: "drop" });

    const response = await askService(id, { form: true });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/orders/${id}?done=refreshed`);
    const detail = (await adminOrderDetail(db(), id))!;
    expect(detail.order.status).toBe("CON");
    expect(detail.order.statusCheckedAt).toBeInstanceOf(Date);
    expect(detail.jobs.map((job) => job.status)).toEqual(["DONE", "DONE", "DONE"]);
    expect(detail.timeline.map((event) => event.kind)).toContain("status_checked");

    // Final now: asking again does not apply.
    const again = await askService(id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: "not_pending" } });
  });

  it("answers JSON with the status when the service still says PEN", async () => {
    const placed = await placeOrder();
    const response = await askService(placed.externalTransactionId);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ done: "refreshed", status: "PEN" });
  });

  it("refuses a second ask within the status check's window: one query at a time", async () => {
    const placed = await placeOrder();
    expect((await askService(placed.externalTransactionId)).status).toBe(200);
    const again = await askService(placed.externalTransactionId);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: "checked_recently" } });
  });
});

describe("retry a parked job", () => {
  it("turns a PARKED job DONE, with its attempts counted afresh", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const job = await insertParkedJob(order);

    const response = await retry(order.externalTransactionId, job.id, { form: true });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?done=retried`);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "DONE",
      attempts: 1,
    });
    expect(await db().invoice.count({ where: { orderId: order.id } })).toBe(1);

    // DONE now: another retry does not apply.
    const again = await retry(order.externalTransactionId, job.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: "not_parked" } });
  });

  it("404s for a job of another order, and an unknown job", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const other = await insertTestOrder({ status: "CON" });
    const job = await insertParkedJob(other);
    expect((await retry(order.externalTransactionId, job.id)).status).toBe(404);
    expect((await retry(order.externalTransactionId, randomUUID())).status).toBe(404);
    expect((await retry(order.externalTransactionId, "not-a-uuid")).status).toBe(404);
    expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("PARKED");
  });
});

describe("every action", () => {
  const actions = {
    "ask the service": (id: string, caller?: Caller) => askService(id, caller),
    retry: async (id: string, caller?: Caller) => retry(id, randomUUID(), caller),
  };

  it.each(Object.entries(actions))("%s: 401 without a session, 403 cross-site, 404 unknown", async (_, act) => {
    const order = await insertTestOrder();
    const unauthorized = await act(order.externalTransactionId, { session: false });
    expect(unauthorized.status).toBe(401);
    const crossSite = await act(order.externalTransactionId, { crossSite: true });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: { code: "cross_site" } });
    expect((await act(`order_${randomUUID()}`)).status).toBe(404);
    expect((await act("order_not-an-id")).status).toBe(404);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).statusCheckedAt).toBeNull();
  });
});
