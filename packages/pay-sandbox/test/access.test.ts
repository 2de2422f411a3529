import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHost } from "../src/control-access.js";
import { randomCredentials } from "../src/credentials.js";
import { startSandbox } from "../src/server.js";
import { startTestSandbox, type TestSandbox } from "../src/testing.js";

// Who may use the control API and the dashboard: a loopback Host, the run's token, JSON bodies.
// The service API, the SDK and the checkout stay as open as the service's.

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** A raw request through node:http, which (unlike fetch) lets a test set Host. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${sandbox.url}${path}`, { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: safeJson(text) }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const withToken = (headers: Record<string, string> = {}) => ({ "x-sandbox-token": sandbox.token, ...headers });

describe("the token", () => {
  it("is random, 32 bytes base64url, new for each start, and printed at start", async () => {
    expect(sandbox.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await startTestSandbox();
    await other.close();
    expect(other.token).not.toBe(sandbox.token);
    expect(sandbox.logLines).toContain(`SANDBOX_TOKEN=${sandbox.token}`);
  });

  it("is refused as missing (401) on every control call without it, reads and changes alike", async () => {
    for (const [method, path] of [
      ["GET", "/__sandbox/health"],
      ["GET", "/__sandbox/orders"],
      ["GET", "/__sandbox/requests"],
      ["POST", "/__sandbox/reset"],
      ["DELETE", "/__sandbox/faults"],
      ["GET", "/__sandbox/nope"],
    ] as const) {
      const answer = await sandbox.call(method, path);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toMatchObject({ error: "unauthorized", message: expect.stringContaining("missing") });
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    }
  });

  it("is refused as wrong (401) when it differs, in length or not", async () => {
    const sameLength = `${sandbox.token.slice(0, -1)}${sandbox.token.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [sameLength, `${sandbox.token}x`, "x".repeat(20), " "]) {
      const answer = await sandbox.call("POST", "/__sandbox/settings", {
        headers: { "x-sandbox-token": wrong, "Content-Type": "application/json" },
        body: JSON.stringify({ webhookUrl: "http://evil.example/hook" }),
      });
      expect(answer.status).toBe(401);
      expect(answer.body.message).toContain("wrong x-sandbox-token header");
    }
    expect((await sandbox.control("GET", "/settings")).body.settings.webhookUrl).toBeNull();
  });

  it("is not taken from the query, except by the dashboard page", async () => {
    expect((await sandbox.call("GET", `/__sandbox/orders?token=${sandbox.token}`)).status).toBe(401);
    expect((await sandbox.call("POST", `/__sandbox/reset?token=${sandbox.token}`)).status).toBe(401);
  });

  it("lets the right token with a JSON body through", async () => {
    const answer = await sandbox.call("POST", "/__sandbox/settings", {
      headers: withToken({ "Content-Type": "application/json; charset=utf-8" }),
      body: JSON.stringify({ tokenLifetimeSeconds: 60 }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.settings.tokenLifetimeSeconds).toBe(60);
    expect((await sandbox.control("POST", "/reset")).status).toBe(200);
    expect((await sandbox.control("GET", "/health")).body).toEqual({ ok: true });
  });

  it("refuses a CORS preflight, so a page on another site cannot send it", async () => {
    const answer = await sandbox.call("OPTIONS", "/__sandbox/settings", {
      headers: {
        Origin: "https://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "x-sandbox-token, content-type",
      },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is taken as given, and a weak one stops start-up", async () => {
    const token = "given-token-of-the-run-0123456789";
    const own = await startTestSandbox({ token });
    try {
      expect(own.token).toBe(token);
      expect((await own.control("GET", "/health")).status).toBe(200);
    } finally {
      await own.close();
    }
    await expect(startTestSandbox({ token: "short" })).rejects.toThrow(/at least 16 characters/);
    await expect(startTestSandbox({ token: "sixteen chars or more but spaced" })).rejects.toThrow(/at least 16/);
  });
});

describe("the Host", () => {
  const port = () => new URL(sandbox.url).port;

  it("must name this machine: a foreign one gets 403, even with the token (DNS rebinding)", async () => {
    for (const host of [
      `evil.example:${port()}`,
      "evil.example",
      `127.0.0.1.evil.example:${port()}`,
      `localhost.:${port()}`,
    ]) {
      const answer = await raw("GET", "/__sandbox/settings", withToken({ Host: host }));
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatchObject({ error: "forbidden_host" });
    }
    const post = await raw(
      "POST",
      "/__sandbox/settings",
      withToken({ Host: `evil.example:${port()}`, "Content-Type": "application/json" }),
      JSON.stringify({ webhookUrl: "http://evil.example/hook" }),
    );
    expect(post.status).toBe(403);
    expect((await sandbox.control("GET", "/settings")).body.settings.webhookUrl).toBeNull();
  });

  it("may be 127.0.0.1, localhost or [::1], with or without a port", async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`, "localhost", "LOCALHOST"]) {
      expect((await raw("GET", "/__sandbox/health", withToken({ Host: host }))).status, host).toBe(200);
    }
    expect(isLoopbackHost(undefined)).toBe(false);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("::1")).toBe(false);
    expect(isLoopbackHost("localhost:4010:1")).toBe(false);
  });

  it("is not checked on the service API, the SDK or the checkout, which the shop and browsers use as the service's", async () => {
    const sdk = await raw("GET", "/sdks/v1/pay.js", { Host: "shop-sandbox.test:4010" });
    expect(sdk.status).toBe(200);
    const basic = Buffer.from(`${sandbox.credentials.clientId}:${sandbox.credentials.clientSecret}`).toString("base64");
    const token = await raw(
      "POST",
      "/token",
      {
        Host: "sandbox.internal",
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      "grant_type=client_credentials&validity_period=60",
    );
    expect(token.status).toBe(200);
  });
});

describe("the Content-Type of changes", () => {
  it("must be application/json when there is a body: text/plain and forms get 415 and change nothing", async () => {
    for (const contentType of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"]) {
      const answer = await sandbox.call("POST", "/__sandbox/settings", {
        headers: withToken({ "Content-Type": contentType }),
        body: JSON.stringify({ webhookUrl: "http://evil.example/hook" }),
      });
      expect(answer.status, contentType).toBe(415);
      expect(answer.body.error).toBe("unsupported_media_type");
    }
    const none = await sandbox.call("POST", "/__sandbox/clock", {
      headers: withToken(),
      body: JSON.stringify({ advanceSeconds: 60 }),
    });
    expect(none.status).toBe(415);
    expect((await sandbox.control("GET", "/settings")).body.settings.webhookUrl).toBeNull();
    expect((await sandbox.control("GET", "/clock")).body.offsetSeconds).toBe(0);
  });

  it("must be application/json when given on a body-less change, and may be left out", async () => {
    const typed = await sandbox.call("POST", "/__sandbox/tokens/revoke", {
      headers: withToken({ "Content-Type": "text/plain" }),
    });
    expect(typed.status).toBe(415);
    expect((await sandbox.call("POST", "/__sandbox/tokens/revoke", { headers: withToken() })).status).toBe(200);
    expect((await sandbox.call("DELETE", "/__sandbox/requests", { headers: withToken() })).status).toBe(200);
  });
});

describe("the credentials", () => {
  it("are not served any more: GET /__sandbox/credentials is 404, with the token too", async () => {
    const answer = await sandbox.control("GET", "/credentials");
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body)).not.toContain(sandbox.credentials.clientSecret);
  });
});

describe("the dashboard", () => {
  it("opens with its token in the address, and not without it", async () => {
    const page = await sandbox.call(
      "GET",
      new URL(sandbox.dashboardUrl).pathname + new URL(sandbox.dashboardUrl).search,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("set-cookie")).toBeNull();
    expect((await sandbox.call("GET", "/__sandbox/dashboard")).status).toBe(401);
    expect((await sandbox.call("GET", "/__sandbox/dashboard?token=wrong-but-long-enough")).status).toBe(401);
    expect(sandbox.logLines).toContain(`dashboard at ${sandbox.dashboardUrl}`);
  });

  it("serves its script, which holds no data, without the token but only to a loopback Host", async () => {
    expect((await sandbox.call("GET", "/__sandbox/dashboard.js")).status).toBe(200);
    const foreign = await raw("GET", "/__sandbox/dashboard.js", { Host: "evil.example" });
    expect(foreign.status).toBe(403);
    const page = await raw("GET", `/__sandbox/dashboard?token=${sandbox.token}`, { Host: "evil.example" });
    expect(page.status).toBe(403);
  });
});

describe("pk_live_ keys", () => {
  it("stop start-up with a clear message", async () => {
    const credentials = { ...randomCredentials(), publishableKey: "pk_live_0a1b2c" };
    await expect(startSandbox({ port: 0, credentials, log: () => {} })).rejects.toThrow(
      /refuses pk_live_ publishable keys/,
    );
  });

  it("are refused by the hosted checkout", async () => {
    const token = await sandbox.accessToken();
    const created = await sandbox.createOrder(token, sandbox.orderBody());
    const live = `pk_live_${sandbox.applicationUUID}`;
    const answer = await sandbox.call("GET", `/checkout/${created.body.data.referenceNumber}?key=${live}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("refuses pk_live_ keys");
  });
});
