import { randomBytes } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { MAX_WEBHOOK_BYTES } from "@/lib/orders/receive-webhook";
import { pendingAfterTasks, settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestOrder, jobsOf, newExternalTransactionId } from "../../../harness/support/orders";
import { abortedUpload } from "../../../harness/support/streams";
import { eventsOf, notification, postWebhook, sign, webhookRequest } from "../../../harness/support/webhooks";

// POST /api/pay/webhook (contract 4.2 B, 5.2, 6.1, 7), called as Next calls it, against the
// suite's real database. Every refusal is checked to change nothing.

const orderRow = (id: string) => db().order.findUniqueOrThrow({ where: { id } });

afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

describe("a correctly signed delivery", () => {
  it.each(["hex", "base64"] as const)(
    "CON (%s signature) confirms a PEN order and enqueues its jobs once",
    async (encoding) => {
      const order = await insertTestOrder();
      const response = await postWebhook(notification(order.externalTransactionId, "CON"), encoding);
      expect(response).toEqual({ status: 200, body: { received: true, outcome: "transitioned" } });
      expect((await orderRow(order.id)).status).toBe("CON");
      expect((await jobsOf(order.externalTransactionId)).map((job) => job.type)).toEqual([
        "clear-cart",
        "confirmation-mail",
        "record-invoice",
      ]);
      const [event, ...more] = await eventsOf(order.externalTransactionId);
      expect(more).toEqual([]);
      expect(event).toMatchObject({ outcome: "transitioned", paymentStatus: "CON", orderId: order.id });
      expect(Buffer.from(event!.rawBody).toString()).toBe(notification(order.externalTransactionId, "CON"));
    },
  );

  it("runs the jobs only after the reply: when the handler returns, they are still queued", async () => {
    const order = await insertTestOrder();
    const response = await postWebhook(notification(order.externalTransactionId, "CON"));
    expect(response.status).toBe(200);
    expect(pendingAfterTasks()).toBeGreaterThan(0);
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.status)).toEqual([
      "QUEUED",
      "QUEUED",
      "QUEUED",
    ]);
    await settleAfterTasks();
    expect((await jobsOf(order.externalTransactionId)).map((job) => job.status)).toEqual(["DONE", "DONE", "DONE"]);
    expect(await db().invoice.count({ where: { orderId: order.id } })).toBe(1);
    expect(await db().cart.findUniqueOrThrow({ where: { id: order.cartId } })).toMatchObject({ status: "CHECKED_OUT" });
  });

  it("a hanging job (an SMTP server that never answers) does not delay the reply, and is retried later", async () => {
    const sockets = new Set<Socket>();
    const tarpit = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => tarpit.listen(0, "127.0.0.1", resolve));
    vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${(tarpit.address() as { port: number }).port}`);
    vi.resetModules();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const order = await insertTestOrder();
    const mailJob = async () =>
      (await jobsOf(order.externalTransactionId)).find((job) => job.type === "confirmation-mail")!;
    try {
      const response = await postWebhook(notification(order.externalTransactionId, "CON"));
      expect(response).toEqual({ status: 200, body: { received: true, outcome: "transitioned" } });
      // The reply is out while the mail job is still connected to a server that never greets it.
      await expect.poll(() => sockets.size).toBe(1);
      expect((await mailJob()).status).toBe("RUNNING");
      expect(pendingAfterTasks()).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      tarpit.close();
      await settleAfterTasks();
      vi.unstubAllEnvs();
      vi.resetModules();
    }
    expect(await mailJob()).toMatchObject({ status: "QUEUED", attempts: 1, lastError: expect.any(String) });
    expect((await orderRow(order.id)).status).toBe("CON");
  });

  it("CAN cancels a PEN order; its stock comes back and its cart reopens", async () => {
    const order = await insertTestOrder({ quantity: 3, stockAfterReservation: 7 });
    const response = await postWebhook(notification(order.externalTransactionId, "CAN"));
    expect(response.body.outcome).toBe("transitioned");
    expect((await orderRow(order.id)).status).toBe("CAN");
    await settleAfterTasks();
    expect((await db().product.findUniqueOrThrow({ where: { id: order.productId } })).stock).toBe(10);
    expect(await db().cart.findUniqueOrThrow({ where: { id: order.cartId } })).toMatchObject({ status: "OPEN" });
  });

  it("PEN keeps the order pending and stores its payment reference and entity number", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "PEN", {
      paymentReference: "987 654 321",
      entity: { number: "10116" },
    });
    expect((await postWebhook(body)).body.outcome).toBe("pending_updated");
    expect(await orderRow(order.id)).toMatchObject({
      status: "PEN",
      paymentReference: "987 654 321",
      entityNumber: "10116",
    });
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
  });

  it("finds the order by a top-level externalTransactionId", async () => {
    const order = await insertTestOrder();
    const body = JSON.stringify({ externalTransactionId: order.externalTransactionId, data: { paymentStatus: "CON" } });
    expect((await postWebhook(body)).body.outcome).toBe("transitioned");
    expect((await orderRow(order.id)).status).toBe("CON");
  });

  it("falls back to data.referenceNumber when the id is absent", async () => {
    const order = await insertTestOrder();
    const body = JSON.stringify({ data: { referenceNumber: order.referenceNumber, paymentStatus: "CON" } });
    expect((await postWebhook(body)).body.outcome).toBe("transitioned");
    expect((await orderRow(order.id)).status).toBe("CON");
  });

  it("reads the status case-insensitively and ignores fields it does not know", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, " con ", { surprise: { nested: [1, 2] }, amount: 5000 });
    expect((await postWebhook(body)).body.outcome).toBe("transitioned");
  });

  it("verifies the exact bytes even when they are not what a text round trip would give", async () => {
    const order = await insertTestOrder();
    // Valid JSON whose string escapes would be re-encoded differently by a parse/stringify round trip.
    const body = `{"data":{"externalTransactionId":"${order.externalTransactionId}","paymentStatus":"CON","note":"\\u00e9\\/"}}`;
    expect((await postWebhook(body)).body.outcome).toBe("transitioned");
  });
});

describe("final orders are never reprocessed (contract 3, 6.1, 7)", () => {
  it.each([
    ["CON", "CON"],
    ["CON", "CAN"],
    ["CON", "PEN"],
    ["CAN", "CAN"],
    ["CAN", "PEN"],
  ] as const)("a %s order answers 200 to %s and nothing changes", async (from, to) => {
    const order = await insertTestOrder({ status: from });
    const before = await orderRow(order.id);
    const response = await postWebhook(notification(order.externalTransactionId, to, { paymentReference: "1" }));
    expect(response).toEqual({ status: 200, body: { received: true, outcome: "already_final" } });
    expect(await orderRow(order.id)).toEqual(before);
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
    expect((await eventsOf(order.externalTransactionId)).map((event) => event.outcome)).toEqual(["already_final"]);
  });

  it("a CON for a cancelled order is paid_after_cancel: 200, stays CAN, stock untouched, marked for attention, the mailbox told once", async () => {
    const order = await insertTestOrder();
    await postWebhook(notification(order.externalTransactionId, "CAN"));
    await settleAfterTasks();
    const stockAfterCancel = (await db().product.findUniqueOrThrow({ where: { id: order.productId } })).stock;
    const body = notification(order.externalTransactionId, "CON");
    const responses = await Promise.all(Array.from({ length: 5 }, () => postWebhook(body)));
    expect(responses).toEqual(
      Array.from({ length: 5 }, () => ({ status: 200, body: { received: true, outcome: "paid_after_cancel" } })),
    );
    await settleAfterTasks();
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: "CAN", attentionReason: "paid_after_cancel" });
    expect(row.paidAfterCancelAt).toBeInstanceOf(Date);
    expect(row.attentionAt).toBeInstanceOf(Date);
    expect((await db().product.findUniqueOrThrow({ where: { id: order.productId } })).stock).toBe(stockAfterCancel);
    expect((await eventsOf(order.externalTransactionId)).map((event) => event.outcome).sort()).toEqual([
      ...Array.from({ length: 5 }, () => "paid_after_cancel"),
      "transitioned",
    ]);
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((job) => [job.type, job.status])).toEqual([
      ["paid-after-cancel-mail", "DONE"],
      ["release-stock", "DONE"],
      ["reopen-cart", "DONE"],
    ]);
    const [mail, ...more] = await db().email.findMany({
      where: { jobKey: `paid-after-cancel-mail:${order.externalTransactionId}` },
    });
    expect(more).toEqual([]);
    expect(mail!.subject).toContain("Pago depois de cancelado");
    expect(mail!.text).toContain(order.externalTransactionId);
    expect(mail!.text).toContain("Cumpra-a ou reembolse");
  });

  it("a replayed CON delivery after confirmation changes nothing and enqueues nothing more", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "CON");
    await postWebhook(body);
    await settleAfterTasks();
    const after = await orderRow(order.id);
    const jobs = await jobsOf(order.externalTransactionId);
    for (let i = 0; i < 3; i++) expect((await postWebhook(body)).body.outcome).toBe("already_final");
    expect(await orderRow(order.id)).toEqual(after);
    expect(await jobsOf(order.externalTransactionId)).toEqual(jobs);
  });

  it("50 concurrent duplicate CON deliveries: one transition, one set of jobs, every delivery logged", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "CON");
    const responses = await Promise.all(Array.from({ length: 50 }, () => postWebhook(body)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(responses.filter((response) => response.body.outcome === "transitioned")).toHaveLength(1);
    const events = await eventsOf(order.externalTransactionId);
    expect(events).toHaveLength(50);
    expect(events.filter((event) => event.outcome === "transitioned")).toHaveLength(1);
    await settleAfterTasks();
    const jobs = await jobsOf(order.externalTransactionId);
    expect(jobs.map((job) => [job.type, job.status, job.attempts])).toEqual([
      ["clear-cart", "DONE", 1],
      ["confirmation-mail", "DONE", 1],
      ["record-invoice", "DONE", 1],
    ]);
    expect(await db().invoice.count({ where: { orderId: order.id } })).toBe(1);
    expect(await db().email.count({ where: { jobKey: `confirmation-mail:${order.externalTransactionId}` } })).toBe(1);
  });
});

describe("an unknown order (contract 7)", () => {
  it("answers 200 and keeps the delivery as unmatched", async () => {
    const externalTransactionId = newExternalTransactionId();
    const response = await postWebhook(notification(externalTransactionId, "CON"));
    expect(response).toEqual({ status: 200, body: { received: true, outcome: "unmatched" } });
    const [event] = await eventsOf(externalTransactionId);
    expect(event).toMatchObject({ outcome: "unmatched", orderId: null, paymentStatus: "CON" });
  });
});

describe("refusals change nothing", () => {
  const expectNothingChanged = async (order: Awaited<ReturnType<typeof insertTestOrder>>) => {
    expect(await orderRow(order.id)).toMatchObject({ status: "PEN", finalizedAt: null, paymentReference: null });
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
  };

  it.each<[string, (body: string) => string | null]>([
    ["no signature", () => null],
    ["an empty signature", () => ""],
    ["a wrong signature", () => "0".repeat(64)],
    ["a truncated signature", (body) => sign(body).slice(0, 62)],
    ["an undecodable signature", () => "not-a-signature"],
    ["a signature made with another secret", (body) => sign(body, "hex", "another secret")],
    ["the signature of another body", (body) => sign(`${body} `)],
  ])("401 for %s", async (_, signatureFor) => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "CON");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await postWebhook(body, { header: signatureFor(body) });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("invalid_signature");
    await expectNothingChanged(order);
    expect(await eventsOf(order.externalTransactionId)).toEqual([]);
  });

  it("401 for a repeated signature header, even when one copy is right", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "CON");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { POST } = await import("@/app/api/pay/webhook/route");
    const request = webhookRequest(body);
    request.headers.append("x-pay-content-token", sign(body));
    expect((await POST(request)).status).toBe(401);
    await expectNothingChanged(order);
  });

  it("a flood of forged deliveries is a few log lines, not one each; the next line says how many were left out", async () => {
    vi.resetModules(); // a route module of its own, so its log's minute starts here
    const { POST } = await import("@/app/api/pay/webhook/route");
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const body = notification(newExternalTransactionId(), "CON");
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i += 1)
      statuses.add((await POST(webhookRequest(body, { header: "0".repeat(64) }))).status);
    expect([...statuses]).toEqual([401]);
    const lines = warned.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines).toHaveLength(60);
    expect(lines.every((line) => line.event === "webhook.signature_rejected" && line.reason === "mismatch")).toBe(true);
    // Another minute: its first line counts the 40 held back.
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + 60_000);
    await POST(webhookRequest(body, { header: "0".repeat(64) }));
    expect(JSON.parse(String(warned.mock.calls.at(-1)?.[0]))).toMatchObject({ reason: "mismatch", suppressed: 40 });
  });

  it("401 for a tampered body signed for the original", async () => {
    const order = await insertTestOrder();
    const original = notification(order.externalTransactionId, "CAN");
    const tampered = notification(order.externalTransactionId, "CON");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect((await postWebhook(tampered, { header: sign(original) })).status).toBe(401);
    await expectNothingChanged(order);
  });

  it("413 for a body over the limit, before verifying or parsing it", async () => {
    const order = await insertTestOrder();
    const body = notification(order.externalTransactionId, "CON", { padding: "x".repeat(MAX_WEBHOOK_BYTES) });
    const response = await postWebhook(body, "hex");
    expect(response.status).toBe(413);
    await expectNothingChanged(order);
  });

  it("413 for an oversized streamed body that declares no length", async () => {
    const { POST } = await import("@/app/api/pay/webhook/route");
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
        if (sent > 1024 * 1024) controller.close();
      },
    });
    const request = new Request("http://localhost:3000/api/pay/webhook", {
      method: "POST",
      body: stream,
      headers: { "x-pay-content-token": "0".repeat(64) },
      duplex: "half",
    } as RequestInit);
    expect((await POST(request)).status).toBe(413);
    expect(sent).toBeLessThan(1024 * 1024);
  });

  it("400 for a body that breaks off mid-upload (the client aborted), not a 500", async () => {
    const { POST } = await import("@/app/api/pay/webhook/route");
    const request = new Request("http://localhost:3000/api/pay/webhook", {
      method: "POST",
      body: abortedUpload(),
      headers: { "x-pay-content-token": "0".repeat(64) },
      duplex: "half",
    } as RequestInit);
    const response = await POST(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unreadable_body");
  });

  it("400 for signed malformed JSON; the delivery is kept", async () => {
    const order = await insertTestOrder();
    const body = `{"data":{"externalTransactionId":"${order.externalTransactionId}","paymentStatus":"CON"}`;
    const response = await postWebhook(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("malformed_json");
    await expectNothingChanged(order);
    const event = await db().webhookEvent.findFirst({ where: { rawBody: Buffer.from(body) } });
    expect(event?.outcome).toBe("malformed_json");
  });

  it("400 for a signed body that is not valid UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"data":{"paymentStatus":"CON","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}}'),
    ]);
    const response = await postWebhook(bytes);
    expect(response.status).toBe(400);
  });

  it.each([
    ["an unknown status", (id: string) => notification(id, "PAID")],
    ["no status", (id: string) => JSON.stringify({ data: { externalTransactionId: id } })],
    ["a JSON array", () => "[]"],
    ["a JSON string", () => '"CON"'],
    ["data: null", () => JSON.stringify({ data: null })],
    ["no order id or reference", () => JSON.stringify({ data: { paymentStatus: "CON" } })],
  ])("400 for a signed body with %s", async (_, bodyFor) => {
    const order = await insertTestOrder();
    const response = await postWebhook(bodyFor(order.externalTransactionId));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_payload");
    await expectNothingChanged(order);
  });
});

describe("identifiers the database cannot hold (control characters, or over 200 characters)", () => {
  const long = randomBytes(5_000).toString("hex");
  it.each<[string, (id: string) => string]>([
    ["a NUL in externalTransactionId", (id) => notification(`${id}\u0000`, "CON")],
    ["a very long externalTransactionId", () => notification(`order_${long}`, "CON")],
    ["a NUL in referenceNumber", (id) => notification(id, "CON", { referenceNumber: "123\u0000456" })],
    ["a very long referenceNumber", (id) => notification(id, "CON", { referenceNumber: long })],
    ["a control character in paymentReference", (id) => notification(id, "PEN", { paymentReference: "555\u0007" })],
    ["a NUL in the entity number", (id) => notification(id, "PEN", { entity: { number: "10116\u0000" } })],
  ])("400 invalid_payload for %s; the raw delivery is kept and nothing changes", async (_, bodyFor) => {
    const order = await insertTestOrder();
    const body = bodyFor(order.externalTransactionId);
    const response = await postWebhook(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_payload");
    expect(await orderRow(order.id)).toMatchObject({ status: "PEN", finalizedAt: null, paymentReference: null });
    expect(await jobsOf(order.externalTransactionId)).toEqual([]);
    const event = await db().webhookEvent.findFirst({ where: { rawBody: Buffer.from(body) } });
    expect(event).toMatchObject({ outcome: "invalid_payload", orderId: null });
  });
});

describe("when the delivery cannot be recorded", () => {
  it("answers 503 (so the service retries), never 200, and leaks nothing", async () => {
    vi.stubEnv("DATABASE_URL", "postgresql://postgres:hunter2@127.0.0.1:1/nowhere");
    vi.resetModules();
    const hotReloadCache = globalThis as { shopPrismaClient?: unknown };
    const saved = hotReloadCache.shopPrismaClient;
    hotReloadCache.shopPrismaClient = undefined;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { POST } = await import("@/app/api/pay/webhook/route");
      const response = await POST(webhookRequest(notification(newExternalTransactionId(), "CON")));
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(JSON.parse(text).error.code).toBe("unavailable");
      expect(`${text}${JSON.stringify(logged.mock.calls)}`).not.toContain("hunter2");
    } finally {
      hotReloadCache.shopPrismaClient = saved;
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
