import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../src/testing.js";

// The control API under /__sandbox/: request log, injected faults, settings, clock, orders, reset.

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

const CREATE = "/paypartner/createPaymentOrder";

describe("request log", () => {
  it("records each service-API call as the service saw it, oldest first", async () => {
    const body = sandbox.orderBody();
    await sandbox.createOrder(token, body, { "X-Request-Id": "abc" });
    await sandbox.paymentStatus(token, { externalTransactionId: "order_x", applicationUUID: sandbox.applicationUUID });
    const [tokenCall, create, lookup, ...rest] = await sandbox.requests();
    expect(rest).toEqual([]);

    const basic = Buffer.from(`${sandbox.credentials.clientId}:${sandbox.credentials.clientSecret}`).toString("base64");
    expect(tokenCall).toMatchObject({ method: "POST", path: "/token", status: 200, query: {} });
    expect(tokenCall?.headers.authorization).toBe(`Basic ${basic}`);
    expect(tokenCall?.body).toBe("grant_type=client_credentials&validity_period=3600");

    expect(create).toMatchObject({ method: "POST", path: CREATE, status: 200, body: JSON.stringify(body) });
    expect(create?.headers).toMatchObject({
      authorization: `Bearer ${token}`,
      "accept-language": "pt",
      "content-type": "application/json; charset=utf-8",
      "x-request-id": "abc",
    });
    expect(create?.error).toBeUndefined();
    expect(Date.parse(create?.at ?? "")).not.toBeNaN();

    expect(lookup).toMatchObject({
      method: "GET",
      path: "/paypartner/paymentByExternalTransaction",
      query: { externalTransactionId: "order_x", applicationUUID: sandbox.applicationUUID },
      status: 404,
      error: "not_found",
      body: "",
    });
    expect([tokenCall, create, lookup].map((entry) => entry?.seq)).toEqual(
      [1, 2, 3].map((n) => tokenCall!.seq + n - 1),
    );
  });

  it("records the error code of a refused call", async () => {
    await sandbox.createOrder(token, sandbox.orderBody({ amount: "100" }));
    const [create] = await sandbox.requests(CREATE);
    expect(create).toMatchObject({ status: 400, error: "invalid_field" });
  });

  it("records calls to unknown paths, but never control calls", async () => {
    await sandbox.call("GET", "/nowhere");
    await sandbox.control("GET", "/orders");
    await sandbox.control("GET", "/nowhere");
    const paths = (await sandbox.requests()).map((entry) => entry.path);
    expect(paths).toEqual(["/token", "/nowhere"]);
  });

  it("filters by path and by since, and can be cleared", async () => {
    await sandbox.createOrder(token, sandbox.orderBody());
    const [first] = await sandbox.requests(CREATE);
    await sandbox.createOrder(token, sandbox.orderBody());
    expect(await sandbox.requests("/token")).toHaveLength(1);
    const since = (await sandbox.control("GET", `/requests?since=${first!.seq}`)).body.requests;
    expect(since).toHaveLength(1);
    expect(since[0].seq).toBe(first!.seq + 1);
    expect((await sandbox.control("GET", "/requests?since=x")).status).toBe(400);

    await sandbox.control("DELETE", "/requests");
    expect(await sandbox.requests()).toEqual([]);
    await sandbox.createOrder(token, sandbox.orderBody());
    expect((await sandbox.requests())[0]?.seq).toBeGreaterThan(first!.seq + 1);
  });
});

describe("faults", () => {
  it("answers the next N matching calls with 500, without reaching the handler", async () => {
    await sandbox.control("POST", "/faults", { count: 2, kind: "500", path: CREATE });
    const body = sandbox.orderBody();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await sandbox.createOrder(token, body));
    expect(answers.map((answer) => answer.status)).toEqual([500, 500, 200]);
    expect(answers[0]?.body.error).toBe("internal_error");
    expect((await sandbox.control("GET", "/orders")).body.orders).toHaveLength(1);
    const logged = await sandbox.requests(CREATE);
    expect(logged.map((entry) => [entry.status, entry.fault, entry.error])).toEqual([
      [500, "500", "internal_error"],
      [500, "500", "internal_error"],
      [200, undefined, undefined],
    ]);
    expect(logged[0]?.body).toBe(JSON.stringify(body));
  });

  it("only faults the given path", async () => {
    await sandbox.control("POST", "/faults", { count: 1, kind: "503", path: "/token" });
    expect((await sandbox.createOrder(token, sandbox.orderBody())).status).toBe(200);
    const answer = await sandbox.requestToken();
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe("service_unavailable");
  });

  it("faults any service-API path when no path is given, and never control calls", async () => {
    await sandbox.control("POST", "/faults", { count: 1, kind: "500" });
    expect((await sandbox.control("GET", "/health")).status).toBe(200);
    expect((await sandbox.requestToken()).status).toBe(500);
    expect((await sandbox.requestToken()).status).toBe(200);
  });

  it("sends Retry-After with 429 when asked", async () => {
    await sandbox.control("POST", "/faults", { count: 1, kind: "429", retryAfterSeconds: 7, path: CREATE });
    await sandbox.control("POST", "/faults", { count: 1, kind: "429", path: CREATE });
    const withDelay = await sandbox.createOrder(token, sandbox.orderBody());
    expect(withDelay.status).toBe(429);
    expect(withDelay.headers.get("retry-after")).toBe("7");
    expect(withDelay.body.error).toBe("rate_limited");
    const without = await sandbox.createOrder(token, sandbox.orderBody());
    expect(without.status).toBe(429);
    expect(without.headers.get("retry-after")).toBeNull();
  });

  it("holds a request open on timeout until the client gives up", async () => {
    await sandbox.control("POST", "/faults", { count: 1, kind: "timeout", path: CREATE });
    const started = Date.now();
    const error = await fetch(`${sandbox.url}${CREATE}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": "pt", "Content-Type": "application/json" },
      body: JSON.stringify(sandbox.orderBody()),
      signal: AbortSignal.timeout(300),
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const [held] = await sandbox.requests(CREATE);
    expect(held).toMatchObject({ fault: "timeout", status: 0 });
    expect((await sandbox.control("GET", "/orders")).body.orders).toEqual([]);
    expect((await sandbox.createOrder(token, sandbox.orderBody())).status).toBe(200);
  });

  it("drops the connection on reset", async () => {
    await sandbox.control("POST", "/faults", { count: 1, kind: "reset", path: "/token" });
    const error = await sandbox.requestToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((await sandbox.requests("/token")).at(-1)).toMatchObject({ fault: "reset", status: 0 });
    expect((await sandbox.requestToken()).status).toBe(200);
  });

  it("lists pending faults and clears them", async () => {
    await sandbox.control("POST", "/faults", { count: 3, kind: "503" });
    await sandbox.requestToken();
    expect((await sandbox.control("GET", "/faults")).body.faults).toEqual([{ count: 2, kind: "503" }]);
    await sandbox.control("DELETE", "/faults");
    expect((await sandbox.requestToken()).status).toBe(200);
  });

  it.each([
    { count: 0, kind: "500" },
    { count: 1, kind: "502" },
    { count: 1, kind: "timeout", retryAfterSeconds: 3 },
    { count: 1, kind: "500", path: "token" },
    { count: 1, kind: "500", extra: true },
  ])("refuses the fault %j with 400", async (fault) => {
    const answer = await sandbox.control("POST", "/faults", fault);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_request");
  });
});

describe("settings, tokens and clock", () => {
  it("changes and reports the token lifetime", async () => {
    const answer = await sandbox.control("POST", "/settings", { tokenLifetimeSeconds: 30 });
    expect(answer.body.settings).toMatchObject({ tokenLifetimeSeconds: 30 });
    expect((await sandbox.control("GET", "/settings")).body.settings.tokenLifetimeSeconds).toBe(30);
    expect((await sandbox.requestToken()).body.expires_in).toBe(30);
    expect((await sandbox.control("POST", "/settings", { tokenLifetimeSeconds: 0 })).status).toBe(400);
  });

  it("reports the webhook settings, changes them strictly, and a reset restores them", async () => {
    expect((await sandbox.control("GET", "/settings")).body.settings).toEqual({
      tokenLifetimeSeconds: 3600,
      webhookUrl: null,
      signatureEncoding: "hex",
      signaturePrefix: false,
      webhookTimeoutMs: 5000,
      webhookRetryBaseMs: 1000,
      webhookMaxAttempts: 6,
    });
    const changes = {
      webhookUrl: "http://127.0.0.1:9/api/pay/webhook",
      signatureEncoding: "base64",
      signaturePrefix: true,
      webhookTimeoutMs: 100,
      webhookRetryBaseMs: 10,
      webhookMaxAttempts: 2,
    };
    expect((await sandbox.control("POST", "/settings", changes)).body.settings).toMatchObject(changes);
    expect((await sandbox.control("POST", "/settings", { webhookUrl: null })).body.settings.webhookUrl).toBeNull();
    for (const bad of [
      { webhookUrl: "ftp://example.com/hook" },
      { webhookUrl: "not a url" },
      { signatureEncoding: "HEX" },
      { signaturePrefix: "yes" },
      { webhookTimeoutMs: 0 },
      { webhookRetryBaseMs: 1.5 },
      { webhookMaxAttempts: 21 },
      { webhookSecret: "x" },
    ]) {
      const answer = await sandbox.control("POST", "/settings", bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error).toBe("invalid_request");
    }
    await sandbox.control("POST", "/settings", changes);
    await sandbox.control("POST", "/reset");
    expect((await sandbox.control("GET", "/settings")).body.settings).toMatchObject({
      webhookUrl: null,
      signatureEncoding: "hex",
      webhookMaxAttempts: 6,
    });
  });

  it("revokes every issued token and says how many", async () => {
    await sandbox.accessToken();
    expect((await sandbox.control("POST", "/tokens/revoke")).body).toEqual({ revoked: 2 });
    expect((await sandbox.createOrder(token, sandbox.orderBody())).status).toBe(401);
  });

  it("moves the clock forward", async () => {
    const before = (await sandbox.control("GET", "/clock")).body.now as number;
    const after = await sandbox.control("POST", "/clock", { advanceSeconds: 3600 });
    expect(after.body.offsetSeconds).toBe(3600);
    expect(after.body.now - before).toBeGreaterThanOrEqual(3600_000);
    expect(Date.parse(after.body.iso)).toBe(after.body.now);
    expect((await sandbox.control("POST", "/clock", { advanceSeconds: -1 })).status).toBe(400);
    expect((await sandbox.control("POST", "/clock", {})).status).toBe(400);
  });

  it("answers one reading of the clock, however fast the clock ticks", async () => {
    // Every reading of this base clock is a millisecond later than the one before.
    let ms = Date.UTC(2026, 0, 1);
    const ticking = await startTestSandbox({ now: () => ms++ });
    try {
      const { body } = await ticking.control("GET", "/clock");
      expect(Date.parse(body.iso)).toBe(body.now);
    } finally {
      await ticking.close();
    }
  });
});

describe("orders", () => {
  it("lists orders and shows one by externalTransactionId", async () => {
    const body = sandbox.orderBody({ externalTransactionId: "order_with/slash" });
    await sandbox.createOrder(token, body);
    expect((await sandbox.control("GET", "/orders")).body.orders).toHaveLength(1);
    const one = await sandbox.control("GET", `/orders/${encodeURIComponent("order_with/slash")}`);
    expect(one.body.order).toMatchObject({ externalTransactionId: "order_with/slash", status: "PEN" });
    expect((await sandbox.control("GET", "/orders/order_missing")).status).toBe(404);
  });

  it("confirms or cancels a PEN order once; final states never change", async () => {
    const confirmed = sandbox.orderBody();
    const cancelled = sandbox.orderBody();
    await sandbox.createOrder(token, confirmed);
    await sandbox.createOrder(token, cancelled);
    await sandbox.control("POST", "/clock", { advanceSeconds: 10 });

    const confirm = await sandbox.control("POST", `/orders/${confirmed.externalTransactionId}/confirm`);
    expect(confirm.body.order.status).toBe("CON");
    expect(confirm.body.order.updatedAt > confirm.body.order.createdAt).toBe(true);
    expect((await sandbox.control("POST", `/orders/${cancelled.externalTransactionId}/cancel`)).body.order.status).toBe(
      "CAN",
    );

    for (const [id, action] of [
      [confirmed.externalTransactionId, "cancel"],
      [confirmed.externalTransactionId, "confirm"],
      [cancelled.externalTransactionId, "confirm"],
    ]) {
      const answer = await sandbox.control("POST", `/orders/${id}/${action}`);
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe("invalid_transition");
    }
    expect((await sandbox.control("POST", "/orders/order_missing/confirm")).status).toBe(404);
  });
});

describe("reset and health", () => {
  it("clears orders, tokens, the log, faults, the clock offset and settings", async () => {
    await sandbox.createOrder(token, sandbox.orderBody());
    await sandbox.control("POST", "/faults", { count: 5, kind: "500" });
    await sandbox.control("POST", "/clock", { advanceSeconds: 100 });
    await sandbox.control("POST", "/settings", { tokenLifetimeSeconds: 5 });

    expect((await sandbox.control("POST", "/reset")).body).toEqual({ ok: true });
    expect((await sandbox.control("GET", "/orders")).body.orders).toEqual([]);
    expect(await sandbox.requests()).toEqual([]);
    expect((await sandbox.control("GET", "/faults")).body.faults).toEqual([]);
    expect((await sandbox.control("GET", "/clock")).body.offsetSeconds).toBe(0);
    expect((await sandbox.control("GET", "/settings")).body.settings.tokenLifetimeSeconds).toBe(3600);
    expect((await sandbox.createOrder(token, sandbox.orderBody())).status).toBe(401);
  });

  it("answers health", async () => {
    expect((await sandbox.control("GET", "/health")).body).toEqual({ ok: true });
  });

  it("answers 404 and 405 as JSON", async () => {
    expect((await sandbox.control("GET", "/nope")).body.error).toBe("not_found");
    expect((await sandbox.control("PUT", "/reset")).status).toBe(405);
    expect((await sandbox.control("POST", "/settings", "not an object")).status).toBe(400);
  });
});

describe("lifecycle", () => {
  it("closes promptly while a timeout fault holds a request open", async () => {
    const own = await startTestSandbox();
    const ownToken = await own.accessToken();
    await own.control("POST", "/faults", { count: 1, kind: "timeout" });
    const pending = own.createOrder(ownToken, own.orderBody()).catch((e: unknown) => e);
    await expect.poll(async () => (await own.requests(CREATE)).length).toBe(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(await pending).toBeInstanceOf(TypeError);
  });

  it("never writes secrets, tokens or bodies to its human log", async () => {
    await sandbox.createOrder(token, sandbox.orderBody({ name: "secret-looking-name" }));
    await sandbox.requestToken(undefined, { Authorization: "Basic d3Jvbmc6d3Jvbmc=" });
    await sandbox.control("POST", "/faults", { count: 1, kind: "500" });
    await sandbox.requestToken();
    expect(sandbox.logLines.length).toBeGreaterThan(3);
    const { clientSecret, webhookSecret, clientId } = sandbox.credentials;
    for (const line of sandbox.logLines) {
      for (const secret of [token, clientSecret, webhookSecret, clientId, "secret-looking-name", "d3Jvbmc6d3Jvbmc="]) {
        expect(line).not.toContain(secret);
      }
      expect(line).not.toMatch(/bearer|basic/i);
    }
  });
});
