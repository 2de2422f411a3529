import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../src/testing.js";

// The service API over real HTTP: every rule of contract 4.1 and 5.1 the sandbox enforces.

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control("POST", "/reset");
  token = await sandbox.accessToken();
});

const orders = async () => (await sandbox.control("GET", "/orders")).body.orders as unknown[];

describe("POST /token", () => {
  it("issues an opaque bearer token for the client-credentials grant", async () => {
    const answer = await sandbox.requestToken();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      token_type: "Bearer",
      expires_in: 3600,
    });
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("issues a different token each time", async () => {
    expect(await sandbox.accessToken()).not.toBe(await sandbox.accessToken());
  });

  it("grants the requested validity_period when it is shorter than the sandbox's limit", async () => {
    const answer = await sandbox.requestToken({ grant_type: "client_credentials", validity_period: "120" });
    expect(answer.body.expires_in).toBe(120);
  });

  it("caps expires_in at the tokenLifetimeSeconds setting", async () => {
    await sandbox.control("POST", "/settings", { tokenLifetimeSeconds: 600 });
    expect((await sandbox.requestToken()).body.expires_in).toBe(600);
  });

  it.each([
    ["no Authorization header", undefined],
    ["a wrong secret", `Basic ${Buffer.from("x:y").toString("base64")}`],
    ["a Bearer scheme", "Bearer abc"],
    ["base64 without a colon", `Basic ${Buffer.from("nocolon").toString("base64")}`],
    ["broken base64", "Basic %%%"],
  ])("answers 401 invalid_client for %s", async (_, authorization) => {
    const answer = await sandbox.requestToken(undefined, { Authorization: authorization });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("invalid_client");
    expect(answer.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("refuses the right client id with the wrong secret", async () => {
    const basic = Buffer.from(`${sandbox.credentials.clientId}:wrong`).toString("base64");
    expect((await sandbox.requestToken(undefined, { Authorization: `Basic ${basic}` })).status).toBe(401);
  });

  it("answers 415 to a JSON body", async () => {
    const answer = await sandbox.requestToken(undefined, { "Content-Type": "application/json" });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ error: "unsupported_media_type", message: expect.stringContaining("Content-Type") });
  });

  it("accepts a charset parameter on the form content type", async () => {
    const answer = await sandbox.requestToken(undefined, {
      "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
    });
    expect(answer.status).toBe(200);
  });

  it.each<Record<string, string>>([{ grant_type: "password", validity_period: "3600" }, { validity_period: "3600" }])(
    "answers 400 unsupported_grant_type to %j",
    async (form) => {
      const answer = await sandbox.requestToken(form);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("unsupported_grant_type");
    },
  );

  it.each(["", "0", "-5", "1.5", "abc", "3600s"])(
    "answers 400 invalid_request to validity_period %j",
    async (validityPeriod) => {
      const answer = await sandbox.requestToken({ grant_type: "client_credentials", validity_period: validityPeriod });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: "invalid_request", message: expect.stringContaining("validity_period") });
    },
  );

  it("answers 400 when validity_period is missing", async () => {
    const answer = await sandbox.requestToken({ grant_type: "client_credentials" });
    expect(answer.body.error).toBe("invalid_request");
  });
});

describe("bearer token on partner endpoints", () => {
  it("refuses a missing, malformed or unknown token with 401 invalid_token", async () => {
    for (const authorization of [undefined, `Basic ${token}`, "Bearer", "Bearer not-a-token"]) {
      const answer = await sandbox.createOrder(token, sandbox.orderBody(), { Authorization: authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.body.error).toBe("invalid_token");
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
    expect(await orders()).toEqual([]);
  });

  it("expires a token when the sandbox clock passes its lifetime", async () => {
    const shortLived = (await sandbox.requestToken({ grant_type: "client_credentials", validity_period: "60" })).body
      .access_token;
    await sandbox.control("POST", "/clock", { advanceSeconds: 59 });
    expect((await sandbox.createOrder(shortLived, sandbox.orderBody())).status).toBe(200);
    await sandbox.control("POST", "/clock", { advanceSeconds: 1 });
    const answer = await sandbox.createOrder(shortLived, sandbox.orderBody());
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/expired/);
  });

  it("refuses every token issued before a revocation, and accepts new ones", async () => {
    await sandbox.control("POST", "/tokens/revoke");
    expect((await sandbox.createOrder(token, sandbox.orderBody())).status).toBe(401);
    expect((await sandbox.createOrder(await sandbox.accessToken(), sandbox.orderBody())).status).toBe(200);
  });
});

describe("POST /paypartner/createPaymentOrder", () => {
  it("creates a PEN order with a nine-digit reference number", async () => {
    const body = sandbox.orderBody();
    const answer = await sandbox.createOrder(token, body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        referenceNumber: expect.stringMatching(/^\d{9}$/),
        externalTransactionId: body.externalTransactionId,
        amount: 6500,
        status: "PEN",
      },
    });
    const stored = (await sandbox.control("GET", `/orders/${body.externalTransactionId}`)).body.order;
    expect(stored).toMatchObject({ ...body, status: "PEN", referenceNumber: answer.body.data.referenceNumber });
    expect(Date.parse(stored.createdAt)).not.toBeNaN();
  });

  it("accepts an order without the optional image and additionalInfo", async () => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody({ image: undefined, additionalInfo: undefined }));
    expect(answer.status).toBe(200);
  });

  it.each([
    ["missing", undefined],
    ["a list", "pt-PT,pt;q=0.9"],
    ["empty", ""],
  ])("answers 400 when Accept-Language is %s", async (_, language) => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody(), { "Accept-Language": language });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Accept-Language/);
  });

  it.each(["pt", "en", "pt-AO"])("accepts Accept-Language %s", async (language) => {
    expect((await sandbox.createOrder(token, sandbox.orderBody(), { "Accept-Language": language })).status).toBe(200);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded"])(
    "answers 415 to Content-Type %s",
    async (contentType) => {
      const answer = await sandbox.createOrder(token, sandbox.orderBody(), { "Content-Type": contentType });
      expect(answer.status).toBe(415);
      expect(answer.body.error).toBe("unsupported_media_type");
    },
  );

  it("answers 400 invalid_json to a body that is not JSON", async () => {
    const answer = await sandbox.createOrder(token, "{not json");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_json");
  });

  it.each([["[]"], ["null"], ['"order"']])("answers 400 to the JSON value %s instead of an object", async (body) => {
    const answer = await sandbox.createOrder(token, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_request");
  });

  it.each<[string, Record<string, unknown>]>([
    ["externalTransactionId", { externalTransactionId: undefined }],
    ["externalTransactionId", { externalTransactionId: "" }],
    ["externalTransactionId", { externalTransactionId: "   " }],
    ["externalTransactionId", { externalTransactionId: `order_${"x".repeat(123)}` }],
    ["externalTransactionId", { externalTransactionId: 42 }],
    ["clientId", { clientId: undefined }],
    ["clientId", { clientId: "" }],
    ["applicationUUID", { applicationUUID: undefined }],
    ["name", { name: undefined }],
    ["name", { name: "" }],
    ["image", { image: null }],
    ["image", { image: 7 }],
    ["amount", { amount: undefined }],
    ["amount", { amount: "100" }],
    ["amount", { amount: 1.5 }],
    ["amount", { amount: 0 }],
    ["amount", { amount: -100 }],
    ["amount", { amount: 2 ** 60 }],
    ["quantity", { quantity: undefined }],
    ["quantity", { quantity: "1" }],
    ["quantity", { quantity: 0 }],
    ["quantity", { quantity: 1.5 }],
    ["additionalInfo", { additionalInfo: { returnUrl: "http://x" } }],
  ])("answers 400 invalid_field naming %s for %j, and stores nothing", async (field, changes) => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody(changes));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: "invalid_field", message: expect.stringContaining(field) });
    expect(await orders()).toEqual([]);
  });

  it("accepts an externalTransactionId of exactly 128 characters", async () => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody({ externalTransactionId: "x".repeat(128) }));
    expect(answer.status).toBe(200);
  });

  it("answers 400 unknown_field naming a field the contract does not define", async () => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody({ currency: "AOA" }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: "unknown_field", message: expect.stringContaining("currency") });
    expect(await orders()).toEqual([]);
  });

  it.each([
    ["the whole publishable key", (uuid: string) => `pk_test_${uuid}`],
    ["another application", () => "another-app"],
  ])("answers 400 application_mismatch to %s as applicationUUID", async (_, wrong) => {
    const answer = await sandbox.createOrder(
      token,
      sandbox.orderBody({ applicationUUID: wrong(sandbox.applicationUUID) }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("application_mismatch");
    expect(await orders()).toEqual([]);
  });

  it("answers 413 to a body over 64 KiB", async () => {
    const answer = await sandbox.createOrder(token, sandbox.orderBody({ additionalInfo: "x".repeat(70_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe("payload_too_large");
    expect(await orders()).toEqual([]);
  });

  it("is idempotent on externalTransactionId: the same order again gets the same reference", async () => {
    const body = sandbox.orderBody();
    const first = await sandbox.createOrder(token, body);
    const second = await sandbox.createOrder(token, { ...body, name: "renamed" });
    expect(second.status).toBe(200);
    expect(second.body.data.referenceNumber).toBe(first.body.data.referenceNumber);
    expect(await orders()).toHaveLength(1);
  });

  it("answers 409 conflict to the same externalTransactionId with another amount", async () => {
    const body = sandbox.orderBody();
    await sandbox.createOrder(token, body);
    const answer = await sandbox.createOrder(token, { ...body, amount: 1 });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe("conflict");
    expect((await sandbox.control("GET", `/orders/${body.externalTransactionId}`)).body.order.amount).toBe(6500);
  });

  it("gives distinct orders distinct reference numbers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => sandbox.createOrder(token, sandbox.orderBody())),
    );
    expect(new Set(answers.map((answer) => answer.body.data.referenceNumber)).size).toBe(20);
  });
});

describe("GET /paypartner/paymentByExternalTransaction", () => {
  it("reports the order's status, reference and amount", async () => {
    const body = sandbox.orderBody();
    const created = await sandbox.createOrder(token, body);
    const query = {
      externalTransactionId: body.externalTransactionId as string,
      applicationUUID: sandbox.applicationUUID,
    };
    const pending = await sandbox.paymentStatus(token, query);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      data: {
        externalTransactionId: body.externalTransactionId,
        referenceNumber: created.body.data.referenceNumber,
        paymentStatus: "PEN",
        amount: 6500,
        updatedAt: expect.any(String),
      },
    });
    await sandbox.control("POST", `/orders/${body.externalTransactionId}/cancel`);
    expect((await sandbox.paymentStatus(token, query)).body.data.paymentStatus).toBe("CAN");
  });

  it("answers 404 not_found for an order it does not know", async () => {
    const answer = await sandbox.paymentStatus(token, {
      externalTransactionId: "order_unknown",
      applicationUUID: sandbox.applicationUUID,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe("not_found");
  });

  it.each(["externalTransactionId", "applicationUUID"])(
    "answers 400 naming the missing query parameter %s",
    async (name) => {
      const query: Record<string, string> = {
        externalTransactionId: "order_1",
        applicationUUID: sandbox.applicationUUID,
      };
      delete query[name];
      const answer = await sandbox.paymentStatus(token, query);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(name);
    },
  );

  it("answers 400 application_mismatch to another applicationUUID", async () => {
    const answer = await sandbox.paymentStatus(token, { externalTransactionId: "order_1", applicationUUID: "other" });
    expect(answer.body.error).toBe("application_mismatch");
  });

  it("requires the bearer token and Accept-Language too", async () => {
    const query = { externalTransactionId: "order_1", applicationUUID: sandbox.applicationUUID };
    expect((await sandbox.paymentStatus("nope", query)).status).toBe(401);
    expect((await sandbox.paymentStatus(token, query, { "Accept-Language": "" })).status).toBe(400);
  });
});

describe("other paths and methods", () => {
  it("answers 404 JSON to an unknown path", async () => {
    const answer = await sandbox.call("GET", "/paypartner/unknown");
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe("not_found");
  });

  it("answers 405 with Allow to a wrong method", async () => {
    const answer = await sandbox.call("GET", "/token");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(answer.body.error).toBe("method_not_allowed");
  });
});
