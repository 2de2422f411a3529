import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPayClient, type CreatePaymentOrderInput, type PayClientDeps } from "@/lib/pay/api/client";
import { PayServiceError } from "@/lib/pay/api/errors";
import type { LogFields } from "@/lib/log";
import { startTestSandbox } from "../../../harness/support/sandbox";

// The service client against a real local sandbox over HTTP: the requests it sends are
// checked as the service would see them, from the sandbox's request log.

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let logLines: string[];
let clock: number;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control.reset();
  logLines = [];
  clock = Date.now();
});

const applicationUUID = () => sandbox.credentials.publishableKey.replace(/^pk_test_/, "");

function client(deps: PayClientDeps = {}, overrides: { clientSecret?: string } = {}) {
  return createPayClient(
    {
      apiBaseUrl: sandbox.url,
      clientId: sandbox.credentials.clientId,
      clientSecret: overrides.clientSecret ?? sandbox.credentials.clientSecret,
      applicationUUID: applicationUUID(),
      lang: "pt",
    },
    {
      now: () => clock,
      log: (level, event, fields?: LogFields) => logLines.push(JSON.stringify({ level, event, ...fields })),
      retry: { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 1_000 },
      ...deps,
    },
  );
}

function order(overrides: Partial<CreatePaymentOrderInput> = {}): CreatePaymentOrderInput {
  return {
    externalTransactionId: `order_${randomUUID()}`,
    clientId: `shopper_${randomUUID()}`,
    name: "Café de Angola torrado 1 kg ×2",
    amountAoa: 13_000,
    image: "http://localhost:3000/products/cafe.svg",
    additionalInfo: "2 artigos",
    ...overrides,
  };
}

describe("token request (contract 4.1, 5.1)", () => {
  it("sends Basic credentials and the client-credentials form", async () => {
    await client().createPaymentOrder(order());
    const [token] = await sandbox.control.requests("/token");
    const expectedBasic = Buffer.from(`${sandbox.credentials.clientId}:${sandbox.credentials.clientSecret}`).toString(
      "base64",
    );
    expect(token?.method).toBe("POST");
    expect(token?.headers.authorization).toBe(`Basic ${expectedBasic}`);
    expect(token?.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: "client_credentials",
      validity_period: "3600",
    });
    expect(token?.status).toBe(200);
  });

  it("reuses one token across calls and renews it 60 s before it expires", async () => {
    await sandbox.control.changeSettings({ tokenLifetimeSeconds: 600 });
    const pay = client();
    await pay.createPaymentOrder(order());
    await pay.createPaymentOrder(order());
    clock += (600 - 61) * 1000;
    await pay.createPaymentOrder(order());
    expect(await sandbox.control.requests("/token")).toHaveLength(1);
    clock += 1000;
    await pay.createPaymentOrder(order());
    expect(await sandbox.control.requests("/token")).toHaveLength(2);
    const bearers = new Set(
      (await sandbox.control.requests("/paypartner/createPaymentOrder")).map((r) => r.headers.authorization),
    );
    expect(bearers.size).toBe(2);
  });

  it("asks for one token when many calls start at once", async () => {
    const pay = client();
    await Promise.all(Array.from({ length: 20 }, () => pay.createPaymentOrder(order())));
    expect(await sandbox.control.requests("/token")).toHaveLength(1);
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toHaveLength(20);
  });

  it("drops a refused token and retries once with a new one", async () => {
    const pay = client();
    await pay.createPaymentOrder(order());
    await sandbox.control.revokeTokens();
    const { referenceNumber } = await pay.createPaymentOrder(order());
    expect(referenceNumber).not.toBe("");
    const creates = await sandbox.control.requests("/paypartner/createPaymentOrder");
    expect(creates.map((r) => r.status)).toEqual([200, 401, 200]);
    expect(await sandbox.control.requests("/token")).toHaveLength(2);
  });

  it("fails as rejected, without the secret in the message, when the credentials are wrong", async () => {
    const error = await client({}, { clientSecret: "wrong-secret-value" })
      .createPaymentOrder(order())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayServiceError);
    expect((error as PayServiceError).kind).toBe("rejected");
    expect((error as PayServiceError).httpStatus).toBe(502);
    expect((error as Error).message).toMatch(/PAY_CLIENT_ID and PAY_CLIENT_SECRET/);
    expect((error as Error).message).not.toContain("wrong-secret-value");
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toHaveLength(0);
  });
});

describe("createPaymentOrder (contract 2.2, 4.1)", () => {
  it("sends the bearer token, Accept-Language and every field of 2.2", async () => {
    const input = order();
    const { referenceNumber } = await client().createPaymentOrder(input);
    const [create] = await sandbox.control.requests("/paypartner/createPaymentOrder");
    expect(create?.headers.authorization).toMatch(/^Bearer \S+$/);
    expect(create?.headers["accept-language"]).toBe("pt");
    expect(create?.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(create!.body)).toEqual({
      externalTransactionId: input.externalTransactionId,
      clientId: input.clientId,
      applicationUUID: applicationUUID(),
      name: input.name,
      image: input.image,
      amount: 13_000,
      quantity: 1,
      additionalInfo: input.additionalInfo,
    });
    expect(referenceNumber).toMatch(/\S/);
  });

  it("is idempotent by externalTransactionId, so a retried creation returns the same reference", async () => {
    const pay = client();
    const input = order();
    const first = await pay.createPaymentOrder(input);
    const second = await pay.createPaymentOrder(input);
    expect(second.referenceNumber).toBe(first.referenceNumber);
  });

  it.each([0, -5, 1.5, Number.NaN])("refuses amount %s before sending anything", async (amountAoa) => {
    await expect(client().createPaymentOrder(order({ amountAoa }))).rejects.toThrow(RangeError);
    expect(await sandbox.control.requests()).toHaveLength(0);
  });

  it.each(["500", "503", "429", "timeout", "reset"] as const)("retries after %s and succeeds", async (kind) => {
    await sandbox.control.failNext({ count: 2, kind, path: "/paypartner/createPaymentOrder" });
    const pay = client({ retry: { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 300 } });
    const { referenceNumber } = await pay.createPaymentOrder(order());
    expect(referenceNumber).toMatch(/\S/);
    const creates = await sandbox.control.requests("/paypartner/createPaymentOrder");
    expect(creates).toHaveLength(3);
    expect(creates.filter((r) => r.fault)).toHaveLength(2);
  });

  it("retries a failing token request too", async () => {
    await sandbox.control.failNext({ count: 1, kind: "503", path: "/token" });
    await client().createPaymentOrder(order());
    expect((await sandbox.control.requests("/token")).map((r) => r.status)).toEqual([503, 200]);
  });

  it("honours Retry-After on 429", async () => {
    await sandbox.control.failNext({
      count: 1,
      kind: "429",
      retryAfterSeconds: 2,
      path: "/paypartner/createPaymentOrder",
    });
    const waits: number[] = [];
    await client({ sleep: async (ms) => void waits.push(ms) }).createPaymentOrder(order());
    expect(waits).toEqual([2000]);
  });

  it("gives up after the last attempt with an unavailable error (503)", async () => {
    await sandbox.control.failNext({ count: 10, kind: "500", path: "/paypartner/createPaymentOrder" });
    const error = await client()
      .createPaymentOrder(order())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayServiceError);
    expect((error as PayServiceError).kind).toBe("unavailable");
    expect((error as PayServiceError).httpStatus).toBe(503);
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toHaveLength(4);
  });

  it("does not wait for a Retry-After longer than 10 s", async () => {
    await sandbox.control.failNext({
      count: 1,
      kind: "429",
      retryAfterSeconds: 60,
      path: "/paypartner/createPaymentOrder",
    });
    const error = await client()
      .createPaymentOrder(order())
      .catch((e: unknown) => e);
    expect((error as PayServiceError).kind).toBe("unavailable");
    expect(await sandbox.control.requests("/paypartner/createPaymentOrder")).toHaveLength(1);
  });

  it("keeps tokens and secrets out of every log line", async () => {
    const pay = client();
    await sandbox.control.failNext({ count: 1, kind: "500", path: "/paypartner/createPaymentOrder" });
    await pay.createPaymentOrder(order());
    const bearer = (await sandbox.control.requests("/paypartner/createPaymentOrder"))[0]!.headers.authorization!;
    const token = bearer.replace(/^Bearer /, "");
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      for (const secret of [token, sandbox.credentials.clientSecret, sandbox.credentials.webhookSecret]) {
        expect(line).not.toContain(secret);
      }
      expect(line).not.toMatch(/authorization|bearer|basic/i);
    }
    expect(logLines.some((line) => line.includes('"status":500') && line.includes("requestId"))).toBe(true);
  });
});

describe("createPaymentOrder's referenceNumber", () => {
  it("is refused (502) when the database could not hold it: a control character", async () => {
    const answers = [
      Response.json({ access_token: "token" }),
      Response.json({ data: { referenceNumber: "123\u0000456" } }),
    ];
    const error = await client({ fetch: async () => answers.shift()! })
      .createPaymentOrder(order())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "invalid_response", httpStatus: 502 });
  });
});

describe("paymentByExternalTransaction (contract 4.1, fallback)", () => {
  it("sends both query parameters with the same headers and reads the status", async () => {
    const pay = client();
    const input = order();
    await pay.createPaymentOrder(input);
    expect(await pay.paymentByExternalTransaction(input.externalTransactionId)).toMatchObject({
      found: true,
      status: "PEN",
    });
    await sandbox.control.confirm(input.externalTransactionId);
    expect(await pay.paymentByExternalTransaction(input.externalTransactionId)).toMatchObject({
      found: true,
      status: "CON",
    });

    const [lookup] = await sandbox.control.requests("/paypartner/paymentByExternalTransaction");
    expect(lookup?.query).toEqual({
      externalTransactionId: input.externalTransactionId,
      applicationUUID: applicationUUID(),
    });
    expect(lookup?.headers.authorization).toMatch(/^Bearer /);
    expect(lookup?.headers["accept-language"]).toBe("pt");
  });

  it("reports an order the service does not know as not found", async () => {
    expect(await client().paymentByExternalTransaction(`order_${randomUUID()}`)).toEqual({ found: false });
  });

  /** The sandbox's real answer, with `data` changed on the way back: a service answering about another order. */
  const tampering =
    (change: (data: Record<string, unknown>) => void): typeof fetch =>
    async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes("/paymentByExternalTransaction")) return response;
      const body = (await response.json()) as { data: Record<string, unknown> };
      change(body.data);
      return Response.json(body, { status: response.status });
    };

  it("refuses an answer about another externalTransactionId as an invalid response", async () => {
    const input = order();
    await client().createPaymentOrder(input);
    const pay = client({ fetch: tampering((data) => (data.externalTransactionId = `order_${randomUUID()}`)) });
    const error = await pay.paymentByExternalTransaction(input.externalTransactionId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayServiceError);
    expect(error).toMatchObject({ kind: "invalid_response", httpStatus: 502 });
    expect((error as Error).message).toContain("another externalTransactionId");
  });

  it("refuses an answer carrying another amount when the caller knows the order's, and reads the amount", async () => {
    const input = order();
    await client().createPaymentOrder(input);
    expect(
      await client().paymentByExternalTransaction(input.externalTransactionId, { expectedAmountAoa: input.amountAoa }),
    ).toMatchObject({ found: true, status: "PEN", amountAoa: input.amountAoa });
    const pay = client({ fetch: tampering((data) => (data.amount = input.amountAoa - 1)) });
    const error = await pay
      .paymentByExternalTransaction(input.externalTransactionId, { expectedAmountAoa: input.amountAoa })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "invalid_response" });
    expect((error as Error).message).toContain("another amount");
    // Without an expected amount there is nothing to compare with.
    expect(await pay.paymentByExternalTransaction(input.externalTransactionId)).toMatchObject({ found: true });
  });

  it("follows a per-call retry policy, for the token request it needs too", async () => {
    await sandbox.control.failNext({ count: 10, kind: "503" });
    const error = await client()
      .paymentByExternalTransaction(`order_${randomUUID()}`, { retry: { maxAttempts: 2 } })
      .catch((e: unknown) => e);
    expect((error as PayServiceError).kind).toBe("unavailable");
    expect((await sandbox.control.requests()).map((r) => r.path)).toEqual(["/token", "/token"]);
  });
});
