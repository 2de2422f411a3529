import { randomInt, randomUUID } from "node:crypto";
import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { luandaPeriods } from "@/lib/luanda-time";
import { adminOverview } from "@/lib/orders/overview-admin";
import {
  ADMIN_SESSION_SECONDS,
  sealAdminSession,
  startAdminSession,
  unsealAdminSession,
  type AdminConfig,
} from "@/lib/admin/session";
import { db } from "@/lib/db/client";

// The back office's sign-in, sign-out and session cookie (lib/admin), through the route handlers
// as Next calls them, against the suite's real database (the sign-in limiter counts there, and
// the sessions are its rows). The suite's shop has ADMIN_PASSWORD and ADMIN_SESSION_SECRET of its
// own (harness/isolated-shop.ts). What would disturb other files sharing that database (ending
// every session, the shop-wide limit, a missing counters table) is in admin-sessions.test.ts.

const APP = "http://localhost:3000";
const admin = (): AdminConfig => ({
  password: process.env.ADMIN_PASSWORD!,
  sessionSecret: process.env.ADMIN_SESSION_SECRET!,
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

/** An address of its own for each request sequence: the limiter's counters outlive a test. */
const newPeer = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** The routes as fresh modules, so lib/env.ts reads the environment each test stubbed. */
async function routes() {
  vi.resetModules();
  return {
    session: await import("@/app/api/admin/session/route"),
    signOut: (await import("@/app/api/admin/session/sign-out/route")).POST,
    guard: (await import("@/lib/http/admin-guard")).refuseWithoutAdminSession,
  };
}

function request(
  path: string,
  options: {
    method?: string;
    json?: unknown;
    form?: Record<string, string>;
    body?: string;
    headers?: HeadersInit;
  } = {},
) {
  const headers = new Headers(options.headers);
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", newPeer());
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(options.form).toString();
  }
  return new NextRequest(`${APP}${path}`, { method: options.method ?? "POST", headers, body });
}

const signInJson = async (password: string, headers?: HeadersInit) =>
  (await routes()).session.POST(request("/api/admin/session", { json: { password }, headers }));

/** The admin_session Set-Cookie header, if any. */
const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith("admin_session="));
const sealOf = (setCookie: string) => /^admin_session=([^;]*)/.exec(setCookie)![1]!;

/** What the guard of the admin API routes says to a request carrying `seal`. */
async function guardStatus(seal: string): Promise<number> {
  const { guard } = await routes();
  const refusal = await guard(
    request("/api/admin/anything", { method: "GET", headers: { cookie: `admin_session=${seal}` } }),
  );
  return refusal?.status ?? 200;
}

describe("signing in", () => {
  it("the right password gets a sealed, httpOnly, SameSite=Strict cookie for 8 hours, and nothing else", async () => {
    const response = await signInJson(admin().password);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ signedIn: true });
    const cookie = sessionCookieOf(response)!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toContain(`Max-Age=${ADMIN_SESSION_SECONDS}`);
    // APP_URL is this machine (http://localhost:3000): a Secure cookie would never come back over http.
    expect(cookie).not.toMatch(/; Secure/i);
    for (const secret of [admin().password, admin().sessionSecret]) {
      expect(cookie).not.toContain(secret);
      expect(body).not.toContain(secret);
    }
    expect(await guardStatus(sealOf(cookie))).toBe(200);
  });

  it("over https the cookie is __Host-admin_session: Secure, Path=/, no Domain; and only that name is read", async () => {
    vi.stubEnv("APP_URL", "https://loja.example.test");
    const response = await signInJson(admin().password, { origin: "https://loja.example.test" });
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response)).toBeUndefined();
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("__Host-admin_session="))!;
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/; Domain=/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    const seal = /^__Host-admin_session=([^;]*)/.exec(cookie)![1]!;

    const { guard } = await routes();
    const get = (cookieHeader: string) =>
      guard(request("/api/admin/anything", { method: "GET", headers: { cookie: cookieHeader } }));
    expect(await get(`__Host-admin_session=${seal}`)).toBeUndefined();
    // The plain name, which a page over http or another subdomain could have set, is not read over https.
    expect((await get(`admin_session=${seal}`))?.status).toBe(401);
  });

  it("on this machine over http the cookie keeps the plain name (a __Host- cookie must be Secure)", async () => {
    const response = await signInJson(admin().password);
    expect(response.headers.getSetCookie().some((line) => line.startsWith("__Host-"))).toBe(false);
    const seal = sealOf(sessionCookieOf(response)!);
    const { guard } = await routes();
    const refusal = await guard(
      request("/api/admin/anything", { method: "GET", headers: { cookie: `__Host-admin_session=${seal}` } }),
    );
    expect(refusal?.status).toBe(401);
  });

  it("the sign-in form is answered with a 303 to /admin, signed in or with the reason", async () => {
    const { session } = await routes();
    const right = await session.POST(request("/api/admin/session", { form: { password: admin().password } }));
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/admin");
    expect(sessionCookieOf(right)).toMatch(/; HttpOnly/i);

    const wrong = await session.POST(request("/api/admin/session", { form: { password: "not-it" } }));
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/admin?error=wrong_password");
    expect(sessionCookieOf(wrong)).toBeUndefined();

    const empty = await session.POST(request("/api/admin/session", { form: { password: "" } }));
    expect(empty.headers.get("location")).toBe("/admin?error=invalid_request");
    expect(sessionCookieOf(empty)).toBeUndefined();
  });

  it("a wrong password gets a 401 and no cookie", async () => {
    for (const password of [
      "wrong",
      `${admin().password} `,
      admin().password.slice(0, -1),
      admin().password.toUpperCase(),
    ]) {
      const response = await signInJson(password);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: "wrong_password", message: "wrong password" } });
      expect(sessionCookieOf(response)).toBeUndefined();
    }
  });

  it.each([
    ["a JSON body without a password", { json: {} }, 400],
    ["a password that is not a string", { json: { password: 12345678901234 } }, 400],
    ["an empty password", { json: { password: "" } }, 400],
    ["a password over 1024 characters", { json: { password: "x".repeat(1025) } }, 400],
    ["a body that is not JSON", { body: "{password", headers: { "content-type": "application/json" } }, 400],
    ["JSON null", { body: "null", headers: { "content-type": "application/json" } }, 400],
    ["a body over 4 KiB", { json: { password: "x".repeat(5000) } }, 413],
    ["text/plain", { body: "password=x", headers: { "content-type": "text/plain" } }, 415],
    ["multipart/form-data", { body: "--x--", headers: { "content-type": "multipart/form-data; boundary=x" } }, 415],
    ["no content type", { body: "password=x" }, 415],
  ] as const)("%s gets a %d and no cookie", async (_what, options, status) => {
    const { session } = await routes();
    const response = await session.POST(request("/api/admin/session", options));
    expect(response.status).toBe(status);
    expect((await response.json()) as unknown).toEqual({
      error: { code: expect.any(String), message: expect.any(String) },
    });
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it("with the back office off (no ADMIN_PASSWORD) nobody signs in, and the API routes say so", async () => {
    vi.stubEnv("ADMIN_PASSWORD", "");
    const response = await signInJson(admin().password);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("back_office_off");
    expect(sessionCookieOf(response)).toBeUndefined();
    const { session, guard } = await routes();
    const form = await session.POST(request("/api/admin/session", { form: { password: "x" } }));
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin"]);
    expect((await guard(request("/api/admin/anything", { method: "GET" })))?.status).toBe(404);
  });
});

describe("every attempt is logged, never with the password or the cookie", () => {
  /** The JSON log lines written to the console during `run`. */
  async function logLines(run: () => Promise<unknown>) {
    const lines: string[] = [];
    for (const method of ["log", "warn", "error"] as const)
      vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line)));
    await run();
    vi.restoreAllMocks();
    return lines;
  }
  const parse = (lines: string[]) =>
    lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);

  it("a failed and a successful sign-in: the event, the client's address and the time", async () => {
    const peer = newPeer();
    const wrongPassword = `wrong-${randomUUID()}`;
    let cookie = "";
    const before = Date.now();
    const lines = await logLines(async () => {
      expect((await signInJson(wrongPassword, { "x-forwarded-for": peer })).status).toBe(401);
      const right = await signInJson(admin().password, { "x-forwarded-for": peer });
      expect(right.status).toBe(200);
      cookie = sealOf(sessionCookieOf(right)!);
    });
    const events = parse(lines).filter((line) => String(line.event).startsWith("admin.sign_in"));
    expect(events).toEqual([
      { level: "warn", event: "admin.sign_in.failed", reason: "wrong_password", address: peer, at: expect.any(String) },
      { level: "info", event: "admin.sign_in.succeeded", address: peer, at: expect.any(String) },
    ]);
    for (const event of events) {
      const at = Date.parse(String(event.at));
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    }
    const all = lines.join("\n");
    for (const secret of [wrongPassword, admin().password, admin().sessionSecret, cookie])
      expect(all).not.toContain(secret);
  });

  it("a refusal by the limit and a malformed attempt are logged as failures too", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "1");
    const peer = { "x-forwarded-for": newPeer() };
    const lines = await logLines(async () => {
      expect((await signInJson("", peer)).status).toBe(400);
      expect((await signInJson(admin().password, peer)).status).toBe(429);
    });
    expect(parse(lines).filter((line) => line.event === "admin.sign_in.failed")).toEqual([
      expect.objectContaining({ reason: "invalid_request", address: peer["x-forwarded-for"] }),
      expect.objectContaining({ reason: "rate_limited", limit: "admin-sign-in", address: peer["x-forwarded-for"] }),
    ]);
    expect(lines.join("\n")).not.toContain(admin().password);
  });

  it("attempts past the limit, however many, are a few log lines; those within it are each logged", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "2");
    const { session } = await routes();
    const peer = { "x-forwarded-for": newPeer() };
    const attempt = () => session.POST(request("/api/admin/session", { json: { password: "not-it" }, headers: peer }));
    const statuses: number[] = [];
    const lines = await logLines(async () => {
      for (let i = 0; i < 80; i += 1) statuses.push((await attempt()).status);
    });
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(new Set(statuses.slice(2))).toEqual(new Set([429]));
    const failed = parse(lines).filter((line) => line.event === "admin.sign_in.failed");
    expect(failed.filter((line) => line.reason === "wrong_password")).toHaveLength(2);
    expect(failed.filter((line) => line.reason === "rate_limited")).toHaveLength(60);
  });
});

describe("back to the page the session ended on", () => {
  it("the sign-in form's `next` is followed once signed in, and kept through a wrong password", async () => {
    const { session } = await routes();
    const next = "/admin/products/4b3a8d4e-3f0e-4a39-9a4c-2f0f3f6d7a11?draft=0b8f2f7e-8a49-4f5c-a3c6-0c2d1f5e9b10";
    const wrong = await session.POST(request("/api/admin/session", { form: { password: "not-it", next } }));
    expect(wrong.status).toBe(303);
    const again = new URL(wrong.headers.get("location")!, APP);
    expect([again.pathname, again.searchParams.get("error"), again.searchParams.get("next")]).toEqual([
      "/admin",
      "wrong_password",
      next,
    ]);
    const right = await session.POST(request("/api/admin/session", { form: { password: admin().password, next } }));
    expect([right.status, right.headers.get("location")]).toEqual([303, next]);
  });

  it.each([
    "https://evil.example.test/admin",
    "//evil.example.test/admin",
    "/\\evil.example.test",
    "/admin/../orders/lookup",
    "/checkout",
    "/administrator",
    "javascript:alert(1)",
    "/admin\r\nLocation: https://evil.example.test",
    "/admin#x",
  ])("never anywhere else: next=%s signs in to /admin", async (next) => {
    const { session } = await routes();
    const response = await session.POST(request("/api/admin/session", { form: { password: admin().password, next } }));
    expect([response.status, response.headers.get("location")]).toEqual([303, "/admin"]);
  });
});

describe("requests from other sites", () => {
  it.each([
    ["another site's Origin", { origin: "https://evil.example.test" }],
    ["the same host on another port", { origin: "http://localhost:4000" }],
    ["an https Origin for an http shop", { origin: "https://localhost:3000" }],
    ["Origin: null (a sandboxed frame)", { origin: "null" }],
    ["a malformed Origin", { origin: "not a url" }],
    [
      "another loopback name than the one the browser used",
      { origin: "http://127.0.0.1:3000", host: "localhost:3000" },
    ],
    ["no Origin but Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["no Origin but Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
  ])("%s: 403, no cookie, and the attempt is not even counted", async (_what, headers) => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "1");
    const peer = newPeer();
    const response = await signInJson(admin().password, { ...headers, "x-forwarded-for": peer });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("cross_site");
    expect(sessionCookieOf(response)).toBeUndefined();
    expect((await signInJson(admin().password, { "x-forwarded-for": peer })).status).toBe(200);
  });

  it.each([
    ["the shop's own Origin", { origin: APP }],
    ["the loopback address the browser used (Host)", { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }],
    ["Sec-Fetch-Site: same-origin without Origin", { "sec-fetch-site": "same-origin" }],
    ["neither (not a browser: curl, a script)", {}],
  ])("%s is let in", async (_what, headers) => {
    expect((await signInJson(admin().password, headers)).status).toBe(200);
  });

  it("only APP_URL's origin once the shop is not on this machine", async () => {
    vi.stubEnv("APP_URL", "https://loja.example.test");
    const host = { host: "localhost:3000" };
    expect((await signInJson(admin().password, { origin: "http://localhost:3000", ...host })).status).toBe(403);
    expect((await signInJson(admin().password, { origin: "https://loja.example.test" })).status).toBe(200);
  });

  it("sign-out refuses them too, and leaves the cookie alone", async () => {
    const { session, signOut } = await routes();
    const evil = { origin: "https://evil.example.test" };
    for (const response of [
      await session.DELETE(request("/api/admin/session", { method: "DELETE", headers: evil })),
      await signOut(request("/api/admin/session/sign-out", { form: {}, headers: evil })),
    ]) {
      expect(response.status).toBe(403);
      expect(sessionCookieOf(response)).toBeUndefined();
    }
  });
});

describe("the sign-in limit", () => {
  it("refuses the attempt after N from one address with a 429 and Retry-After, even with the right password", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "3");
    const peer = { "x-forwarded-for": newPeer() };
    for (let attempt = 0; attempt < 3; attempt++) expect((await signInJson("guess", peer)).status).toBe(401);
    const limited = await signInJson(admin().password, peer);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(sessionCookieOf(limited)).toBeUndefined();

    const { session } = await routes();
    const form = await session.POST(
      request("/api/admin/session", { form: { password: admin().password }, headers: peer }),
    );
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=rate_limited"]);
    expect(sessionCookieOf(form)).toBeUndefined();
    // Another address has its own allowance.
    expect((await signInJson(admin().password)).status).toBe(200);
  });
});

describe("a forged or stale session cookie is no session", () => {
  const HOURS = 3600_000;

  it("a valid seal of an open session passes, and the guard refuses the rest with a 401", async () => {
    expect(await guardStatus(await startAdminSession(db(), admin()))).toBe(200);
    const { guard } = await routes();
    const none = await guard(request("/api/admin/anything", { method: "GET" }));
    expect(none?.status).toBe(401);
    expect(await none?.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("a tampered seal", async () => {
    // iron-session appends "~2", its format's version, outside the sealed (signed) part.
    const [sealed, version] = (await startAdminSession(db(), admin())).split("~");
    const middle = Math.floor(sealed!.length / 2);
    const flipped = `${sealed!.slice(0, middle)}${sealed![middle] === "A" ? "B" : "A"}${sealed!.slice(middle + 1)}`;
    const forgeries = [flipped, sealed!.slice(0, -1), `${sealed}x`, `x${sealed}`].map(
      (forged) => `${forged}~${version}`,
    );
    for (const forged of [...forgeries, "Fe26.2**abc", "admin", ""]) {
      expect(await unsealAdminSession(forged, admin())).toBeUndefined();
    }
    expect(await guardStatus(forgeries[0]!)).toBe(401);
  });

  it("a seal made under another secret, even with the right password's data", async () => {
    const other = await startAdminSession(db(), { ...admin(), sessionSecret: `another-secret-${randomUUID()}` });
    expect(await unsealAdminSession(other, admin())).toBeUndefined();
    expect(await guardStatus(other)).toBe(401);
  });

  it("a seal of other data under the right secret", async () => {
    const password = admin().sessionSecret;
    const sid = randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    for (const data of [
      {},
      { v: 1 },
      { v: 1, iat, pw: "guessed-fingerprint-x" },
      { v: 2, sid, iat, pw: "guessed-fingerprint-x" },
    ]) {
      expect(await unsealAdminSession(await sealData(data, { password }), admin())).toBeUndefined();
    }
  });

  it("the cookie of the release before (a seal without a session id) is no session: signing in again once is the price of the deploy", async () => {
    // lib/admin/session.ts before admin_sessions: { v: 1, iat, pw } under the same secret, with the right fingerprint.
    const { createHmac } = await import("node:crypto");
    const pw = createHmac("sha256", admin().sessionSecret)
      .update(`admin-password\u0000${admin().password}`)
      .digest("base64url")
      .slice(0, 22);
    const legacy = await sealData(
      { v: 1, iat: Math.floor(Date.now() / 1000), pw },
      { password: admin().sessionSecret, ttl: ADMIN_SESSION_SECONDS },
    );
    expect(await unsealAdminSession(legacy, admin())).toBeUndefined();
    expect(await guardStatus(legacy)).toBe(401);
  });

  it("a well-sealed cookie whose session was never opened, or has ended, is no session", async () => {
    const neverOpened = await sealAdminSession(admin(), randomUUID());
    expect(await unsealAdminSession(neverOpened, admin())).toMatch(/^[0-9a-f-]{36}$/);
    expect(await guardStatus(neverOpened)).toBe(401);
    const seal = await startAdminSession(db(), admin());
    expect(await guardStatus(seal)).toBe(200);
    await db().adminSession.delete({ where: { id: (await unsealAdminSession(seal, admin()))! } });
    expect(await guardStatus(seal)).toBe(401);
  });

  it("an expired seal: past its own time-to-live, or made more than 8 hours ago", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 9 * HOURS);
    const sealedLongAgo = await sealAdminSession(admin(), randomUUID());
    vi.useRealTimers();
    expect(await unsealAdminSession(sealedLongAgo, admin())).toBeUndefined();
    expect(await guardStatus(sealedLongAgo)).toBe(401);
    // Its row expired with it.
    const openedLongAgo = await startAdminSession(db(), admin(), Date.now() - 9 * HOURS);
    expect(await guardStatus(openedLongAgo)).toBe(401);

    const seal = await startAdminSession(db(), admin());
    const sid = await unsealAdminSession(seal, admin());
    expect(sid).toBeDefined();
    expect(await unsealAdminSession(seal, admin(), Date.now() + ADMIN_SESSION_SECONDS * 1000 - 60_000)).toBe(sid);
    expect(await unsealAdminSession(seal, admin(), Date.now() + ADMIN_SESSION_SECONDS * 1000 + 1000)).toBeUndefined();
  });

  it("a seal made before the password changed", async () => {
    const oldPassword = admin().password;
    const seal = await startAdminSession(db(), admin());
    expect(await guardStatus(seal)).toBe(200);
    vi.stubEnv("ADMIN_PASSWORD", `${oldPassword}-new`);
    expect(await guardStatus(seal)).toBe(401);
    // The old password no longer signs in either; the new one does.
    expect((await signInJson(oldPassword)).status).toBe(401);
    expect((await signInJson(`${oldPassword}-new`)).status).toBe(200);
  });
});

describe("signing out", () => {
  it("DELETE clears the cookie (JSON), and the form's POST clears it with a 303 to /admin", async () => {
    const { session, signOut } = await routes();
    const cookie = { cookie: `admin_session=${await startAdminSession(db(), admin())}` };
    const json = await session.DELETE(request("/api/admin/session", { method: "DELETE", headers: cookie }));
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ signedIn: false });
    const form = await signOut(
      request("/api/admin/session/sign-out", { form: {}, headers: { ...cookie, origin: APP } }),
    );
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin"]);
    for (const response of [json, form]) {
      const cleared = sessionCookieOf(response)!;
      expect(cleared).toMatch(/^admin_session=;/);
      expect(cleared).toMatch(/Max-Age=0/);
      expect(cleared).toMatch(/; HttpOnly/i);
      expect(cleared).toMatch(/; SameSite=Strict/i);
    }
  });

  it("ends the session: a copy of the cookie kept from before is refused afterwards, by the API and by sign-out everywhere", async () => {
    const signedIn = await signInJson(admin().password);
    const seal = sealOf(sessionCookieOf(signedIn)!);
    const sid = (await unsealAdminSession(seal, admin()))!;
    expect(await db().adminSession.count({ where: { id: sid } })).toBe(1);
    expect(await guardStatus(seal)).toBe(200);

    const { signOut } = await routes();
    const out = await signOut(
      request("/api/admin/session/sign-out", { form: {}, headers: { cookie: `admin_session=${seal}`, origin: APP } }),
    );
    expect(out.status).toBe(303);
    expect(await db().adminSession.count({ where: { id: sid } })).toBe(0);

    // The copy, replayed: 401 JSON for the API, the sign-in for a browser's form post.
    const { guard } = await routes();
    const replayed = { cookie: `admin_session=${seal}`, origin: APP };
    const json = await guard(request("/api/admin/anything", { method: "GET", headers: replayed }));
    expect(json?.status).toBe(401);
    expect(await json?.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    const form = await guard(request("/api/admin/anything", { form: { note: "x" }, headers: replayed }));
    expect(form?.status).toBe(303);
    expect(form?.headers.get("location")).toMatch(/^\/admin\?expired=1&next=/);
    const everywhere = (await import("@/app/api/admin/session/sign-out-everywhere/route")).POST;
    const refused = await everywhere(
      request("/api/admin/session/sign-out-everywhere", { json: {}, headers: replayed }),
    );
    expect(refused.status).toBe(401);
  });
});

describe("the home page's figures", () => {
  it("today and this month follow Luanda's calendar (UTC+1)", () => {
    // 23:30 UTC on 31 March is already 1 April in Luanda.
    expect(luandaPeriods(new Date("2031-03-31T23:30:00Z"))).toEqual({
      dayStart: new Date("2031-03-31T23:00:00Z"),
      monthStart: new Date("2031-03-31T23:00:00Z"),
    });
    expect(luandaPeriods(new Date("2031-03-31T22:30:00Z"))).toEqual({
      dayStart: new Date("2031-03-30T23:00:00Z"),
      monthStart: new Date("2031-02-28T23:00:00Z"),
    });
  });

  it("sums the orders paid today and this month, and counts the pending ones", async () => {
    const now = new Date("2031-04-15T12:00:00+01:00");
    const order = (status: "PEN" | "CON" | "CAN", amountAoa: number, finalizedAt: string | null) => ({
      externalTransactionId: `order_${randomUUID()}`,
      status,
      amountAoa,
      clientId: `shopper_${randomUUID()}`,
      finalizedAt: finalizedAt ? new Date(finalizedAt) : null,
    });
    // A snapshot of its own, rolled back: the suite's other files write orders meanwhile.
    const rollback = new Error("rollback");
    const outcome = await db()
      .$transaction(
        async (tx) => {
          const pendingBefore = await tx.order.count({ where: { status: "PEN" } });
          await tx.order.createMany({
            data: [
              order("CON", 1000, "2031-04-15T00:10:00+01:00"), // today, just after midnight in Luanda
              order("CON", 2500, "2031-04-15T11:59:00+01:00"), // today
              order("CON", 4000, "2031-04-14T23:50:00+01:00"), // yesterday: this month only
              order("CON", 8000, "2031-04-01T00:00:00+01:00"), // the month's first instant
              order("CON", 16000, "2031-03-31T23:59:00+01:00"), // last month
              order("CAN", 32000, "2031-04-15T10:00:00+01:00"), // cancelled: not paid
              order("CON", 64000, "2031-04-15T12:30:00+01:00"), // after `now`
              order("PEN", 128000, null),
              order("PEN", 256000, null),
            ],
          });
          const overview = await adminOverview(tx, now);
          throw Object.assign(rollback, { overview, pendingBefore });
        },
        { isolationLevel: "RepeatableRead" },
      )
      .catch((error: unknown) => error as typeof rollback & { overview: unknown; pendingBefore: number });
    expect(outcome).toBe(rollback);
    expect(outcome.overview).toEqual({
      paidTodayAoa: 3500,
      paidThisMonthAoa: 15500,
      pendingOrders: outcome.pendingBefore + 2,
    });
  });
});
