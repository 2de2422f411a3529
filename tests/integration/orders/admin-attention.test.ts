import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { attentionItems } from "@/lib/orders/attention-admin";
import { CREATION_FAILURE_REASONS } from "@/lib/orders/cancel-reasons";
import { adminOrderDetail } from "@/lib/orders/timeline-admin";
import { db } from "@/lib/db/client";
import { requeueParkedJob } from "@/lib/jobs/queue";
import { adminRequest, type AdminCaller } from "../../../harness/support/admin";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, newExternalTransactionId, type TestOrder } from "../../../harness/support/orders";
import { eventsOf, notification, postWebhook } from "../../../harness/support/webhooks";

// The back office's attention items (lib/orders/attention-admin.ts): what the home lists, and "mark
// resolved" with a note through the routes under app/api/admin, against the suite's real database.
// Other test files write orders too, so lists are checked for what this file made, not for size.

afterEach(() => settleAfterTasks());

const everything = () => attentionItems(db(), 10_000);

async function resolveOrder(externalTransactionId: string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/resolve/route");
  return POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/resolve`, caller), {
    params: Promise.resolve({ externalTransactionId }),
  });
}

async function resolveJob(externalTransactionId: string, jobId: string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/jobs/[jobId]/resolve/route");
  return POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/jobs/${jobId}/resolve`, caller), {
    params: Promise.resolve({ externalTransactionId, jobId }),
  });
}

async function resolveDelivery(id: string, caller: AdminCaller) {
  const { POST } = await import("@/app/api/admin/webhooks/[id]/resolve/route");
  return POST(await adminRequest(`/api/admin/webhooks/${id}/resolve`, caller), { params: Promise.resolve({ id }) });
}

/** A cancelled order that the service then said was paid: raised for attention by the state machine. */
async function paidAfterCancel(): Promise<TestOrder> {
  const order = await insertTestOrder({ status: "CAN" });
  const answer = await postWebhook(notification(order.externalTransactionId, "CON"));
  expect(answer.body.outcome).toBe("paid_after_cancel");
  return order;
}

async function failedCreation(reason = "service_unavailable"): Promise<TestOrder> {
  const order = await insertTestOrder({ status: "CAN" });
  await db().order.update({ where: { id: order.id }, data: { cancelReason: reason, referenceNumber: null } });
  return order;
}

async function parkedJob(order: TestOrder) {
  return db().job.create({
    data: {
      type: "record-invoice",
      dedupeKey: `record-invoice:${order.externalTransactionId}`,
      payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
      status: "PARKED",
      attempts: 8,
      lastError: "the mail server refused the message",
    },
  });
}

/** A correctly signed delivery for an order the shop never had. */
async function unmatchedDelivery() {
  const externalTransactionId = newExternalTransactionId();
  expect((await postWebhook(notification(externalTransactionId, "CON"))).status).toBe(200);
  const [event] = await eventsOf(externalTransactionId);
  expect(event!.outcome).toBe("unmatched");
  return event!;
}

describe("what the home lists", () => {
  it("orders paid after cancel, failed creations, parked jobs and unmatched or unreadable deliveries, each with its link target", async () => {
    const raised = await paidAfterCancel();
    const failed = await failedCreation("service_invalid_response");
    const ordinary = await insertTestOrder({ status: "CAN" });
    const job = await parkedJob(ordinary);
    const unmatched = await unmatchedDelivery();
    const unreadableBody = "{not json";
    expect((await postWebhook(unreadableBody)).status).toBe(400);
    const unreadable = await db().webhookEvent.findFirstOrThrow({
      where: { outcome: "malformed_json" },
      orderBy: { receivedAt: "desc" },
    });

    const attention = await everything();
    expect(attention.raisedOrders.items).toContainEqual(
      expect.objectContaining({ externalTransactionId: raised.externalTransactionId, reason: "paid_after_cancel" }),
    );
    expect(attention.failedCreations.items).toContainEqual(
      expect.objectContaining({
        externalTransactionId: failed.externalTransactionId,
        reason: "service_invalid_response",
      }),
    );
    expect(attention.parkedJobs.items).toContainEqual(
      expect.objectContaining({
        id: job.id,
        type: "record-invoice",
        externalTransactionId: ordinary.externalTransactionId,
        lastError: "the mail server refused the message",
      }),
    );
    const deliveryIds = attention.unmatchedDeliveries.items.map((item) => item.id);
    expect(deliveryIds).toContain(unmatched.id);
    expect(deliveryIds).toContain(unreadable.id);

    // A cancelled order that is neither raised nor a failed creation needs nobody.
    const listed = [...attention.raisedOrders.items, ...attention.failedCreations.items].map(
      (item) => item.externalTransactionId,
    );
    expect(listed).not.toContain(ordinary.externalTransactionId);
    // Each list is newest first, and its total counts what the list leaves out (other files
    // running at the same time may add items between the two queries, never remove any).
    for (const group of Object.values(attention)) {
      const times = group.items.map((item: { at: Date }) => item.at.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(group.total).toBeGreaterThanOrEqual(group.items.length);
    }
    const bounded = await attentionItems(db(), 1);
    expect(bounded.unmatchedDeliveries.items).toHaveLength(1);
    expect(bounded.unmatchedDeliveries.total).toBeGreaterThanOrEqual(attention.unmatchedDeliveries.items.length);
  });

  it("the failed creations' index holds every reason the shop records, and no other", async () => {
    // The list counts every unresolved failed creation from this partial index (migration
    // 20261221000000); a reason added to the code but not to its WHERE would make that count read
    // the whole table, silently.
    const [index] = await db().$queryRaw<{ definition: string }[]>`
      SELECT pg_get_indexdef(to_regclass('orders_failed_creations_idx')) AS definition`;
    const listed = [...(index?.definition ?? "").matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...CREATION_FAILURE_REASONS].sort());
  });
});

describe("mark resolved", () => {
  it("an order paid after cancel: the note is kept, the order leaves the list, its page shows who closed it", async () => {
    const order = await paidAfterCancel();
    const response = await resolveOrder(order.externalTransactionId, {
      form: { note: "  Enviada ao cliente; pagamento confirmado no painel.  " },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?done=resolved`);

    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.attentionNote).toBe("Enviada ao cliente; pagamento confirmado no painel.");
    expect(row.attentionResolvedAt).toBeInstanceOf(Date);
    // What happened is kept: the reason, the instant, the status.
    expect(row).toMatchObject({ attentionReason: "paid_after_cancel", status: "CAN" });
    expect(row.paidAfterCancelAt).toBeInstanceOf(Date);

    const listed = (await everything()).raisedOrders.items.map((item) => item.externalTransactionId);
    expect(listed).not.toContain(order.externalTransactionId);
    const detail = (await adminOrderDetail(db(), order.externalTransactionId))!;
    expect(detail.order.needsAttention).toBe(false);
    // Who closed it, once, after what it closes: the payment recorded after the cancellation.
    // (Not "the last entry": the order's jobs may still be running, and a mail sent a moment
    // later is rightly listed after the resolution.)
    const kinds = detail.timeline.map((event) => event.kind);
    expect(detail.timeline.filter((event) => event.kind === "resolved")).toEqual([
      expect.objectContaining({ kind: "resolved", note: row.attentionNote }),
    ]);
    expect(kinds.indexOf("resolved")).toBeGreaterThan(kinds.indexOf("paid_after_cancel"));
    expect(kinds).toContain("paid_after_cancel");

    // Once resolved there is nothing left to resolve: 409, and the first note stays.
    const again = await resolveOrder(order.externalTransactionId, { json: { note: "outra" } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: "nothing_to_resolve" } });
    const form = await resolveOrder(order.externalTransactionId, { form: { note: "outra" } });
    expect(form.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?error=nothing_to_resolve`);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).attentionNote).toBe(row.attentionNote);
  });

  it("a failed creation leaves the list once resolved (JSON client)", async () => {
    const order = await failedCreation();
    expect((await everything()).failedCreations.items.map((item) => item.externalTransactionId)).toContain(
      order.externalTransactionId,
    );
    const response = await resolveOrder(order.externalTransactionId, { json: { note: "Não existe no serviço." } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: "resolved" });
    expect((await everything()).failedCreations.items.map((item) => item.externalTransactionId)).not.toContain(
      order.externalTransactionId,
    );
  });

  it("an order that needs nobody has nothing to resolve (409), and an unknown one is a 404", async () => {
    const order = await insertTestOrder({ status: "CON" });
    expect((await resolveOrder(order.externalTransactionId, { json: { note: "x" } })).status).toBe(409);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).attentionResolvedAt).toBeNull();
    expect((await resolveOrder(newExternalTransactionId(), { json: { note: "x" } })).status).toBe(404);
    expect((await resolveOrder("order_not-an-id", { form: { note: "x" } })).status).toBe(404);
  });

  it("a note is required, 2000 characters at most: anything else is a 400 (or the form's error) and changes nothing", async () => {
    const order = await paidAfterCancel();
    for (const json of [{}, { note: "" }, { note: "   " }, { note: "x".repeat(2001) }, { note: 42 }, "note"]) {
      const response = await resolveOrder(order.externalTransactionId, { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "invalid_note" } });
    }
    const form = await resolveOrder(order.externalTransactionId, { form: { note: "" } });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?error=invalid_note`);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).attentionResolvedAt).toBeNull();
    // The longest note is accepted whole.
    const longest = "é".repeat(2000);
    expect((await resolveOrder(order.externalTransactionId, { form: { note: longest } })).status).toBe(303);
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).attentionNote).toBe(longest);
  });

  it("a parked job: resolved with its note, and a retry reopens it (should it park again, it needs a person again)", async () => {
    const order = await insertTestOrder({ status: "CAN" });
    const job = await parkedJob(order);
    const response = await resolveJob(order.externalTransactionId, job.id, {
      form: { note: "Factura emitida à mão." },
    });
    expect(response.headers.get("location")).toBe(`/admin/orders/${order.externalTransactionId}?done=resolved`);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "PARKED",
      resolutionNote: "Factura emitida à mão.",
      resolvedAt: expect.any(Date),
    });
    expect((await everything()).parkedJobs.items.map((item) => item.id)).not.toContain(job.id);
    const detail = (await adminOrderDetail(db(), order.externalTransactionId))!;
    expect(detail.jobs.find((row) => row.id === job.id)).toMatchObject({ resolutionNote: "Factura emitida à mão." });

    // Another order's id in the path does not reach this job.
    const other = await insertTestOrder({ status: "CAN" });
    expect((await resolveJob(other.externalTransactionId, job.id, { json: { note: "x" } })).status).toBe(404);

    expect(await requeueParkedJob(db(), { id: job.id, externalTransactionId: order.externalTransactionId })).toBe(
      "requeued",
    );
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "QUEUED",
      resolvedAt: null,
      resolutionNote: null,
    });
    // A job that is not parked has nothing to resolve.
    expect((await resolveJob(order.externalTransactionId, job.id, { json: { note: "x" } })).status).toBe(409);
  });

  it("an unmatched delivery: resolved from its page; a matched one has nothing to resolve", async () => {
    const delivery = await unmatchedDelivery();
    const response = await resolveDelivery(delivery.id, { form: { note: "Encomenda de outra loja." } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/admin/webhooks/${delivery.id}?done=resolved`);
    expect(await db().webhookEvent.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      resolutionNote: "Encomenda de outra loja.",
      resolvedAt: expect.any(Date),
      outcome: "unmatched",
    });
    expect((await everything()).unmatchedDeliveries.items.map((item) => item.id)).not.toContain(delivery.id);

    const order = await insertTestOrder();
    await postWebhook(notification(order.externalTransactionId, "PEN", { paymentReference: "111 222 333" }));
    const [matched] = await eventsOf(order.externalTransactionId);
    expect((await resolveDelivery(matched!.id, { json: { note: "x" } })).status).toBe(409);
    expect((await resolveDelivery(randomUUID(), { json: { note: "x" } })).status).toBe(404);
    expect((await resolveDelivery("not-a-uuid", { form: { note: "x" } })).status).toBe(404);
  });

  it("without a session 401 (the sign-in for the page's form), from another site 403, and nothing changes", async () => {
    const order = await paidAfterCancel();
    const job = await parkedJob(await insertTestOrder({ status: "CAN" }));
    const delivery = await unmatchedDelivery();
    const jobOrder = job.dedupeKey.split(":")[1]!;
    for (const [caller, expected] of [
      [{ session: false, json: { note: "x" } }, 401],
      [{ session: false, form: { note: "x" } }, 303],
      [{ crossSite: true, form: { note: "x" } }, 403],
    ] as const) {
      expect((await resolveOrder(order.externalTransactionId, caller)).status).toBe(expected);
      expect((await resolveJob(jobOrder, job.id, caller)).status).toBe(expected);
      expect((await resolveDelivery(delivery.id, caller)).status).toBe(expected);
    }
    expect((await db().order.findUniqueOrThrow({ where: { id: order.id } })).attentionResolvedAt).toBeNull();
    expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).resolvedAt).toBeNull();
    expect((await db().webhookEvent.findUniqueOrThrow({ where: { id: delivery.id } })).resolvedAt).toBeNull();
  });
});
