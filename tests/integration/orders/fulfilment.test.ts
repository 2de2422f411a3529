import { afterEach, describe, expect, it, vi } from "vitest";
import { adminOrderDetail } from "@/lib/orders/timeline-admin";
import { db } from "@/lib/db/client";
import { JOB_TYPES } from "@/lib/jobs/job-types";
import { jobsOfOrders } from "@/lib/jobs/queue";
import { changeFulfilment } from "@/lib/orders/fulfilment";
import type { OrderStatus } from "@/lib/orders/state-machine";
import { adminRequest, testOwner, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, jobsOf, newExternalTransactionId } from "../../../harness/support/orders";

// A paid order's fulfilment: the steps through POST
// /api/admin/orders/<externalTransactionId>/fulfilment (lib/orders/fulfilment.ts), what each one
// records (the event, the order's state, the shopper's mail job and mail), and the refusals that
// change nothing. Against the suite's real database (PostgreSQL, or PGlite). Checkout does not
// write the delivery columns in this branch yet, so the orders get them here.

afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const ADDRESS = {
  province: "Luanda",
  municipality: "Maianga",
  neighbourhood: "Alvalade",
  street: "Rua Comandante Gika, 12",
  reference: "Ao lado da farmácia",
};

/** An order of `status` with a delivery (or pickup, or no method) and, unless null, the shopper's email. */
async function orderWith(
  options: { status?: OrderStatus; method?: "delivery" | "pickup" | null; email?: string | null } = {},
) {
  const order = await insertTestOrder({ status: options.status ?? "CON" });
  const method = options.method === undefined ? "delivery" : options.method;
  const email = options.email === undefined ? `cliente-${order.id.slice(0, 8)}@example.com` : options.email;
  await db().order.update({
    where: { id: order.id },
    data: {
      subtotalAoa: order.amountAoa,
      customerEmail: email,
      deliveryMethod: method,
      ...(method === "delivery"
        ? { deliveryZoneName: "Luanda centro", deliveryEstimatedDays: 2, deliveryAddress: ADDRESS }
        : method === "pickup"
          ? {
              pickupPointName: "Loja da Baixa",
              pickupPointAddress: "Largo do Kinaxixi, 3",
              pickupPointHours: "Seg a Sáb, 9h às 18h",
            }
          : {}),
    },
  });
  return { ...order, email };
}

async function postFulfilment(externalTransactionId: string, caller: AdminCaller = {}) {
  const { POST } = await import("@/app/api/admin/orders/[externalTransactionId]/fulfilment/route");
  const response = await POST(await adminRequest(`/api/admin/orders/${externalTransactionId}/fulfilment`, caller), {
    params: Promise.resolve({ externalTransactionId }),
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get("location"),
    body: text ? (JSON.parse(text) as Record<string, any>) : null,
  };
}

/** Everything a step could change about an order: its row, events, jobs and mails. */
async function snapshot(order: { id: string; externalTransactionId: string }) {
  const [row, events, jobs, emails] = await Promise.all([
    db().order.findUniqueOrThrow({ where: { id: order.id } }),
    db().fulfilmentEvent.findMany({ where: { orderId: order.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    jobsOf(order.externalTransactionId),
    db().email.findMany({ where: { jobKey: { endsWith: `:${order.externalTransactionId}` } } }),
  ]);
  return { row, events, jobs, emails };
}

describe("the steps of a delivery", () => {
  it("to prepare → shipped with a note → delivered: an event each, the order's state, a mail each to the shopper", async () => {
    const order = await orderWith({ method: "delivery" });
    const shipped = await postFulfilment(order.externalTransactionId, {
      json: { state: "shipped", note: "  Seguimento: AO-123-456  " },
    });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({
      done: "fulfilment",
      order: { externalTransactionId: order.externalTransactionId, fulfilmentState: "shipped" },
      // The person signed in (the suite's owner) by name.
      event: { state: "shipped", note: "Seguimento: AO-123-456", actor: (await testOwner()).name },
      mailJobId: expect.any(String),
    });
    await settleAfterTasks();

    const delivered = await postFulfilment(order.externalTransactionId, { json: { state: "delivered" } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ order: { fulfilmentState: "delivered" }, event: { note: null } });
    await settleAfterTasks();

    const after = await snapshot(order);
    expect(after.row.fulfilmentState).toBe("delivered");
    expect(after.row.fulfilmentUpdatedAt).toEqual(after.events[1]!.createdAt);
    expect(after.events.map((event) => [event.state, event.note])).toEqual([
      ["shipped", "Seguimento: AO-123-456"],
      ["delivered", null],
    ]);
    expect(
      after.jobs.filter((job) => job.type === "fulfilment-mail").map((job) => [job.dedupeKey, job.status]),
    ).toEqual(
      expect.arrayContaining([
        [`fulfilment-mail:shipped:${order.externalTransactionId}`, "DONE"],
        [`fulfilment-mail:delivered:${order.externalTransactionId}`, "DONE"],
      ]),
    );
    const mails = after.emails.filter((email) => email.jobKey.startsWith("fulfilment-mail:"));
    expect(mails).toHaveLength(2);
    const shippedMail = mails.find((email) => email.jobKey.includes(":shipped:"))!;
    expect(shippedMail).toMatchObject({ to: order.email, transport: "outbox" });
    expect(shippedMail.subject).toMatch(/enviada/);
    expect(shippedMail.text).toContain("Nota da loja: Seguimento: AO-123-456");
    expect(shippedMail.text).toContain("Rua Comandante Gika, 12, Alvalade, Maianga, Luanda (Ao lado da farmácia)");
    expect(shippedMail.text).toContain(`/orders/${order.externalTransactionId}`);
    expect(mails.find((email) => email.jobKey.includes(":delivered:"))!.subject).toMatch(/entregue/);

    // The back office's order page lists both steps and both mail jobs, with who and when.
    const detail = (await adminOrderDetail(db(), order.externalTransactionId))!;
    const steps = detail.timeline.filter((event) => event.kind === "fulfilment");
    expect(steps.map((event) => [event.kind === "fulfilment" && event.state, event.at])).toEqual([
      ["shipped", after.events[0]!.createdAt],
      ["delivered", after.events[1]!.createdAt],
    ]);
    expect(detail.jobs.filter((job) => job.type === "fulfilment-mail")).toHaveLength(2);
    // jobsOfOrders (what runs an order's jobs at once) finds them under each state's key.
    const found = await jobsOfOrders(db(), [JOB_TYPES.fulfilmentMail], [order.externalTransactionId]);
    expect(found.map((job) => job.id).sort()).toEqual(
      after.jobs
        .filter((job) => job.type === "fulfilment-mail")
        .map((job) => job.id)
        .sort(),
    );
    expect(detail.order.nextFulfilmentSteps).toEqual([]);
    expect(detail.order.delivery).toMatchObject({ method: "delivery", address: ADDRESS, fulfilmentState: "delivered" });
  });

  it("a pickup order goes ready for pickup → collected, and is offered only those steps", async () => {
    const order = await orderWith({ method: "pickup" });
    expect((await adminOrderDetail(db(), order.externalTransactionId))!.order.nextFulfilmentSteps).toEqual([
      "ready_for_pickup",
    ]);
    expect((await postFulfilment(order.externalTransactionId, { json: { state: "ready_for_pickup" } })).status).toBe(
      200,
    );
    expect((await adminOrderDetail(db(), order.externalTransactionId))!.order.nextFulfilmentSteps).toEqual([
      "collected",
    ]);
    expect((await postFulfilment(order.externalTransactionId, { json: { state: "collected" } })).status).toBe(200);
    await settleAfterTasks();
    const after = await snapshot(order);
    expect(after.events.map((event) => event.state)).toEqual(["ready_for_pickup", "collected"]);
    const mails = after.emails.filter((email) => email.jobKey.startsWith("fulfilment-mail:"));
    expect(mails.map((email) => email.subject).sort()).toEqual([
      expect.stringMatching(/levantada$/),
      expect.stringMatching(/pronta para levantar$/),
    ]);
    expect(mails[0]!.text).toContain("Levantamento em: Loja da Baixa");
    expect(mails[0]!.text).toContain("Horário: Seg a Sáb, 9h às 18h");
  });

  it("an order from before delivery methods may take either first step, then the one that follows it", async () => {
    const order = await orderWith({ method: null });
    expect((await adminOrderDetail(db(), order.externalTransactionId))!.order.nextFulfilmentSteps).toEqual([
      "shipped",
      "ready_for_pickup",
    ]);
    expect((await postFulfilment(order.externalTransactionId, { json: { state: "ready_for_pickup" } })).status).toBe(
      200,
    );
    const refused = await postFulfilment(order.externalTransactionId, { json: { state: "delivered" } });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: "invalid_transition" } } });
    expect((await postFulfilment(order.externalTransactionId, { json: { state: "collected" } })).status).toBe(200);
  });

  it("without the shopper's email the step is recorded and no mail job is enqueued", async () => {
    const order = await orderWith({ email: null });
    const shipped = await postFulfilment(order.externalTransactionId, { json: { state: "shipped" } });
    expect(shipped).toMatchObject({ status: 200, body: { mailJobId: null } });
    const after = await snapshot(order);
    expect(after.events).toHaveLength(1);
    expect(after.jobs.filter((job) => job.type === "fulfilment-mail")).toEqual([]);
  });

  it("the page's form is answered with a 303 back to the order page and its flash", async () => {
    const order = await orderWith();
    const done = await postFulfilment(order.externalTransactionId, { form: { state: "shipped", note: "" } });
    expect(done).toMatchObject({
      status: 303,
      location: `/admin/orders/${order.externalTransactionId}?done=fulfilment`,
    });
    expect((await snapshot(order)).events.map((event) => [event.state, event.note])).toEqual([["shipped", null]]);
    const refused = await postFulfilment(order.externalTransactionId, { form: { state: "shipped" } });
    expect(refused).toMatchObject({
      status: 303,
      location: `/admin/orders/${order.externalTransactionId}?error=invalid_transition`,
    });
  });
});

describe("refusals change nothing", () => {
  async function expectRefused(
    order: { id: string; externalTransactionId: string },
    caller: AdminCaller,
    status: number,
    code: string,
    message?: RegExp,
  ) {
    const before = await snapshot(order);
    const answer = await postFulfilment(order.externalTransactionId, caller);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ error: { code } });
    if (message) expect(answer.body!.error.message).toMatch(message);
    await settleAfterTasks();
    expect(await snapshot(order)).toEqual(before);
  }

  it("a pending order, a cancelled one and one paid after it was cancelled: 409 order_not_paid", async () => {
    for (const status of ["PEN", "CAN"] as const) {
      const order = await orderWith({ status });
      await expectRefused(order, { json: { state: "shipped" } }, 409, "order_not_paid");
    }
    const paidAfterCancel = await orderWith({ status: "CAN" });
    await db().order.update({
      where: { id: paidAfterCancel.id },
      data: { paidAfterCancelAt: new Date(), attentionReason: "paid_after_cancel", attentionAt: new Date() },
    });
    await expectRefused(paidAfterCancel, { json: { state: "shipped" } }, 409, "order_not_paid");
  });

  it("a step that does not follow the current state or fit the method: 409 invalid_transition", async () => {
    const delivery = await orderWith({ method: "delivery" });
    await expectRefused(delivery, { json: { state: "delivered" } }, 409, "invalid_transition");
    await expectRefused(delivery, { json: { state: "ready_for_pickup" } }, 409, "invalid_transition");
    await expectRefused(delivery, { json: { state: "collected" } }, 409, "invalid_transition");
    const pickup = await orderWith({ method: "pickup" });
    await expectRefused(pickup, { json: { state: "shipped" } }, 409, "invalid_transition");
    expect((await postFulfilment(delivery.externalTransactionId, { json: { state: "shipped" } })).status).toBe(200);
    await settleAfterTasks();
    // The same step again, and going back: refused.
    await expectRefused(delivery, { json: { state: "shipped" } }, 409, "invalid_transition");
    expect((await postFulfilment(delivery.externalTransactionId, { json: { state: "delivered" } })).status).toBe(200);
    await settleAfterTasks();
    await expectRefused(delivery, { json: { state: "shipped" } }, 409, "invalid_transition");
    await expectRefused(delivery, { json: { state: "delivered" } }, 409, "invalid_transition");
  });

  it("a bad body: 400 naming the field", async () => {
    const order = await orderWith();
    await expectRefused(order, { json: {} }, 400, "invalid_fulfilment_state", /^state /);
    await expectRefused(order, { json: { state: "lost" } }, 400, "invalid_fulfilment_state", /^state /);
    await expectRefused(order, { json: { state: "SHIPPED" } }, 400, "invalid_fulfilment_state", /^state /);
    await expectRefused(order, { json: ["shipped"] }, 400, "invalid_fulfilment_state");
    await expectRefused(
      order,
      { json: { state: "shipped", note: "x".repeat(501) } },
      400,
      "invalid_fulfilment_note",
      /^note /,
    );
    await expectRefused(order, { json: { state: "shipped", note: 42 } }, 400, "invalid_fulfilment_note", /^note /);
    await expectRefused(
      order,
      { raw: { body: "{ not json", contentType: "application/json" } },
      400,
      "invalid_fulfilment_state",
    );
    await expectRefused(
      order,
      { raw: { body: "state=shipped", contentType: "text/plain" } },
      400,
      "invalid_fulfilment_state",
    );
    // 500 characters is the most a note holds.
    expect(
      (await postFulfilment(order.externalTransactionId, { json: { state: "shipped", note: "é".repeat(500) } })).status,
    ).toBe(200);
  });

  it("an unknown or malformed order: 404; no session: 401; another site: 403", async () => {
    for (const id of [newExternalTransactionId(), "order_nope", "x"]) {
      const answer = await postFulfilment(id, { json: { state: "shipped" } });
      expect(answer).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    }
    const order = await orderWith();
    await expectRefused(order, { json: { state: "shipped" }, session: false }, 401, "unauthorized");
    await expectRefused(order, { json: { state: "shipped" }, crossSite: true }, 403, "cross_site");
  });
});

describe("concurrent identical steps", () => {
  it("of ten at once exactly one changes the order: one event, one mail job; the others are told the state that won", async () => {
    const order = await orderWith();
    const ana = await testPerson("staff", "Ana");
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        changeFulfilment(db(), order.externalTransactionId, { state: "shipped", note: "uma vez" }, ana),
      ),
    );
    expect(results.filter((result) => result.outcome === "changed")).toHaveLength(1);
    for (const result of results.filter((result) => result.outcome !== "changed"))
      expect(result).toEqual({ outcome: "invalid_transition", current: "shipped", method: "delivery" });
    const after = await snapshot(order);
    expect(after.events).toHaveLength(1);
    expect(after.events[0]).toMatchObject({ actor: "Ana", note: "uma vez" });
    expect(after.jobs.filter((job) => job.type === "fulfilment-mail")).toHaveLength(1);
  });

  it("over HTTP too: one 200, the rest 409", async () => {
    const order = await orderWith({ method: "pickup" });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        postFulfilment(order.externalTransactionId, { json: { state: "ready_for_pickup" } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    await settleAfterTasks();
    const after = await snapshot(order);
    expect(after.events).toHaveLength(1);
    expect(after.emails.filter((email) => email.jobKey.startsWith("fulfilment-mail:"))).toHaveLength(1);
  });
});
