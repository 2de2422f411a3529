import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { randomCredentials } from "../src/credentials.js";
import type { Delivery } from "../src/delivery-log.js";
import { startTestSandbox, startWebhookReceiver, type TestSandbox, type WebhookReceiver } from "../src/testing.js";

// Signed webhook notifications, sent to a real HTTP receiver: signature, retries, FIFO per
// order, every delivery shape, the long poll, reference expiry and magic amounts. No test
// sleeps: each waits on the sandbox's delivery log.

const credentials = randomCredentials();
let receiver: WebhookReceiver;
let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ secret: credentials.webhookSecret });
  sandbox = await startTestSandbox({
    credentials,
    settings: { webhookUrl: receiver.url, webhookRetryBaseMs: 20, webhookTimeoutMs: 2000 },
  });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
beforeEach(async () => {
  // Also cuts what a previous test left in flight.
  await sandbox.control("POST", "/reset");
  receiver.clear();
  receiver.configure({ encoding: "hex", prefix: false, respond: undefined });
  token = await sandbox.accessToken();
});

async function newOrder(changes: Record<string, unknown> = {}): Promise<string> {
  const body = sandbox.orderBody(changes);
  expect((await sandbox.createOrder(token, body)).status).toBe(200);
  return body.externalTransactionId as string;
}

/** POST /__sandbox/orders/:id/<action>. */
const act = (id: string, action: string, body?: unknown) =>
  sandbox.control("POST", `/orders/${encodeURIComponent(id)}/${action}`, body);

const order = async (id: string) => (await sandbox.control("GET", `/orders/${encodeURIComponent(id)}`)).body.order;

const statusesReceived = () => receiver.received.map((webhook) => webhook.json.data.paymentStatus);

describe("a notification", () => {
  it("is the raw JSON body the log shows, signed with hex HMAC-SHA256 of those bytes", async () => {
    const id = await newOrder();
    const answer = await act(id, "approve");
    expect(answer.status).toBe(200);
    expect(answer.body.order).toMatchObject({ status: "CON", paymentMethod: "FPMCXEXPRSS" });
    const [created] = answer.body.deliveries as Delivery[];
    expect(created).toMatchObject({
      externalTransactionId: id,
      paymentStatus: "CON",
      kind: "normal",
      url: receiver.url,
    });

    const [delivery] = await sandbox.waitForDeliveries({ id: created!.id, state: "delivered" });
    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    expect(webhook!.body).toBe(delivery!.body);
    expect(webhook!.headers["content-type"]).toBe("application/json");
    const expected = createHmac("sha256", credentials.webhookSecret).update(webhook!.body, "utf8").digest("hex");
    expect(webhook!.headers["x-pay-content-token"]).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook!.signatureValid).toBe(true);

    const { referenceNumber, updatedAt } = answer.body.order;
    expect(webhook!.json).toEqual({
      event: "payment.status_changed",
      deliveryId: delivery!.id,
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        externalTransactionId: id,
        referenceNumber,
        paymentStatus: "CON",
        amount: 6500,
        paymentMethod: "FPMCXEXPRSS",
        updatedAt,
      },
    });
    expect(delivery!.attempts).toEqual([
      { at: expect.any(String), status: 200, durationMs: expect.any(Number), responseBody: '{"received":true}' },
    ]);
  });

  it.each([
    { signatureEncoding: "base64", signaturePrefix: false, form: /^[A-Za-z0-9+/]{43}=$/ },
    { signatureEncoding: "hex", signaturePrefix: true, form: /^sha256=[0-9a-f]{64}$/ },
    { signatureEncoding: "base64", signaturePrefix: true, form: /^sha256=[A-Za-z0-9+/]{43}=$/ },
  ] as const)("is signed as $signatureEncoding, prefix $signaturePrefix, when set", async (setting) => {
    const { signatureEncoding, signaturePrefix } = setting;
    await sandbox.control("POST", "/settings", { signatureEncoding, signaturePrefix });
    receiver.configure({ encoding: signatureEncoding, prefix: signaturePrefix });
    const id = await newOrder();
    await act(id, "cancel");
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered" });
    const [webhook] = receiver.received;
    expect(webhook!.headers["x-pay-content-token"]).toMatch(setting.form);
    expect(webhook!.signatureValid).toBe(true);
  });

  it("is recorded as dropped, never sent, when no webhook URL is set", async () => {
    await sandbox.control("POST", "/settings", { webhookUrl: null });
    const id = await newOrder();
    const [delivery] = (await act(id, "approve")).body.deliveries as Delivery[];
    expect(delivery).toMatchObject({ state: "dropped", reason: "no webhook URL", url: null, attempts: [] });
    expect(await sandbox.deliveries({ externalTransactionId: id })).toEqual([delivery]);
  });
});

describe("retries", () => {
  it("retries a non-200 reply with exponential backoff until a 200", async () => {
    await sandbox.control("POST", "/settings", { webhookRetryBaseMs: 60 });
    receiver.configure({ respond: (_webhook, index) => (index < 2 ? 500 : 200) });
    const id = await newOrder();
    await act(id, "approve");
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered" });
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);

    const [first, second, third] = receiver.received;
    expect(new Set(receiver.received.map((webhook) => webhook.body)).size).toBe(1);
    // 60 ms before the second attempt, 120 ms before the third (a millisecond of timer slack).
    expect(second!.arrivedAt - first!.answeredAt!).toBeGreaterThanOrEqual(59);
    expect(third!.arrivedAt - second!.answeredAt!).toBeGreaterThanOrEqual(119);
  });

  it("counts a reply slower than webhookTimeoutMs as failed, cuts it, and retries", async () => {
    await sandbox.control("POST", "/settings", { webhookTimeoutMs: 200 });
    receiver.configure({ respond: (_webhook, index) => (index === 0 ? { status: 200, delayMs: 2000 } : 200) });
    const id = await newOrder();
    await act(id, "approve");
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered" });
    const [slow, retry] = delivery!.attempts;
    expect(slow).toMatchObject({ error: "no reply within 200 ms" });
    expect(slow!.status).toBeUndefined();
    expect(slow!.durationMs).toBeGreaterThanOrEqual(199);
    expect(slow!.durationMs).toBeLessThan(2000);
    expect(retry).toMatchObject({ status: 200 });
    await expect.poll(() => receiver.received[0]?.aborted).toBe(true);
  });

  it("fails the delivery after webhookMaxAttempts", async () => {
    await sandbox.control("POST", "/settings", { webhookMaxAttempts: 3, webhookRetryBaseMs: 5 });
    receiver.configure({ respond: () => 503 });
    const id = await newOrder();
    await act(id, "cancel");
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "failed" });
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([503, 503, 503]);
    expect(delivery!.reason).toBe("no 200 in 3 attempts");
    expect(receiver.received).toHaveLength(3);
  });

  it("records a refused connection as a failed attempt", async () => {
    const closed = await startWebhookReceiver({ secret: credentials.webhookSecret });
    await closed.close();
    await sandbox.control("POST", "/settings", {
      webhookUrl: closed.url,
      webhookMaxAttempts: 2,
      webhookRetryBaseMs: 5,
    });
    const id = await newOrder();
    await act(id, "approve");
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "failed" });
    expect(delivery!.attempts).toHaveLength(2);
    expect(delivery!.attempts[0]!.error).toMatch(/ECONNREFUSED/);
  });
});

describe("order of deliveries", () => {
  it("sends one order's notifications one at a time, oldest first, retries included", async () => {
    receiver.configure({
      respond: (_webhook, index) => (index === 0 ? 500 : index === 1 ? { status: 200, delayMs: 100 } : 200),
    });
    const id = await newOrder();
    await act(id, "pending");
    const confirm = await act(id, "confirm");
    expect(confirm.body.deliveries[0]).toMatchObject({ paymentStatus: "CON", state: "scheduled" });
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered", count: 2 });
    expect(statusesReceived()).toEqual(["PEN", "PEN", "CON"]);
    const [, pen, con] = receiver.received;
    expect(con!.arrivedAt).toBeGreaterThanOrEqual(pen!.answeredAt!);
  });

  it("does not hold one order's notifications behind another's", async () => {
    const stuck = await newOrder();
    const free = await newOrder();
    receiver.configure({ respond: (webhook) => (webhook.json.data.externalTransactionId === stuck ? "hang" : 200) });
    const [held] = (await act(stuck, "approve")).body.deliveries as Delivery[];
    await act(free, "approve");
    await sandbox.waitForDeliveries({ externalTransactionId: free, state: "delivered" });
    expect((await sandbox.deliveries({ id: held!.id }))[0]!.state).toBe("pending");
  });
});

describe("delivery shapes", () => {
  it("drop: records the change's notification as dropped and never sends it; the status query has it", async () => {
    const id = await newOrder();
    const answer = await act(id, "approve", { delivery: "drop" });
    const [dropped] = answer.body.deliveries as Delivery[];
    expect(dropped).toMatchObject({ kind: "normal", state: "dropped", paymentStatus: "CON", attempts: [] });
    expect(dropped!.reason).toMatch(/drop/);
    const query = { externalTransactionId: id, applicationUUID: sandbox.applicationUUID };
    expect((await sandbox.paymentStatus(token, query)).body.data.paymentStatus).toBe("CON");

    // Redelivered later, it is the only notification the receiver ever got: the drop sent nothing.
    const redelivered = (await sandbox.control("POST", `/deliveries/${dropped!.id}/redeliver`)).body.delivery;
    await sandbox.waitForDeliveries({ id: redelivered.id, state: "delivered" });
    expect(receiver.received.map((webhook) => webhook.body)).toEqual([dropped!.body]);
  });

  it("duplicate: sends the same bytes twice, the copy after the original", async () => {
    const id = await newOrder();
    const deliveries = (await act(id, "approve", { delivery: "duplicate" })).body.deliveries as Delivery[];
    expect(deliveries.map((delivery) => delivery.kind)).toEqual(["normal", "duplicate"]);
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered", count: 2 });
    const [original, copy] = receiver.received;
    expect(copy!.body).toBe(original!.body);
    expect(copy!.json.deliveryId).toBe(deliveries[0]!.id);
    expect([original!.signatureValid, copy!.signatureValid]).toEqual([true, true]);
    expect(copy!.arrivedAt).toBeGreaterThanOrEqual(original!.answeredAt!);
  });

  it("bad_signature: a well-formed header that does not verify, attempted once", async () => {
    const id = await newOrder();
    await act(id, "cancel", { delivery: "bad_signature" });
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id });
    expect(delivery).toMatchObject({ kind: "bad_signature", state: "failed", paymentStatus: "CAN" });
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([401]);
    const [webhook] = receiver.received;
    expect(webhook!.headers["x-pay-content-token"]).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook!.signatureValid).toBe(false);
    expect(webhook!.headers["x-pay-content-token"]).toBe(delivery!.signature);
  });

  it("unsigned: no x-pay-content-token at all, attempted once", async () => {
    const id = await newOrder();
    await act(id, "approve", { delivery: "unsigned" });
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id });
    expect(delivery).toMatchObject({ kind: "unsigned", state: "failed" });
    expect(delivery!.signature).toBeUndefined();
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([401]);
    expect(receiver.received[0]!.headers).not.toHaveProperty("x-pay-content-token");
  });

  it("late: waits delaySeconds and lets later notifications of the order overtake it", async () => {
    const id = await newOrder();
    const before = performance.now();
    const pending = await act(id, "pending", { delivery: "late", delaySeconds: 0.3 });
    expect(pending.body.deliveries).toMatchObject([{ kind: "late", state: "scheduled", paymentStatus: "PEN" }]);
    await act(id, "confirm");
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered", count: 2 });
    expect(statusesReceived()).toEqual(["CON", "PEN"]);
    expect(receiver.received[1]!.arrivedAt - before).toBeGreaterThanOrEqual(299);
  });

  it("out_of_order: any status for an order that stays as it is, overtaking its queue", async () => {
    const id = await newOrder();
    receiver.configure({ respond: (_webhook, index) => (index === 0 ? "hang" : 200) });
    const [held] = (await act(id, "approve")).body.deliveries as Delivery[];
    const answer = await act(id, "deliver", { paymentStatus: "PEN" });
    expect(answer.body.order.status).toBe("CON");
    const [stale] = answer.body.deliveries as Delivery[];
    expect(stale).toMatchObject({ kind: "out_of_order", paymentStatus: "PEN" });
    await sandbox.waitForDeliveries({ id: stale!.id, state: "delivered" });
    expect(receiver.received[1]!.json.data).toMatchObject({ externalTransactionId: id, paymentStatus: "PEN" });
    expect(receiver.received[1]!.signatureValid).toBe(true);
    expect((await sandbox.deliveries({ id: held!.id }))[0]!.state).toBe("pending");
    expect((await order(id)).status).toBe("CON");
  });

  it("takes a shape on deliver too: a dropped out-of-order notification", async () => {
    const id = await newOrder();
    const answer = await act(id, "deliver", { paymentStatus: "CAN", delivery: "drop" });
    expect(answer.body.deliveries).toMatchObject([{ kind: "out_of_order", state: "dropped", paymentStatus: "CAN" }]);
    expect((await order(id)).status).toBe("PEN");
  });

  it("redeliver: the same raw body again, signed with the current settings, by delivery or by order", async () => {
    const id = await newOrder();
    const [original] = (await act(id, "approve")).body.deliveries as Delivery[];
    await sandbox.waitForDeliveries({ id: original!.id, state: "delivered" });

    await sandbox.control("POST", "/settings", { signatureEncoding: "base64" });
    receiver.configure({ encoding: "base64" });
    const again = await sandbox.control("POST", `/deliveries/${original!.id}/redeliver`);
    expect(again.body.delivery).toMatchObject({ kind: "redelivery", body: original!.body, paymentStatus: "CON" });
    await sandbox.waitForDeliveries({ id: again.body.delivery.id, state: "delivered" });

    const latest = await act(id, "redeliver");
    expect(latest.body.deliveries).toMatchObject([{ kind: "redelivery", body: original!.body }]);
    await sandbox.waitForDeliveries({ externalTransactionId: id, kind: "redelivery", state: "delivered", count: 2 });

    expect(receiver.received.map((webhook) => webhook.body)).toEqual([original!.body, original!.body, original!.body]);
    expect(receiver.received.every((webhook) => webhook.signatureValid)).toBe(true);
    expect(receiver.received[1]!.headers["x-pay-content-token"]).toMatch(/=$/);

    expect((await sandbox.control("POST", "/deliveries/dlv_missing/redeliver")).status).toBe(404);
    const quiet = await newOrder();
    expect((await act(quiet, "redeliver")).status).toBe(404);
    expect((await act("order_missing", "redeliver")).status).toBe(404);
  });
});

describe("the delivery log", () => {
  it("filters by order, state and kind, shows one delivery, and can be cleared", async () => {
    const a = await newOrder();
    const b = await newOrder();
    await act(a, "approve", { delivery: "drop" });
    await act(b, "cancel");
    await sandbox.waitForDeliveries({ externalTransactionId: b, state: "delivered" });
    expect((await sandbox.deliveries({ externalTransactionId: a })).map((d) => d.state)).toEqual(["dropped"]);
    expect((await sandbox.deliveries({ state: "settled" })).map((d) => d.externalTransactionId)).toEqual([a, b]);
    expect(await sandbox.deliveries({ state: "delivered", kind: "normal" })).toHaveLength(1);
    const [one] = await sandbox.deliveries({ externalTransactionId: b });
    expect((await sandbox.control("GET", `/deliveries/${one!.id}`)).body.delivery).toEqual(one);
    expect((await sandbox.control("GET", "/deliveries/dlv_missing")).status).toBe(404);
    for (const query of ["state=sent", "kind=other", "count=2", "id="]) {
      expect((await sandbox.control("GET", `/deliveries?${query}`)).status, query).toBe(400);
    }
    expect((await sandbox.control("DELETE", "/deliveries")).status).toBe(200);
    expect(await sandbox.deliveries()).toEqual([]);
  });
});

describe("GET /__sandbox/deliveries/wait", () => {
  it("answers as soon as the deliveries reach the state, long before the timeout", async () => {
    receiver.configure({ respond: () => ({ status: 200, delayMs: 100 }) });
    const id = await newOrder();
    const started = performance.now();
    const waiting = sandbox.control(
      "GET",
      `/deliveries/wait?externalTransactionId=${id}&state=delivered&timeoutMs=20000`,
    );
    await act(id, "approve");
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.deliveries).toMatchObject([{ externalTransactionId: id, state: "delivered" }]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("waits for count deliveries", async () => {
    const id = await newOrder();
    const waiting = sandbox.control("GET", `/deliveries/wait?externalTransactionId=${id}&state=delivered&count=2`);
    await act(id, "pending");
    await act(id, "confirm");
    const answer = await waiting;
    expect(answer.body.deliveries.map((d: Delivery) => d.paymentStatus)).toEqual(["PEN", "CON"]);
  });

  it("answers 408 on timeout, with where the deliveries are", async () => {
    receiver.configure({ respond: () => "hang" });
    const id = await newOrder();
    await act(id, "approve");
    const started = performance.now();
    const answer = await sandbox.control("GET", `/deliveries/wait?externalTransactionId=${id}&timeoutMs=150`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({
      error: "timeout",
      deliveries: [{ externalTransactionId: id, state: "pending" }],
    });
    expect(answer.body.message).toMatch(/settled/);
  });

  it.each(["state=pending", "count=0", "timeoutMs=-1", "timeoutMs=999999", "count=x", "colour=red"])(
    "refuses %s with 400",
    async (query) => {
      const answer = await sandbox.control("GET", `/deliveries/wait?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_request");
    },
  );
});

describe("driving orders", () => {
  it("pending: a generated reference and entity, expiring on the sandbox clock, with a PEN notification", async () => {
    const id = await newOrder();
    const { now } = (await sandbox.control("GET", "/clock")).body;
    const answer = await act(id, "pending", { lifeSpanMinutes: 30 });
    const pending = answer.body.order;
    expect(pending).toMatchObject({ status: "PEN", paymentMethod: "FPSOLPGEXT" });
    expect(pending.paymentReference).toMatch(/^[1-9]\d{8}$/);
    expect(pending.entityNumber).toMatch(/^[1-9]\d{4}$/);
    expect(Date.parse(pending.referenceExpiresAt) - now).toBeGreaterThanOrEqual(30 * 60_000);
    expect(Date.parse(pending.referenceExpiresAt) - now).toBeLessThan(30 * 60_000 + 5000);

    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered" });
    expect(JSON.parse(delivery!.body).data).toMatchObject({
      paymentStatus: "PEN",
      paymentMethod: "FPSOLPGEXT",
      paymentReference: pending.paymentReference,
      entity: { number: pending.entityNumber },
    });
    const query = { externalTransactionId: id, applicationUUID: sandbox.applicationUUID };
    expect((await sandbox.paymentStatus(token, query)).body.data).toMatchObject({
      paymentStatus: "PEN",
      paymentMethod: "FPSOLPGEXT",
      paymentReference: pending.paymentReference,
      entity: { number: pending.entityNumber },
    });
  });

  it("pending keeps a given reference and entity; confirm then pays it by that method", async () => {
    const id = await newOrder();
    const pending = await act(id, "pending", {
      paymentReference: "123 456 789",
      entityNumber: "00123",
    });
    expect(pending.body.order).toMatchObject({ paymentReference: "123 456 789", entityNumber: "00123" });
    const confirmed = await act(id, "confirm");
    expect(confirmed.body.order).toMatchObject({
      status: "CON",
      paymentMethod: "FPSOLPGEXT",
      paymentReference: "123 456 789",
    });
  });

  it("confirm without a method so far records the service's direct method", async () => {
    const id = await newOrder();
    expect((await act(id, "confirm")).body.order).toMatchObject({ status: "CON", paymentMethod: "FPSOLPG" });
  });

  it("expires a reference when the clock passes referenceExpiresAt: CAN, with a notification", async () => {
    const id = await newOrder();
    await act(id, "pending", { lifeSpanMinutes: 30 });
    await sandbox.control("POST", "/clock", { advanceSeconds: 29 * 60 });
    expect((await order(id)).status).toBe("PEN");
    await sandbox.control("POST", "/clock", { advanceSeconds: 2 * 60 });
    expect(await order(id)).toMatchObject({ status: "CAN", cancelReason: "expired" });
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered", count: 2 });
    expect(statusesReceived()).toEqual(["PEN", "CAN"]);
    expect((await act(id, "confirm")).status).toBe(409);
  });

  it("expires a reference on its own timer when the base clock passes it", async () => {
    const id = await newOrder();
    await act(id, "pending", { lifeSpanMinutes: 0.005 });
    await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered", count: 2, timeoutMs: 5000 });
    expect(statusesReceived()).toEqual(["PEN", "CAN"]);
    expect(await order(id)).toMatchObject({ status: "CAN", cancelReason: "expired" });
  });

  it("expire and cancel: CAN with their reason", async () => {
    const expired = await newOrder();
    const cancelled = await newOrder();
    expect((await act(expired, "expire")).body.order).toMatchObject({ status: "CAN", cancelReason: "expired" });
    expect((await act(cancelled, "cancel")).body.order).toMatchObject({ status: "CAN", cancelReason: "cancelled" });
  });

  it("refuses every change of a final order with 409 and sends nothing", async () => {
    const id = await newOrder();
    await act(id, "approve", { delivery: "drop" });
    for (const action of ["approve", "pending", "confirm", "cancel", "expire"]) {
      const answer = await act(id, action);
      expect(answer.status, action).toBe(409);
      expect(answer.body.error).toBe("invalid_transition");
    }
    expect(await sandbox.deliveries({ externalTransactionId: id })).toHaveLength(1);
    expect((await act("order_missing", "approve")).status).toBe(404);
  });

  it.each([
    ["approve", { delivery: "sideways" }],
    ["approve", { delaySeconds: 1 }],
    ["cancel", { delivery: "late", delaySeconds: 0 }],
    ["confirm", { extra: true }],
    ["pending", { lifeSpanMinutes: 0 }],
    ["pending", { paymentReference: "" }],
    ["pending", { entityNumber: "   " }],
    ["pending", { entityNumber: 5 }],
    ["deliver", {}],
    ["deliver", { paymentStatus: "PAID" }],
    ["redeliver", { delivery: "normal" }],
  ])("refuses %s with body %j (400)", async (action, body) => {
    const id = await newOrder();
    const answer = await act(id, action, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_request");
    expect((await order(id)).status).toBe("PEN");
  });
});

describe("magic amounts", () => {
  it.each([
    [1001, "CON", { paymentMethod: "FPMCXEXPRSS" }],
    [1002, "CAN", { cancelReason: "cancelled" }],
    [1003, "PEN", { paymentMethod: "FPSOLPGEXT", paymentReference: expect.stringMatching(/^\d{9}$/) }],
  ])("amount %i: the order goes %s by itself, with a notification", async (amount, status, fields) => {
    const id = await newOrder({ amount });
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId: id, state: "delivered" });
    expect(delivery!.paymentStatus).toBe(status);
    const changed = await order(id);
    expect(changed).toMatchObject({ status, ...fields });
    expect(Date.parse(delivery!.createdAt) - Date.parse(changed.createdAt)).toBeGreaterThanOrEqual(150);
  });

  it("leaves other amounts, and orders someone already moved, alone", async () => {
    const plain = await newOrder({ amount: 1004 });
    const moved = await newOrder({ amount: 1002 });
    await act(moved, "approve");
    // Magic timers fire in creation order: once this one has acted, the two above have had their turn.
    const marker = await newOrder({ amount: 1001 });
    await sandbox.waitForDeliveries({ externalTransactionId: marker, state: "delivered" });
    expect(await sandbox.deliveries({ externalTransactionId: plain })).toEqual([]);
    expect((await order(plain)).status).toBe("PEN");
    expect((await order(moved)).status).toBe("CON");
    expect(await sandbox.deliveries({ externalTransactionId: moved })).toHaveLength(1);
  });
});

describe("reset and close", () => {
  it("reset forgets deliveries and cuts the attempt in flight", async () => {
    receiver.configure({ respond: () => "hang" });
    const id = await newOrder();
    await act(id, "approve");
    await expect.poll(() => receiver.received.length).toBe(1);
    await sandbox.control("POST", "/reset");
    expect(await sandbox.deliveries()).toEqual([]);
    await expect.poll(() => receiver.received[0]!.aborted).toBe(true);
  });

  it("close cuts deliveries in flight and answers a long poll at once", async () => {
    const own = await startTestSandbox({ credentials, webhookUrl: receiver.url });
    receiver.configure({ respond: () => "hang" });
    const ownToken = await own.accessToken();
    const body = own.orderBody();
    await own.createOrder(ownToken, body);
    await own.control("POST", `/orders/${body.externalTransactionId}/approve`);
    await expect.poll(() => receiver.received.length).toBe(1);
    const waiting = own.control("GET", "/deliveries/wait?timeoutMs=60000&state=delivered");
    await expect.poll(async () => (await own.deliveries())[0]?.state).toBe("pending");

    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(500);
    expect(await waiting).toMatchObject({ status: 503, body: { error: "closing" } });
    await expect.poll(() => receiver.received[0]!.aborted).toBe(true);
  });

  it("never writes the body, signature or secret to the human log", async () => {
    const id = await newOrder({ name: "secret-looking-name" });
    const [delivery] = (await act(id, "approve")).body.deliveries as Delivery[];
    await sandbox.waitForDeliveries({ id: delivery!.id });
    const lines = sandbox.logLines.filter((line) => line.includes(delivery!.id));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of sandbox.logLines) {
      for (const secret of [credentials.webhookSecret, delivery!.signature!, "secret-looking-name", delivery!.body]) {
        expect(line).not.toContain(secret);
      }
    }
  });
});
