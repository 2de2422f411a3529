import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { randomCredentials } from "../src/credentials.js";
import { offeredMethods } from "../src/routes/browser.js";
import { startTestSandbox, startWebhookReceiver, type TestSandbox, type WebhookReceiver } from "../src/testing.js";

// The browser side over HTTP (contract 4.3, 2.9, 2.10): the SDK script, the hosted checkout
// pages, the popup's pay and cancel endpoints and the dashboard. The real browser runs in
// browser.test.ts.

const credentials = randomCredentials();
let receiver: WebhookReceiver;
let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ secret: credentials.webhookSecret });
  sandbox = await startTestSandbox({ credentials, settings: { webhookUrl: receiver.url } });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
beforeEach(async () => {
  await sandbox.control("POST", "/reset");
  receiver.clear();
  token = await sandbox.accessToken();
});

async function newOrder(changes: Record<string, unknown> = {}) {
  const body = sandbox.orderBody({ amount: 12500, ...changes });
  const answer = await sandbox.createOrder(token, body);
  expect(answer.status).toBe(200);
  return {
    externalTransactionId: body.externalTransactionId as string,
    referenceNumber: answer.body.data.referenceNumber as string,
  };
}

/** The checkout page's path as the SDK builds it; `query` entries replace or (undefined) remove defaults. */
function checkoutPath(referenceNumber: string, query: Record<string, string | undefined> = {}) {
  const params = Object.entries({
    key: credentials.publishableKey,
    paymentConfig: JSON.stringify({ allowedPaymentMethods: ["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"] }),
    origin: "http://localhost:3000",
    ...query,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return `/checkout/${encodeURIComponent(referenceNumber)}?${new URLSearchParams(params)}`;
}

const post = (path: string, body: unknown) =>
  sandbox.call("POST", path, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const orderOf = async (externalTransactionId: string) =>
  (await sandbox.control("GET", `/orders/${externalTransactionId}`)).body.order;

/** The data-method buttons of a checkout page, in order. */
const methodsOn = (html: string) => [...html.matchAll(/data-method="(\w+)"/g)].map((match) => match[1]);

describe("the SDK script", () => {
  it("is served as JavaScript for any origin, with a short cache, and is no service-API call", async () => {
    const answer = await sandbox.call("GET", "/sdks/v1/pay.js");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=60");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.body).toContain("window.Pay = function Pay(publishableKey)");
    expect(await sandbox.requests()).toEqual([expect.objectContaining({ path: "/token" })]);
  });

  it("is a v1 path only: others are 404 and not logged", async () => {
    expect((await sandbox.call("GET", "/sdks/v2/pay.js")).status).toBe(404);
    expect((await sandbox.call("GET", "/checkout/1/2/3")).status).toBe(404);
    expect((await sandbox.requests()).map((entry) => entry.path)).toEqual(["/token"]);
  });
});

describe("GET /checkout/loading", () => {
  it("is a page in the language asked for, pt otherwise", async () => {
    const english = await sandbox.call("GET", "/checkout/loading?lang=en-GB");
    expect(english.status).toBe(200);
    expect(english.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(english.body).toContain('<html lang="en"');
    expect(english.body).toContain("Preparing the payment");
    expect((await sandbox.call("GET", "/checkout/loading")).body).toContain("A preparar o pagamento");
    expect((await sandbox.call("GET", "/checkout/loading?x=1")).status).toBe(400);
  });
});

describe("GET /checkout/:referenceNumber", () => {
  it("shows the order, its amount in kwanza, and pays with each allowed method", async () => {
    const { referenceNumber } = await newOrder();
    const answer = await sandbox.call("GET", checkoutPath(referenceNumber));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(answer.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.body).toContain('<html lang="pt" data-theme="light">');
    expect(answer.body).toContain("Café 1 kg");
    expect(answer.body).toMatch(/data-amount>12\s500\sKz</);
    expect(methodsOn(answer.body)).toEqual(["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"]);
    expect(answer.body).toContain("Cancelar");
    expect(answer.body).toContain('"openerOrigin":"http://localhost:3000"');
  });

  it("always offers FPSOLPG, drops codes it does not know, and honours lang, theme and processing", async () => {
    const { referenceNumber } = await newOrder();
    const paymentConfig = JSON.stringify({
      allowedPaymentMethods: ["FPSOLPGEXT", "NOPE"],
      theme: "dark",
      showUIOfProcessingInfo: true,
      referencePaymentLifeSpan: 30,
      somethingElse: { forwarded: true },
    });
    const answer = await sandbox.call("GET", checkoutPath(referenceNumber, { lang: "en", paymentConfig }));
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<html lang="en" data-theme="dark">');
    expect(methodsOn(answer.body)).toEqual(["FPSOLPGEXT", "FPSOLPG"]);
    expect(answer.body).toContain(">Cancel<");
    expect(answer.body).toContain('"showProcessing":true');
    expect(answer.body).toContain('"referencePaymentLifeSpan":30');
    expect(offeredMethods([])).toEqual(["FPSOLPG"]);
    expect(offeredMethods(undefined)).toEqual(["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"]);
  });

  it("shows the customer and the payment references, escaped", async () => {
    const { referenceNumber } = await newOrder({ name: "<b>Café</b>" });
    const customer = JSON.stringify({ name: "Ana <Silva>", phone: "+244 923 000 000" });
    const references = JSON.stringify([
      {
        referenceNumber: "line_1",
        referenceDescription: 'Chá "verde" & mel',
        referenceAmount: 2500,
        referenceQuantity: 2,
        referenceTotalQuantity: 10,
      },
    ]);
    const answer = await sandbox.call("GET", checkoutPath(referenceNumber, { customer, references }));
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("&#60;b&#62;Café&#60;/b&#62;");
    expect(answer.body).toContain("Ana &#60;Silva&#62; · +244 923 000 000");
    expect(answer.body).toContain("Chá &#34;verde&#34; &#38; mel × 2");
    expect(answer.body).not.toContain("<b>");
  });

  it("refuses an unknown reference (404), another application's key (403) and a final order (409)", async () => {
    expect((await sandbox.call("GET", checkoutPath("999999999"))).status).toBe(404);

    const { referenceNumber, externalTransactionId } = await newOrder();
    const otherKey = await sandbox.call("GET", checkoutPath(referenceNumber, { key: "pk_test_another-app" }));
    expect(otherKey.status).toBe(403);
    expect(otherKey.body).toContain("publishable key");
    expect(otherKey.headers.get("content-security-policy")).toContain("default-src 'none'");

    await sandbox.control("POST", `/orders/${externalTransactionId}/approve`, {});
    const paid = await sandbox.call("GET", checkoutPath(referenceNumber));
    expect(paid.status).toBe(409);
    expect(paid.body).toContain("already CON");
  });

  it.each<[string, Record<string, string | undefined>, string]>([
    ["no key", { key: undefined }, "key"],
    ["a secret for a key", { key: "sk_test_x" }, "key"],
    ["paymentConfig that is not JSON", { paymentConfig: "{" }, "paymentConfig"],
    ["a negative life span", { paymentConfig: JSON.stringify({ referencePaymentLifeSpan: -1 }) }, "paymentConfig"],
    ["a customer without phone", { customer: JSON.stringify({ name: "Ana" }) }, "customer"],
    ["references that are not a list", { references: "{}" }, "references"],
    ["an origin with a path", { origin: "http://localhost:3000/cart" }, "origin"],
    ["an unknown parameter", { returnUrl: "http://x" }, "returnUrl"],
  ])("answers 400 for %s", async (_, query, named) => {
    const { referenceNumber } = await newOrder();
    const answer = await sandbox.call("GET", checkoutPath(referenceNumber, query));
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(named);
  });
});

describe("POST /checkout/:referenceNumber/pay and /cancel", () => {
  /** The one notification of the order, once delivered to the receiver, signature checked. */
  async function deliveredWebhook(externalTransactionId: string, paymentStatus: string) {
    const [delivery] = await sandbox.waitForDeliveries({ externalTransactionId, state: "delivered" });
    expect(delivery).toMatchObject({ paymentStatus, kind: "normal", attempts: [{ status: 200 }] });
    const webhook = receiver.received.find((received) => received.json?.deliveryId === delivery?.id);
    expect(webhook?.signatureValid).toBe(true);
    return webhook?.json.data;
  }

  it("FPMCXEXPRSS approves: CON, a signed webhook, and the approved message for the opener", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    const answer = await post(`/checkout/${referenceNumber}/pay`, { method: "FPMCXEXPRSS" });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toEqual({
      type: "pay:checkout-outcome",
      referenceNumber,
      outcome: "approved",
      payment: {
        orderId: externalTransactionId,
        referenceNumber,
        paymentMethod: "FPMCXEXPRSS",
        amount: 12500,
        status: "CON",
      },
    });
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "CON", paymentMethod: "FPMCXEXPRSS" });
    expect(await deliveredWebhook(externalTransactionId, "CON")).toMatchObject({
      paymentStatus: "CON",
      paymentMethod: "FPMCXEXPRSS",
    });
    // A shopper's browser, not the shop's backend: nothing in the service's request log.
    expect((await sandbox.requests()).map((entry) => entry.path)).toEqual(["/token", "/paypartner/createPaymentOrder"]);
  });

  it("FPSOLPGEXT hands out a reference for referencePaymentLifeSpan minutes: PEN, and the pending message", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    const answer = await post(`/checkout/${referenceNumber}/pay`, {
      method: "FPSOLPGEXT",
      referencePaymentLifeSpan: 30,
    });
    expect(answer.status).toBe(200);
    const order = await orderOf(externalTransactionId);
    expect(order).toMatchObject({ status: "PEN", paymentMethod: "FPSOLPGEXT" });
    expect(order.paymentReference).toMatch(/^\d{9}$/);
    expect(order.entityNumber).toMatch(/^\d{5}$/);
    const lifeSpanMs = Date.parse(order.referenceExpiresAt) - Date.parse(order.updatedAt);
    expect(Math.abs(lifeSpanMs - 30 * 60_000)).toBeLessThan(1000);
    expect(answer.body.message).toMatchObject({
      outcome: "pending",
      payment: {
        orderId: externalTransactionId,
        paymentMethod: "FPSOLPGEXT",
        data: {
          paymentReference: order.paymentReference,
          entity: { number: order.entityNumber },
          expiresAt: order.referenceExpiresAt,
        },
      },
    });
    expect(await deliveredWebhook(externalTransactionId, "PEN")).toMatchObject({
      paymentReference: order.paymentReference,
      entity: { number: order.entityNumber },
    });

    // The reference expires on the sandbox clock after those 30 minutes, not the default 1440.
    await sandbox.control("POST", "/clock", { advanceSeconds: 30 * 60 + 1 });
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "CAN", cancelReason: "expired" });
  });

  it("FPSOLPGEXT without a life span gives the contract's example, 1440 minutes", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    expect((await post(`/checkout/${referenceNumber}/pay`, { method: "FPSOLPGEXT" })).status).toBe(200);
    const order = await orderOf(externalTransactionId);
    const lifeSpanMs = Date.parse(order.referenceExpiresAt) - Date.parse(order.updatedAt);
    expect(Math.abs(lifeSpanMs - 1440 * 60_000)).toBeLessThan(1000);
  });

  it("FPSOLPG confirms by the direct method, even after a reference was handed out", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    await post(`/checkout/${referenceNumber}/pay`, { method: "FPSOLPGEXT" });
    const answer = await post(`/checkout/${referenceNumber}/pay`, { method: "FPSOLPG" });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toMatchObject({
      outcome: "approved",
      payment: { paymentMethod: "FPSOLPG", status: "CON" },
    });
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "CON", paymentMethod: "FPSOLPG" });
    const deliveries = await sandbox.waitForDeliveries({ externalTransactionId, state: "delivered", count: 2 });
    expect(deliveries.map((delivery) => delivery.paymentStatus)).toEqual(["PEN", "CON"]);
  });

  it("cancel: CAN, a signed webhook, and the cancelled message", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    const answer = await post(`/checkout/${referenceNumber}/cancel`, {});
    expect(answer.status).toBe(200);
    expect(answer.body.message).toEqual({ type: "pay:checkout-outcome", referenceNumber, outcome: "cancelled" });
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "CAN", cancelReason: "cancelled" });
    expect(await deliveredWebhook(externalTransactionId, "CAN")).toMatchObject({ paymentStatus: "CAN" });
  });

  it("refuses a final order with 409 and changes nothing", async () => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    await post(`/checkout/${referenceNumber}/cancel`, {});
    const again = await post(`/checkout/${referenceNumber}/pay`, { method: "FPMCXEXPRSS" });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("invalid_transition");
    expect((await post(`/checkout/${referenceNumber}/cancel`, {})).status).toBe(409);
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "CAN" });
  });

  it.each<[string, unknown, number, string]>([
    ["an unknown method", { method: "CASH" }, 400, "method"],
    ["no method", {}, 400, "method"],
    ["an unknown field", { method: "FPSOLPG", returnUrl: "http://x" }, 400, "returnUrl"],
    ["a zero life span", { method: "FPSOLPGEXT", referencePaymentLifeSpan: 0 }, 400, "referencePaymentLifeSpan"],
    ["a body that is not JSON", "method=FPSOLPG", 400, "JSON"],
  ])("answers %s with a clear 4xx and leaves the order PEN", async (_, body, status, named) => {
    const { referenceNumber, externalTransactionId } = await newOrder();
    const answer = await sandbox.call("POST", `/checkout/${referenceNumber}/pay`, {
      headers: { "Content-Type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    expect(answer.status).toBe(status);
    expect(answer.body.message).toContain(named);
    expect(await orderOf(externalTransactionId)).toMatchObject({ status: "PEN" });
  });

  it("takes JSON only (415), and knows no other reference (404)", async () => {
    const { referenceNumber } = await newOrder();
    const form = await sandbox.call("POST", `/checkout/${referenceNumber}/pay`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "method=FPSOLPG",
    });
    expect(form.status).toBe(415);
    expect((await post("/checkout/999999999/pay", { method: "FPSOLPG" })).status).toBe(404);
    expect((await post("/checkout/999999999/cancel", {})).status).toBe(404);
  });
});

describe("GET /__sandbox/dashboard", () => {
  it("is a page whose script and stylesheet come from the sandbox itself", async () => {
    const answer = await sandbox.call("GET", `/__sandbox/dashboard?token=${sandbox.token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(answer.body).toContain('<script src="/__sandbox/dashboard.js" defer>');
    const script = await sandbox.call("GET", "/__sandbox/dashboard.js");
    expect(script.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    const stylesheet = await sandbox.call("GET", "/checkout/assets/pages.css");
    expect(stylesheet.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(sandbox.logLines).toContain(`dashboard at ${sandbox.url}/__sandbox/dashboard?token=${sandbox.token}`);
    // What a browser asks for by itself is no call to the service either.
    expect((await sandbox.call("GET", "/favicon.ico")).status).toBe(204);
    expect((await sandbox.requests()).map((entry) => entry.path)).toEqual(["/token"]);
  });
});
