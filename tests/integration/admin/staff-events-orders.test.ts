import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { adminOrderDetail } from "@/lib/orders/timeline-admin";
import type { Actor } from "@/lib/admin/staff-events";
import { adminRequest, testOwner, testPerson, type AdminCaller } from "../../../harness/support/admin";
import { postCreateOrder } from "../../../harness/support/checkout";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, insertTestProduct, jobsOf, type TestOrder } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";
import { eventsOf, notification, postWebhook } from "../../../harness/support/webhooks";

// Who did what to orders, notifications, promo codes and delivery methods: each change through
// its back-office route writes one staff_events row naming the person signed in, in the change's
// own transaction, and a refused change writes none. Against the suite's real database and a
// sandbox of this file's own (so "ask the service" is the only way its news arrives). Other files
// write events too: each test reads the rows of its own subjects.

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;
let ana: Actor;
let owner: Actor;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
  ana = await testPerson("staff", "Ana");
  owner = await testOwner();
});
afterAll(() => sandbox.close());
afterEach(() => settleAfterTasks());

/** The rows of staff_events about `subject`, oldest first. */
const eventsAbout = (subject: string) =>
  db().staffEvent.findMany({ where: { subject }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

type Caller = Pick<AdminCaller, "session" | "json" | "form">;

async function call<P>(
  route: () => Promise<{ POST: (request: any, context: { params: Promise<P> }) => Promise<Response> }>,
  path: string,
  params: P,
  caller: Caller,
) {
  const { POST } = await route();
  const response = await POST(await adminRequest(path, caller), { params: Promise.resolve(params) });
  const text = await response.text();
  return { status: response.status, body: text && text.startsWith("{") ? JSON.parse(text) : null };
}

const fulfil = (externalTransactionId: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/orders/[externalTransactionId]/fulfilment/route"),
    `/api/admin/orders/${externalTransactionId}/fulfilment`,
    { externalTransactionId },
    caller,
  );
const resolveOrder = (externalTransactionId: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/orders/[externalTransactionId]/resolve/route"),
    `/api/admin/orders/${externalTransactionId}/resolve`,
    { externalTransactionId },
    caller,
  );
const resolveJob = (externalTransactionId: string, jobId: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/orders/[externalTransactionId]/jobs/[jobId]/resolve/route"),
    `/api/admin/orders/${externalTransactionId}/jobs/${jobId}/resolve`,
    { externalTransactionId, jobId },
    caller,
  );
const retryJob = (externalTransactionId: string, jobId: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/orders/[externalTransactionId]/jobs/[jobId]/retry/route"),
    `/api/admin/orders/${externalTransactionId}/jobs/${jobId}/retry`,
    { externalTransactionId, jobId },
    caller,
  );
const askService = (externalTransactionId: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/orders/[externalTransactionId]/refresh/route"),
    `/api/admin/orders/${externalTransactionId}/refresh`,
    { externalTransactionId },
    caller,
  );
const resolveDelivery = (id: string, caller: Caller) =>
  call(
    () => import("@/app/api/admin/webhooks/[id]/resolve/route"),
    `/api/admin/webhooks/${id}/resolve`,
    { id },
    caller,
  );

/** A paid order to deliver, as checkout leaves one. */
async function paidDeliveryOrder(): Promise<TestOrder> {
  const order = await insertTestOrder({ status: "CON" });
  await db().order.update({
    where: { id: order.id },
    data: { subtotalAoa: order.amountAoa, deliveryMethod: "delivery", deliveryZoneName: "Luanda centro" },
  });
  return order;
}

/** A PARKED job of `order`, as a runner leaves one after its last failed attempt. */
const parkedJob = (order: TestOrder) =>
  db().job.create({
    data: {
      type: "record-invoice",
      dedupeKey: `record-invoice:${order.externalTransactionId}`,
      payload: { orderId: order.id, externalTransactionId: order.externalTransactionId },
      status: "PARKED",
      attempts: 8,
      maxAttempts: 8,
      lastError: "the database was down",
    },
  });

/**
 * A trigger of this test's own that refuses the staff_events rows of `subject` (no other test's),
 * so the change recorded with one must fail with it; dropped afterwards.
 */
async function refusingRecordsOf(subject: string, work: () => Promise<void>) {
  const name = `refuse_${randomUUID().replaceAll("-", "")}`;
  await db().$executeRawUnsafe(`
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.subject = '${subject}' THEN RAISE EXCEPTION 'the record of ${subject} is refused'; END IF;
      RETURN NEW;
    END $$`);
  await db().$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE INSERT ON staff_events FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  );
  try {
    await work();
  } finally {
    await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON staff_events`);
    await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  }
}

describe("an order's fulfilment", () => {
  it("by Ana: the step's history names her, one record with the step; a refused step records nothing", async () => {
    const order = await paidDeliveryOrder();
    const subject = `order:${order.externalTransactionId}`;
    // Delivered before shipped does not follow: refused, nothing recorded.
    expect((await fulfil(order.externalTransactionId, { session: ana, json: { state: "delivered" } })).status).toBe(
      409,
    );
    expect(await eventsAbout(subject)).toEqual([]);

    const shipped = await fulfil(order.externalTransactionId, {
      session: ana,
      json: { state: "shipped", note: "Seguimento AO-1" },
    });
    expect(shipped).toMatchObject({ status: 200, body: { event: { actor: "Ana" } } });
    const steps = await db().fulfilmentEvent.findMany({ where: { orderId: order.id } });
    expect(steps.map((step) => [step.state, step.actor])).toEqual([["shipped", "Ana"]]);
    const records = await eventsAbout(subject);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      staffId: ana.id,
      staffName: "Ana",
      kind: "order.fulfilment",
      details: { state: "shipped", note: "Seguimento AO-1" },
    });
    // The same step again is refused: still one record.
    expect((await fulfil(order.externalTransactionId, { session: ana, json: { state: "shipped" } })).status).toBe(409);
    expect(await eventsAbout(subject)).toHaveLength(1);

    // The order's page: "Entrega: … (por Ana)" from the step's own row, and no second entry for it.
    const timeline = (await adminOrderDetail(db(), order.externalTransactionId))!.timeline;
    expect(timeline.filter((event) => event.kind === "fulfilment")).toMatchObject([{ actor: "Ana" }]);
    expect(timeline.filter((event) => event.kind === "staff")).toEqual([]);
  });

  it("is one transaction with its record: a record the database refuses takes the step back with it", async () => {
    const order = await paidDeliveryOrder();
    const subject = `order:${order.externalTransactionId}`;
    await refusingRecordsOf(subject, async () => {
      await expect(fulfil(order.externalTransactionId, { session: ana, json: { state: "shipped" } })).rejects.toThrow(
        /refused/,
      );
    });
    const row = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ fulfilmentState: null, fulfilmentUpdatedAt: null });
    expect(await db().fulfilmentEvent.count({ where: { orderId: order.id } })).toBe(0);
    expect((await jobsOf(order.externalTransactionId)).filter((job) => job.type === "fulfilment-mail")).toEqual([]);
    expect(await eventsAbout(subject)).toEqual([]);

    // Without the trigger the same step goes through, with its record.
    expect((await fulfil(order.externalTransactionId, { session: ana, json: { state: "shipped" } })).status).toBe(200);
    expect(await eventsAbout(subject)).toHaveLength(1);
  });
});

describe("resolving", () => {
  it("an order paid after cancel: recorded with the note, the timeline says who; again: nothing to resolve, nothing recorded", async () => {
    const order = await insertTestOrder({ status: "CAN" });
    expect((await postWebhook(notification(order.externalTransactionId, "CON"))).body.outcome).toBe(
      "paid_after_cancel",
    );
    const subject = `order:${order.externalTransactionId}`;
    // Staff may not resolve (the owner's): 403, nothing recorded.
    expect((await resolveOrder(order.externalTransactionId, { session: ana, json: { note: "x" } })).status).toBe(403);
    expect(await eventsAbout(subject)).toEqual([]);

    const note = "Devolvido por transferência";
    expect((await resolveOrder(order.externalTransactionId, { session: owner, json: { note } })).status).toBe(200);
    expect(await eventsAbout(subject)).toMatchObject([
      { staffId: owner.id, staffName: owner.name, kind: "order.resolve", details: { note } },
    ]);
    expect((await resolveOrder(order.externalTransactionId, { session: owner, json: { note } })).status).toBe(409);
    expect(await eventsAbout(subject)).toHaveLength(1);

    const timeline = (await adminOrderDetail(db(), order.externalTransactionId))!.timeline;
    expect(timeline.find((event) => event.kind === "resolved")).toMatchObject({ note, by: owner.name });
  });

  it("in the same transaction: a refused record leaves the order open", async () => {
    const order = await insertTestOrder({ status: "CAN" });
    await postWebhook(notification(order.externalTransactionId, "CON"));
    await refusingRecordsOf(`order:${order.externalTransactionId}`, async () => {
      await expect(resolveOrder(order.externalTransactionId, { json: { note: "n" } })).rejects.toThrow(/refused/);
    });
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      attentionResolvedAt: null,
      attentionNote: null,
    });
  });

  it("a parked job, and its retry: each recorded under the order; the timeline names the job and the person", async () => {
    const order = await insertTestOrder({ status: "CON" });
    const job = await parkedJob(order);
    const subject = `order:${order.externalTransactionId}`;

    expect((await resolveJob(order.externalTransactionId, randomUUID(), { json: { note: "n" } })).status).toBe(404);
    expect((await resolveJob(order.externalTransactionId, job.id, { json: { note: "" } })).status).toBe(400);
    expect(await eventsAbout(subject)).toEqual([]);

    expect(
      (await resolveJob(order.externalTransactionId, job.id, { json: { note: "Factura feita à mão" } })).status,
    ).toBe(200);
    expect((await retryJob(order.externalTransactionId, job.id, {})).status).toBe(200);
    // DONE now: a retry is refused and records nothing.
    expect((await retryJob(order.externalTransactionId, job.id, {})).status).toBe(409);
    expect(await eventsAbout(subject)).toMatchObject([
      { staffId: owner.id, kind: "order.job_resolve", details: { jobId: job.id, note: "Factura feita à mão" } },
      { staffId: owner.id, kind: "order.job_retry", details: { jobId: job.id } },
    ]);

    const staff = (await adminOrderDetail(db(), order.externalTransactionId))!.timeline.filter(
      (event) => event.kind === "staff",
    );
    expect(staff).toMatchObject([
      { action: "order.job_resolve", by: owner.name, jobType: "record-invoice", note: "Factura feita à mão" },
      { action: "order.job_retry", by: owner.name, jobType: "record-invoice", note: null },
    ]);
  });

  it("a notification that matched no order: recorded under the notification; again, nothing", async () => {
    const externalTransactionId = `order_${randomUUID()}`;
    expect((await postWebhook(notification(externalTransactionId, "CON"))).status).toBe(200);
    const [delivery] = await eventsOf(externalTransactionId);
    const subject = `webhook:${delivery!.id}`;
    expect((await resolveDelivery(delivery!.id, { json: { note: "Teste do serviço" } })).status).toBe(200);
    expect((await resolveDelivery(delivery!.id, { json: { note: "Outra vez" } })).status).toBe(409);
    expect(await eventsAbout(subject)).toMatchObject([
      { staffId: owner.id, kind: "webhook.resolve", details: { note: "Teste do serviço" } },
    ]);
  });
});

describe("asking the service", () => {
  it("records that Ana asked and what the service said; a refused ask records nothing", async () => {
    const product = await insertTestProduct({ stock: 10, priceAoa: 3000 });
    const placed = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name: "Ana Tchissola", phone: "923 000 111" },
    });
    const { externalTransactionId } = placed.body as { externalTransactionId: string };
    const subject = `order:${externalTransactionId}`;

    expect(await askService(externalTransactionId, { session: ana })).toMatchObject({
      status: 200,
      body: { done: "refreshed", status: "PEN" },
    });
    // Within the status check's window: refused.
    expect((await askService(externalTransactionId, { session: ana })).status).toBe(409);
    const records = await eventsAbout(subject);
    expect(records).toMatchObject([
      { staffId: ana.id, staffName: "Ana", kind: "order.refresh", details: { status: "PEN" } },
    ]);
    const { outcome } = records[0]!.details as { outcome: string };
    expect(outcome).toEqual(expect.any(String));

    const staff = (await adminOrderDetail(db(), externalTransactionId))!.timeline.filter(
      (event) => event.kind === "staff",
    );
    expect(staff).toMatchObject([{ action: "order.refresh", by: "Ana", outcome }]);
  });
});

describe("promo codes", () => {
  const create = async (body: unknown, session: Actor = owner) =>
    (await import("@/app/api/admin/promo-codes/route")).POST(
      await adminRequest("/api/admin/promo-codes", { session, json: body }),
    );
  const edit = async (id: string, body: unknown) =>
    (await import("@/app/api/admin/promo-codes/[id]/route")).POST(
      await adminRequest(`/api/admin/promo-codes/${id}`, { json: body }),
      { params: Promise.resolve({ id }) },
    );

  it("a creation and an edit, each with what it set or changed; refusals record nothing", async () => {
    const code = `AUDIT${randomUUID().slice(0, 8).toUpperCase()}`;
    const fields = { code, kind: "percent", value: 10, active: false };
    expect((await create(fields, ana)).status).toBe(403);
    const created = await create(fields);
    expect(created.status).toBe(201);
    const { promoCode } = (await created.json()) as { promoCode: { id: string } };
    const subject = `promo_code:${promoCode.id}`;
    // The same code again: 409, nothing recorded (and no other code).
    expect((await create(fields)).status).toBe(409);
    expect((await edit(promoCode.id, { ...fields, value: 20 })).status).toBe(200);
    expect((await edit(promoCode.id, { ...fields, value: 200 })).status).toBe(400);

    expect(await eventsAbout(subject)).toMatchObject([
      {
        staffId: owner.id,
        kind: "promo_code.create",
        details: { promo: code, kind: "percent", value: 10, active: false, maxUses: null, categories: [] },
      },
      {
        staffId: owner.id,
        kind: "promo_code.update",
        details: { promo: code, changes: { value: { from: 10, to: 20 } } },
      },
    ]);
    expect((await eventsAbout(subject))[1]!.details).toEqual({
      promo: code,
      changes: { value: { from: 10, to: 20 } },
    });
    expect(
      await db().staffEvent.count({ where: { kind: "promo_code.create", details: { path: ["promo"], equals: code } } }),
    ).toBe(1);
  });

  it("in the same transaction: a refused record leaves no code behind", async () => {
    const code = `AUDIT${randomUUID().slice(0, 8).toUpperCase()}`;
    const name = `refuse_${randomUUID().replaceAll("-", "")}`;
    await db().$executeRawUnsafe(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.details->>'promo' = '${code}' THEN RAISE EXCEPTION 'the record of ${code} is refused'; END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE INSERT ON staff_events FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    try {
      await expect(create({ code, kind: "fixed", value: 500, active: false })).rejects.toThrow(/refused/);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON staff_events`);
      await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    }
    expect(await db().promoCode.count({ where: { code } })).toBe(0);
  });
});

describe("delivery zones and pickup points", () => {
  // Turned off: the shop's checkout (other files') never offers them.
  const routes = {
    "delivery-zones": () => import("@/app/api/admin/delivery-zones/route"),
    "delivery-zones/[id]": () => import("@/app/api/admin/delivery-zones/[id]/route"),
    "pickup-points": () => import("@/app/api/admin/pickup-points/route"),
    "pickup-points/[id]": () => import("@/app/api/admin/pickup-points/[id]/route"),
  };
  const post = async (kind: "delivery-zones" | "pickup-points", body: unknown, id?: string) => {
    const request = await adminRequest(`/api/admin/${kind}${id ? `/${id}` : ""}`, { json: body });
    const response = id
      ? await (await routes[`${kind}/[id]`]()).POST(request, { params: Promise.resolve({ id }) })
      : await (await routes[kind]()).POST(request);
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it("a zone created and edited, each recorded; a name taken records nothing", async () => {
    const name = `Zona ${randomUUID().slice(0, 8)}`;
    const created = await post("delivery-zones", { name, feeAoa: 1500, active: false });
    expect(created.status).toBe(201);
    const id = created.body.zone.id as string;
    expect((await post("delivery-zones", { name, feeAoa: 1, active: false })).status).toBe(409);
    expect((await post("delivery-zones", { name, feeAoa: 2000, active: false }, id)).status).toBe(200);
    expect((await post("delivery-zones", { name, feeAoa: -1, active: false }, id)).status).toBe(400);
    expect(await eventsAbout(`delivery_zone:${id}`)).toMatchObject([
      {
        staffId: owner.id,
        kind: "delivery_zone.create",
        details: { name, feeAoa: 1500, active: false, freeFromAoa: null, municipalities: [] },
      },
      { kind: "delivery_zone.update", details: { name, changes: { feeAoa: { from: 1500, to: 2000 } } } },
    ]);
  });

  it("a pickup point created and edited, each recorded; an unknown one records nothing", async () => {
    const name = `Ponto ${randomUUID().slice(0, 8)}`;
    const point = { name, address: "Largo do Kinaxixi, 3", hours: "9h–18h", active: false };
    const created = await post("pickup-points", point);
    expect(created.status).toBe(201);
    const id = created.body.pickupPoint.id as string;
    expect((await post("pickup-points", { ...point, hours: "8h–17h" }, id)).status).toBe(200);
    const unknown = randomUUID();
    expect((await post("pickup-points", point, unknown)).status).toBe(404);
    expect(await eventsAbout(`pickup_point:${unknown}`)).toEqual([]);
    expect(await eventsAbout(`pickup_point:${id}`)).toMatchObject([
      { staffId: owner.id, kind: "pickup_point.create", details: point },
      { kind: "pickup_point.update", details: { name, changes: { hours: { from: "9h–18h", to: "8h–17h" } } } },
    ]);
  });
});
