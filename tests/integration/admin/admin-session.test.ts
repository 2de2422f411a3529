import { createHmac, randomInt, randomUUID } from "node:crypto";
import { totpCode } from "../../../harness/support/totp";
import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { luandaPeriods } from "@/lib/luanda-time";
import { adminOverview } from "@/lib/orders/overview-admin";
import { STAFF_SESSION_SECONDS, staffAuth } from "@/lib/admin/staff-auth";
import { ADMIN_TWO_FACTOR_SECONDS, libraryCookiesOf, libraryHeaders } from "@/lib/admin/staff-session";
import type { Actor } from "@/lib/admin/staff-events";
import { db } from "@/lib/db/client";
import { adminSessionCookie, testOwner, testPerson } from "../../../harness/support/admin";

// The back office's sign-in, sign-out and session cookie (lib/http/admin-sign-in.ts, better-auth's
// sessions in staff_sessions: lib/admin/staff-auth.ts and staff-session.ts), through the route
// handlers as Next calls them, against the suite's real database (the sign-in limiter counts
// there, and the sessions are its rows). The suite's shop has ADMIN_EMAIL, ADMIN_PASSWORD and
// ADMIN_SESSION_SECRET of its own (harness/isolated-shop.ts): the owner they make signs in with
// `{ password }` alone. What would disturb other files sharing that database (ending sessions
// everywhere, the shop-wide limit, a missing table, an empty staff table) is in
// admin-sessions.test.ts.

const APP = "http://localhost:3000";
const owner = () => ({
  email: process.env.ADMIN_EMAIL!,
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
    twoFactor: (await import("@/app/api/admin/session/two-factor/route")).POST,
    signOut: (await import("@/app/api/admin/session/sign-out/route")).POST,
    guard: (await import("@/lib/http/admin-route-guard")).refuseWithoutAdminSession,
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

/** `{ password }` alone: the owner made from ADMIN_EMAIL and ADMIN_PASSWORD. */
const signInJson = async (password: string, headers?: HeadersInit) =>
  (await routes()).session.POST(request("/api/admin/session", { json: { password }, headers }));

/** `{ email, password }`: anyone's sign-in. */
const signInAs = async (person: { email: string; password: string }, headers?: HeadersInit) =>
  (await routes()).session.POST(
    request("/api/admin/session", { json: { email: person.email, password: person.password }, headers }),
  );

/** The admin_session Set-Cookie header, if any. */
const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith("admin_session="));
/** The cookie's value as the browser sends it back. */
const valueOf = (setCookie: string) => /^[^=]+=([^;]*)/.exec(setCookie)![1]!;
/** The session's token in staff_sessions: the cookie carries it signed (`<token>.<signature>`). */
const tokenOf = (cookieValue: string) => {
  const signed = decodeURIComponent(cookieValue);
  return signed.slice(0, signed.lastIndexOf("."));
};

/**
 * What the guard of the admin API routes says to a request carrying `cookieValue`: a route every
 * role may call (lib/admin/roles.ts), so a live session is let through (200).
 */
async function guardStatus(cookieValue: string, name = "admin_session"): Promise<number> {
  const { guard } = await routes();
  const refusal = await guard(
    request("/api/admin/products", { json: {}, headers: { cookie: `${name}=${cookieValue}` } }),
  );
  return refusal?.status ?? 200;
}

/** A live session's cookie value for `person` (the owner by default), as harness/support/admin.ts opens one. */
const liveSession = async (person?: Pick<Actor, "id">) => valueOf(await adminSessionCookie(person));

describe("signing in", () => {
  it("the right password gets a signed, httpOnly, SameSite=Strict cookie for 8 hours, and the person's name and role", async () => {
    const response = await signInJson(owner().password);
    expect(response.status).toBe(200);
    const body = await response.text();
    const { id } = await testOwner();
    expect(JSON.parse(body)).toEqual({ signedIn: true, person: { id, name: expect.any(String), role: "owner" } });
    const cookie = sessionCookieOf(response)!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toContain(`Max-Age=${STAFF_SESSION_SECONDS}`);
    expect(STAFF_SESSION_SECONDS).toBe(8 * 3600);
    // APP_URL is this machine (http://localhost:3000): a Secure cookie would never come back over http.
    expect(cookie).not.toMatch(/; Secure/i);
    for (const secret of [owner().password, owner().sessionSecret, owner().email]) {
      expect(cookie).not.toContain(secret);
      expect(body).not.toContain(secret);
    }
    // The token is the cookie's alone: not in the body, which a page's scripts could read.
    expect(body).not.toContain(tokenOf(valueOf(cookie)));
    // better-auth's own cookie names never reach the browser.
    expect(response.headers.getSetCookie().filter((line) => line.includes("shop-admin"))).toEqual([]);
    expect(await guardStatus(valueOf(cookie))).toBe(200);
  });

  it("over https the cookie is __Host-admin_session: Secure, Path=/, no Domain; and only that name is read", async () => {
    vi.stubEnv("APP_URL", "https://loja.example.test");
    const response = await signInJson(owner().password, { origin: "https://loja.example.test" });
    expect(response.status).toBe(200);
    expect(sessionCookieOf(response)).toBeUndefined();
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("__Host-admin_session="))!;
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/; Domain=/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toContain(`Max-Age=${STAFF_SESSION_SECONDS}`);
    const value = valueOf(cookie);

    expect(await guardStatus(value, "__Host-admin_session")).toBe(200);
    // The plain name, which a page over http or another subdomain could have set, is not read over https.
    expect(await guardStatus(value, "admin_session")).toBe(401);
  });

  it("on this machine over http the cookie keeps the plain name (a __Host- cookie must be Secure)", async () => {
    const response = await signInJson(owner().password);
    expect(response.headers.getSetCookie().some((line) => line.startsWith("__Host-"))).toBe(false);
    const value = valueOf(sessionCookieOf(response)!);
    expect(await guardStatus(value, "__Host-admin_session")).toBe(401);
    expect(await guardStatus(value)).toBe(200);
  });

  it("the sign-in form is answered with a 303 to /admin, signed in or with the reason", async () => {
    const { session } = await routes();
    const right = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: owner().password } }),
    );
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/admin");
    expect(sessionCookieOf(right)).toMatch(/; HttpOnly/i);

    const wrong = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: "not-it" } }),
    );
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/admin?error=wrong_password");
    expect(sessionCookieOf(wrong)).toBeUndefined();

    const empty = await session.POST(request("/api/admin/session", { form: { email: owner().email, password: "" } }));
    expect(empty.headers.get("location")).toBe("/admin?error=invalid_request");
    expect(sessionCookieOf(empty)).toBeUndefined();
  });

  it("a wrong password gets a 401 and no cookie", async () => {
    for (const password of [
      "wrong",
      `${owner().password} `,
      owner().password.slice(0, -1),
      owner().password.toUpperCase(),
    ]) {
      for (const response of [await signInJson(password), await signInAs({ email: owner().email, password })]) {
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({
          error: { code: "wrong_password", message: "wrong e-mail or password" },
        });
        expect(sessionCookieOf(response)).toBeUndefined();
      }
    }
  });

  it.each([
    ["a JSON body without a password", { json: {} }, 400],
    ["a password that is not a string", { json: { password: 12345678901234 } }, 400],
    ["an e-mail that is not a string", { json: { email: ["owner@shop.example"], password: "x" } }, 400],
    ["an e-mail over 320 characters", { json: { email: `${"a".repeat(320)}@x.example`, password: "x" } }, 400],
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
    const response = await signInJson(owner().password);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("back_office_off");
    expect(sessionCookieOf(response)).toBeUndefined();
    const { session, guard, twoFactor } = await routes();
    const form = await session.POST(request("/api/admin/session", { form: { password: "x" } }));
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin"]);
    const code = await twoFactor(request("/api/admin/session/two-factor", { json: { code: "123456" } }));
    expect(code.status).toBe(404);
    expect((await guard(request("/api/admin/anything", { method: "GET" })))?.status).toBe(404);
  });
});

describe("people sign in with their e-mail and password", () => {
  it("`{ password }` alone is the owner made from ADMIN_EMAIL and ADMIN_PASSWORD; `{ email, password }` anyone", async () => {
    const { id } = await testOwner();
    const asOwner = await signInJson(owner().password);
    expect(((await asOwner.json()) as { person: { id: string } }).person.id).toBe(id);
    expect(
      await db().staffSession.count({ where: { token: tokenOf(valueOf(sessionCookieOf(asOwner)!)), staffId: id } }),
    ).toBe(1);

    const ana = await testPerson("staff", "Ana");
    const asAna = await signInAs(ana);
    expect(asAna.status).toBe(200);
    expect(await asAna.json()).toEqual({ signedIn: true, person: { id: ana.id, name: "Ana", role: "staff" } });
    const token = tokenOf(valueOf(sessionCookieOf(asAna)!));
    const row = await db().staffSession.findUniqueOrThrow({ where: { token } });
    expect(row.staffId).toBe(ana.id);
    // Eight hours from the sign-in, not extended by use.
    // better-auth stamps the two a moment apart.
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - STAFF_SESSION_SECONDS * 1000)).toBeLessThan(
      1000,
    );
    expect(await guardStatus(valueOf(sessionCookieOf(asAna)!))).toBe(200);

    // The e-mail as typed, in any case and with spaces around it.
    expect((await signInAs({ email: `  ${ana.email.toUpperCase()} `, password: ana.password })).status).toBe(200);
    // Ana's password is not the owner's, nor the owner's Ana's.
    expect((await signInAs({ email: ana.email, password: owner().password })).status).toBe(401);
    expect((await signInJson(ana.password)).status).toBe(401);
  });

  it("an unknown e-mail and a wrong password get the same 401, and each counts against the limit", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "2");
    const ana = await testPerson("staff", "Ana");
    const peer = { "x-forwarded-for": newPeer() };
    const unknown = await signInAs({ email: `nobody-${randomUUID()}@shop.example`, password: ana.password }, peer);
    const wrong = await signInAs({ email: ana.email, password: "not-her-password" }, peer);
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(await unknown.json()).toEqual(await wrong.json());
    expect(unknown.headers.getSetCookie()).toEqual([]);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    // Both were counted: the right password, from that address, is refused now.
    expect((await signInAs(ana, peer)).status).toBe(429);
    expect((await signInAs(ana)).status).toBe(200);
  });

  it("a disabled person cannot sign in, and their open session is refused on its next request", async () => {
    const ana = await testPerson("staff", "Ana");
    const open = sessionCookieOf(await signInAs(ana))!;
    expect(await guardStatus(valueOf(open))).toBe(200);

    await db().staff.update({ where: { id: ana.id }, data: { banned: true } });
    expect(await guardStatus(valueOf(open))).toBe(401);
    const sessionsBefore = await db().staffSession.count({ where: { staffId: ana.id } });
    const refused = await signInAs(ana);
    expect(refused.status).toBe(401);
    // Told apart from a wrong password by nothing: the same answer.
    expect(await refused.json()).toEqual({ error: { code: "wrong_password", message: "wrong e-mail or password" } });
    expect(refused.headers.getSetCookie()).toEqual([]);
    const { session } = await routes();
    const form = await session.POST(
      request("/api/admin/session", { form: { email: ana.email, password: ana.password } }),
    );
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=wrong_password"]);
    expect(await db().staffSession.count({ where: { staffId: ana.id } })).toBe(sessionsBefore);

    // Enabled again, she signs in again.
    await db().staff.update({ where: { id: ana.id }, data: { banned: false } });
    expect((await signInAs(ana)).status).toBe(200);
  });
});

describe("who signed in, in staff_events", () => {
  /** The sign-in events of `staffId` (null: of nobody) since `since`, oldest first. */
  const signInEvents = (staffId: string | null, since: Date) =>
    db().staffEvent.findMany({
      where: { staffId, createdAt: { gte: since }, kind: { startsWith: "sign_in" } },
      orderBy: { createdAt: "asc" },
      select: { staffId: true, staffName: true, kind: true, subject: true, details: true },
    });

  it("a failed and a successful sign-in are the person's; an unknown e-mail's failure is nobody's, and keeps neither what was typed", async () => {
    const since = new Date(Date.now() - 1000);
    const ana = await testPerson("staff", "Ana");
    const wrongPassword = `wrong-${randomUUID()}`;
    expect((await signInAs({ email: ana.email, password: wrongPassword })).status).toBe(401);
    expect((await signInAs(ana)).status).toBe(200);
    expect(await signInEvents(ana.id, since)).toEqual([
      {
        staffId: ana.id,
        staffName: "Ana",
        kind: "sign_in.failed",
        subject: null,
        details: { reason: "wrong_password" },
      },
      { staffId: ana.id, staffName: "Ana", kind: "sign_in.succeeded", subject: null, details: {} },
    ]);

    const { id } = await testOwner();
    expect((await signInJson(owner().password)).status).toBe(200);
    expect(await signInEvents(id, since)).toContainEqual(expect.objectContaining({ kind: "sign_in.succeeded" }));

    const stranger = `stranger-${randomUUID()}@shop.example`;
    const strangerPassword = `guess-${randomUUID()}`;
    expect((await signInAs({ email: stranger, password: strangerPassword })).status).toBe(401);
    expect(await signInEvents(null, since)).toContainEqual({
      staffId: null,
      staffName: "",
      kind: "sign_in.failed",
      subject: null,
      details: { reason: "wrong_password" },
    });
    // No row of the record holds a typed e-mail nobody has, nor a password.
    for (const typed of [stranger, strangerPassword, wrongPassword, ana.password, owner().password]) {
      const [{ count }] = await db().$queryRaw<[{ count: bigint }]>`
        SELECT count(*) FROM staff_events
        WHERE staff_name LIKE ${`%${typed}%`} OR subject LIKE ${`%${typed}%`} OR details::text LIKE ${`%${typed}%`}`;
      expect(count, typed).toBe(0n);
    }
  });

  it("a disabled person's refused sign-in is theirs", async () => {
    const since = new Date(Date.now() - 1000);
    const ana = await testPerson("staff", "Ana");
    await db().staff.update({ where: { id: ana.id }, data: { banned: true } });
    expect((await signInAs(ana)).status).toBe(401);
    expect(await signInEvents(ana.id, since)).toEqual([
      expect.objectContaining({ kind: "sign_in.failed", details: { reason: "wrong_password" } }),
    ]);
  });
});

/** The log lines written to the console during `run`. */
async function logLines(run: () => Promise<unknown>) {
  const lines: string[] = [];
  for (const method of ["log", "warn", "error", "info"] as const)
    vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line)));
  await run();
  vi.restoreAllMocks();
  return lines;
}
/** The JSON ones, parsed. */
const parse = (lines: string[]) =>
  lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);

describe("every attempt is logged, never with the password, the e-mail or the cookie", () => {
  it("a failed and a successful sign-in: the event, the client's address and the time", async () => {
    const ana = await testPerson("staff", "Ana");
    const peer = newPeer();
    const wrongPassword = `wrong-${randomUUID()}`;
    const stranger = `stranger-${randomUUID()}@shop.example`;
    let cookie = "";
    const before = Date.now();
    const lines = await logLines(async () => {
      expect((await signInAs({ email: stranger, password: wrongPassword }, { "x-forwarded-for": peer })).status).toBe(
        401,
      );
      expect((await signInAs({ email: ana.email, password: wrongPassword }, { "x-forwarded-for": peer })).status).toBe(
        401,
      );
      const right = await signInAs(ana, { "x-forwarded-for": peer });
      expect(right.status).toBe(200);
      cookie = valueOf(sessionCookieOf(right)!);
    });
    const events = parse(lines).filter((line) => String(line.event).startsWith("admin.sign_in"));
    expect(events).toEqual([
      { level: "warn", event: "admin.sign_in.failed", reason: "wrong_password", address: peer, at: expect.any(String) },
      { level: "warn", event: "admin.sign_in.failed", reason: "wrong_password", address: peer, at: expect.any(String) },
      { level: "info", event: "admin.sign_in.succeeded", address: peer, at: expect.any(String) },
    ]);
    for (const event of events) {
      const at = Date.parse(String(event.at));
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    }
    const all = lines.join("\n");
    for (const secret of [
      wrongPassword,
      ana.password,
      ana.email,
      stranger,
      owner().sessionSecret,
      cookie,
      decodeURIComponent(cookie),
      tokenOf(cookie),
    ])
      expect(all).not.toContain(secret);
  });

  it("a refusal by the limit and a malformed attempt are logged as failures too", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "1");
    const peer = { "x-forwarded-for": newPeer() };
    const lines = await logLines(async () => {
      expect((await signInJson("", peer)).status).toBe(400);
      expect((await signInJson(owner().password, peer)).status).toBe(429);
    });
    expect(parse(lines).filter((line) => line.event === "admin.sign_in.failed")).toEqual([
      expect.objectContaining({ reason: "invalid_request", address: peer["x-forwarded-for"] }),
      expect.objectContaining({ reason: "rate_limited", limit: "admin-sign-in", address: peer["x-forwarded-for"] }),
    ]);
    expect(lines.join("\n")).not.toContain(owner().password);
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
    const wrong = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: "not-it", next } }),
    );
    expect(wrong.status).toBe(303);
    const again = new URL(wrong.headers.get("location")!, APP);
    expect([again.pathname, again.searchParams.get("error"), again.searchParams.get("next")]).toEqual([
      "/admin",
      "wrong_password",
      next,
    ]);
    const right = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: owner().password, next } }),
    );
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
    const response = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: owner().password, next } }),
    );
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
    const response = await signInJson(owner().password, { ...headers, "x-forwarded-for": peer });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("cross_site");
    expect(sessionCookieOf(response)).toBeUndefined();
    const { twoFactor } = await routes();
    const code = await twoFactor(
      request("/api/admin/session/two-factor", {
        json: { code: "123456" },
        headers: { ...headers, "x-forwarded-for": peer },
      }),
    );
    expect(code.status).toBe(403);
    expect((await signInJson(owner().password, { "x-forwarded-for": peer })).status).toBe(200);
  });

  it.each([
    ["the shop's own Origin", { origin: APP }],
    ["the loopback address the browser used (Host)", { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }],
    ["Sec-Fetch-Site: same-origin without Origin", { "sec-fetch-site": "same-origin" }],
    ["neither (not a browser: curl, a script)", {}],
  ])("%s is let in", async (_what, headers) => {
    expect((await signInJson(owner().password, headers)).status).toBe(200);
  });

  it("only APP_URL's origin once the shop is not on this machine", async () => {
    vi.stubEnv("APP_URL", "https://loja.example.test");
    const host = { host: "localhost:3000" };
    expect((await signInJson(owner().password, { origin: "http://localhost:3000", ...host })).status).toBe(403);
    expect((await signInJson(owner().password, { origin: "https://loja.example.test" })).status).toBe(200);
  });

  it("sign-out refuses them too, and leaves the session and the cookie alone", async () => {
    const { session, signOut } = await routes();
    const live = await liveSession();
    const evil = { origin: "https://evil.example.test", cookie: `admin_session=${live}` };
    for (const response of [
      await session.DELETE(request("/api/admin/session", { method: "DELETE", headers: evil })),
      await signOut(request("/api/admin/session/sign-out", { form: {}, headers: evil })),
    ]) {
      expect(response.status).toBe(403);
      expect(sessionCookieOf(response)).toBeUndefined();
    }
    expect(await guardStatus(live)).toBe(200);
  });
});

describe("the sign-in limit", () => {
  it("refuses the attempt after N from one address with a 429 and Retry-After, even with the right password", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "3");
    const peer = { "x-forwarded-for": newPeer() };
    for (let attempt = 0; attempt < 3; attempt++) expect((await signInJson("guess", peer)).status).toBe(401);
    const limited = await signInJson(owner().password, peer);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(sessionCookieOf(limited)).toBeUndefined();

    const { session } = await routes();
    const form = await session.POST(
      request("/api/admin/session", { form: { email: owner().email, password: owner().password }, headers: peer }),
    );
    expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=rate_limited"]);
    expect(sessionCookieOf(form)).toBeUndefined();
    // Another address has its own allowance.
    expect((await signInJson(owner().password)).status).toBe(200);
  });
});

describe("a forged or stale session cookie is no session", () => {
  const HOURS = 3600_000;
  /** A token signed as better-auth signs its cookie (HMAC-SHA256, base64), under `secret`. */
  const signed = (token: string, secret = owner().sessionSecret) =>
    encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`);

  it("the cookie of an open session passes, and the guard refuses the rest with a 401", async () => {
    expect(await guardStatus(await liveSession())).toBe(200);
    const { guard } = await routes();
    const none = await guard(request("/api/admin/anything", { method: "GET" }));
    expect(none?.status).toBe(401);
    expect(await none?.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("a tampered token or signature", async () => {
    const value = decodeURIComponent(await liveSession());
    expect(await guardStatus(encodeURIComponent(value))).toBe(200);
    const cut = value.lastIndexOf(".");
    const [token, signature] = [value.slice(0, cut), value.slice(cut + 1)];
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    const forgeries = [
      `${flip(token, Math.floor(token.length / 2))}.${signature}`,
      `${token}.${flip(signature, 3)}`,
      `${token}.${signature.slice(0, -2)}`,
      `${token}.`,
      token,
      `${value}x`,
      `x${value}`,
      `${token}.${signature}.${signature}`,
      "Fe26.2**abc",
      "admin",
    ];
    for (const forged of forgeries) expect(await guardStatus(encodeURIComponent(forged)), forged).toBe(401);
    // The original, untouched, still passes: the forgeries ended nothing.
    expect(await guardStatus(encodeURIComponent(value))).toBe(200);
  });

  it("a live session's token signed with another secret", async () => {
    const value = decodeURIComponent(await liveSession());
    const token = value.slice(0, value.lastIndexOf("."));
    expect(await guardStatus(signed(token))).toBe(200);
    expect(await guardStatus(signed(token, `another-secret-${randomUUID()}`))).toBe(401);
  });

  it("the cookie of the release before (an iron seal under the same secret) is no session: signing in again once is the price of the deploy", async () => {
    const { createHmac: hmac } = await import("node:crypto");
    const pw = hmac("sha256", owner().sessionSecret)
      .update(`admin-password\u0000${owner().password}`)
      .digest("base64url")
      .slice(0, 22);
    for (const data of [
      { v: 1, iat: Math.floor(Date.now() / 1000), pw },
      { v: 2, sid: randomUUID(), iat: Math.floor(Date.now() / 1000), pw },
    ]) {
      const legacy = await sealData(data, { password: owner().sessionSecret, ttl: STAFF_SESSION_SECONDS });
      expect(await guardStatus(legacy)).toBe(401);
    }
  });

  it("a well-signed token whose session was never opened, or has ended, is no session", async () => {
    expect(await guardStatus(signed(randomUUID().replaceAll("-", "")))).toBe(401);
    const value = await liveSession();
    expect(await guardStatus(value)).toBe(200);
    await db().staffSession.delete({ where: { token: tokenOf(value) } });
    expect(await guardStatus(value)).toBe(401);
  });

  it("an expired session: its row past its time, or 8 hours after the sign-in", async () => {
    const { id } = await testOwner();
    const token = randomUUID().replaceAll("-", "");
    await db().staffSession.create({
      data: {
        id: randomUUID(),
        staffId: id,
        token,
        createdAt: new Date(Date.now() - 9 * HOURS),
        expiresAt: new Date(Date.now() - HOURS),
      },
    });
    expect(await guardStatus(signed(token))).toBe(401);

    const value = valueOf(sessionCookieOf(await signInJson(owner().password))!);
    expect(await guardStatus(value)).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + STAFF_SESSION_SECONDS * 1000 - 60_000);
    expect(await guardStatus(value)).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await guardStatus(value)).toBe(401);
  });
});

describe("signing out", () => {
  it("DELETE clears the cookie (JSON), and the form's POST clears it with a 303 to /admin", async () => {
    const { session, signOut } = await routes();
    const json = await session.DELETE(
      request("/api/admin/session", { method: "DELETE", headers: { cookie: `admin_session=${await liveSession()}` } }),
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ signedIn: false });
    const form = await signOut(
      request("/api/admin/session/sign-out", {
        form: {},
        headers: { cookie: `admin_session=${await liveSession()}`, origin: APP },
      }),
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

  it("ends the session: a copy of the cookie kept from before is refused afterwards, by the API and by sign out everywhere", async () => {
    const since = new Date(Date.now() - 1000);
    const ana = await testPerson("staff", "Ana");
    const value = valueOf(sessionCookieOf(await signInAs(ana))!);
    expect(await db().staffSession.count({ where: { token: tokenOf(value) } })).toBe(1);
    expect(await guardStatus(value)).toBe(200);

    const { signOut } = await routes();
    const out = await signOut(
      request("/api/admin/session/sign-out", { form: {}, headers: { cookie: `admin_session=${value}`, origin: APP } }),
    );
    expect(out.status).toBe(303);
    expect(await db().staffSession.count({ where: { token: tokenOf(value) } })).toBe(0);
    expect(
      await db().staffEvent.count({ where: { staffId: ana.id, kind: "sign_out", createdAt: { gte: since } } }),
    ).toBe(1);

    // The copy, replayed: 401 JSON for the API, the sign-in for a browser's form post.
    const { guard } = await routes();
    const replayed = { cookie: `admin_session=${value}`, origin: APP };
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

describe("two-factor sign-in (an authenticator app's code)", () => {
  /**
   * Turns two-factor on for `person` as the account page does, through better-auth's API with
   * the person's session: the app's secret (from the otpauth:// address it would show as a QR
   * code), confirmed by a first code. Returns the app's codes and the backup codes.
   */
  async function withAuthenticator(person: Actor & { password: string }) {
    const auth = staffAuth()!;
    // The signed token, as better-auth reads it from its own cookie.
    let session = decodeURIComponent(await liveSession(person));
    const enabled = await auth.api.enableTwoFactor({
      body: { password: person.password },
      headers: libraryHeaders({ session }),
      returnHeaders: true,
    });
    const { totpURI, backupCodes } = enabled.response as { totpURI: string; backupCodes: string[] };
    session = libraryCookiesOf(enabled.headers).session || session;
    await auth.api.verifyTOTP({ body: { code: totpCode(totpURI) }, headers: libraryHeaders({ session }) });
    expect((await db().staff.findUniqueOrThrow({ where: { id: person.id } })).twoFactorEnabled).toBe(true);
    return { code: async () => totpCode(totpURI), backupCodes };
  }

  /** A code that is not `right`. */
  const wrongCode = (right: string) => (right === "000000" ? "111111" : "000000");

  /** The pending step's Set-Cookie header, if any. */
  const twoFactorCookieOf = (response: Response) =>
    response.headers.getSetCookie().find((cookie) => cookie.startsWith("admin_two_factor="));

  async function sendCode(code: string, pending: string | undefined, headers: Record<string, string> = {}) {
    const { twoFactor } = await routes();
    return twoFactor(
      request("/api/admin/session/two-factor", {
        json: { code },
        headers: { ...(pending ? { cookie: `admin_two_factor=${pending}` } : {}), ...headers },
      }),
    );
  }

  it("the password opens a ten-minute step, not a session; the right code opens the session", async () => {
    const since = new Date(Date.now() - 1000);
    const ana = await testPerson("staff", "Ana");
    const app = await withAuthenticator(ana);
    const sessionsBefore = await db().staffSession.count({ where: { staffId: ana.id } });

    const step = await signInAs(ana);
    expect(step.status).toBe(200);
    expect(await step.json()).toEqual({ signedIn: false, twoFactorRequired: true });
    expect(sessionCookieOf(step)).toBeUndefined();
    const pending = twoFactorCookieOf(step)!;
    expect(pending).toMatch(/; HttpOnly/i);
    expect(pending).toMatch(/; SameSite=Strict/i);
    expect(pending).toMatch(/; Path=\//);
    expect(pending).toContain(`Max-Age=${ADMIN_TWO_FACTOR_SECONDS}`);
    expect(ADMIN_TWO_FACTOR_SECONDS).toBe(600);
    // The password alone opened no session.
    expect(await db().staffSession.count({ where: { staffId: ana.id } })).toBe(sessionsBefore);
    expect(
      await db().staffEvent.count({ where: { staffId: ana.id, kind: "sign_in.succeeded", createdAt: { gte: since } } }),
    ).toBe(0);

    const signedIn = await sendCode(await app.code(), valueOf(pending));
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ signedIn: true, person: { id: ana.id, name: "Ana", role: "staff" } });
    const cookie = sessionCookieOf(signedIn)!;
    expect(cookie).toContain(`Max-Age=${STAFF_SESSION_SECONDS}`);
    expect(await guardStatus(valueOf(cookie))).toBe(200);
    // The step is over: its cookie is cleared, and it opens nothing again.
    expect(twoFactorCookieOf(signedIn)).toMatch(/^admin_two_factor=;.*Max-Age=0/);
    expect((await sendCode(await app.code(), valueOf(pending))).status).toBe(401);
    expect(
      await db().staffEvent.count({ where: { staffId: ana.id, kind: "sign_in.succeeded", createdAt: { gte: since } } }),
    ).toBe(1);
  });

  it("a wrong code is a 401 wrong_code and no session; without the step's cookie, a 401 too", async () => {
    const since = new Date(Date.now() - 1000);
    const ana = await testPerson("staff", "Ana");
    const app = await withAuthenticator(ana);
    const pending = valueOf(twoFactorCookieOf(await signInAs(ana))!);
    const right = await app.code();
    const refused = await sendCode(wrongCode(right), pending);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { code: "wrong_code", message: "wrong or expired code" } });
    expect(sessionCookieOf(refused)).toBeUndefined();
    expect(await signInEventsOf(ana.id, since)).toEqual([
      { kind: "sign_in.failed", details: { reason: "wrong_code" } },
    ]);

    const none = await sendCode(right, undefined);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("no_sign_in");
    const forged = await sendCode(right, encodeURIComponent(`${randomUUID()}.c2lnbmF0dXJl`));
    expect(forged.status).toBe(401);
    expect(sessionCookieOf(forged)).toBeUndefined();
    for (const malformed of ["12345", "1234567", "abc", "", "x".repeat(25)])
      expect((await sendCode(malformed, pending)).status, malformed).toBe(400);

    // The step is still open after the wrong code: the right one signs in.
    expect((await sendCode(right, pending)).status).toBe(200);
  });

  it("codes count against the same limit as passwords", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "3");
    const ana = await testPerson("staff", "Ana");
    const app = await withAuthenticator(ana);
    const peer = { "x-forwarded-for": newPeer() };
    const pending = valueOf(twoFactorCookieOf(await signInAs(ana, peer))!);
    expect((await sendCode("000001", pending, peer)).status).toBe(401);
    expect((await sendCode("000002", pending, peer)).status).toBe(401);
    const limited = await sendCode(await app.code(), pending, peer);
    expect(limited.status).toBe(429);
    expect(sessionCookieOf(limited)).toBeUndefined();
    // From another address (a fresh one: the default address may have spent its three this minute), the step goes on.
    expect((await sendCode(await app.code(), pending, { "x-forwarded-for": newPeer() })).status).toBe(200);
  });

  it("the step's attempts are logged with the address, never with the code, the e-mail or a cookie", async () => {
    const ana = await testPerson("staff", "Ana");
    const app = await withAuthenticator(ana);
    const peer = newPeer();
    const cookies: string[] = [];
    const codes: string[] = [];
    const lines = await logLines(async () => {
      const pending = valueOf(twoFactorCookieOf(await signInAs(ana, { "x-forwarded-for": peer }))!);
      codes.push(wrongCode(await app.code()), await app.code());
      expect((await sendCode(codes[0]!, pending, { "x-forwarded-for": peer })).status).toBe(401);
      const signedIn = await sendCode(codes[1]!, pending, { "x-forwarded-for": peer });
      expect(signedIn.status).toBe(200);
      cookies.push(pending, valueOf(sessionCookieOf(signedIn)!));
    });
    expect(parse(lines).filter((line) => String(line.event).startsWith("admin.sign_in"))).toEqual([
      { level: "info", event: "admin.sign_in.succeeded", step: "two_factor", address: peer, at: expect.any(String) },
      {
        level: "warn",
        event: "admin.sign_in.failed",
        reason: "wrong_code",
        step: "two_factor",
        address: peer,
        at: expect.any(String),
      },
      { level: "info", event: "admin.sign_in.succeeded", address: peer, at: expect.any(String) },
    ]);
    const all = lines.join("\n");
    for (const secret of [...codes, ...cookies, ...cookies.map(decodeURIComponent), ana.email, ana.password])
      expect(all).not.toContain(secret);
  });

  it("a backup code signs in once", async () => {
    const ana = await testPerson("staff", "Ana");
    const { backupCodes } = await withAuthenticator(ana);
    expect(backupCodes.length).toBeGreaterThan(1);
    const [first, second] = backupCodes as [string, string];
    const once = await sendCode(first, valueOf(twoFactorCookieOf(await signInAs(ana))!));
    expect(once.status).toBe(200);
    expect(await guardStatus(valueOf(sessionCookieOf(once)!))).toBe(200);
    const twice = await sendCode(first, valueOf(twoFactorCookieOf(await signInAs(ana))!));
    expect(twice.status).toBe(401);
    expect(((await twice.json()) as { error: { code: string } }).error.code).toBe("wrong_code");
    expect((await sendCode(second, valueOf(twoFactorCookieOf(await signInAs(ana))!))).status).toBe(200);
  });

  it("the sign-in form goes to the code's form, which goes on to `next`, or back with the reason", async () => {
    const ana = await testPerson("staff", "Ana");
    const app = await withAuthenticator(ana);
    const next = "/admin/orders";
    const { session, twoFactor } = await routes();
    const step = await session.POST(
      request("/api/admin/session", { form: { email: ana.email, password: ana.password, next } }),
    );
    expect([step.status, step.headers.get("location")]).toEqual([303, "/admin?step=two-factor&next=%2Fadmin%2Forders"]);
    const pending = { cookie: `admin_two_factor=${valueOf(twoFactorCookieOf(step)!)}` };
    const wrong = await twoFactor(
      request("/api/admin/session/two-factor", {
        form: { code: wrongCode(await app.code()), next },
        headers: pending,
      }),
    );
    const again = new URL(wrong.headers.get("location")!, APP);
    expect([wrong.status, again.pathname, again.searchParams.get("error"), again.searchParams.get("step")]).toEqual([
      303,
      "/admin",
      "wrong_code",
      "two-factor",
    ]);
    expect(again.searchParams.get("next")).toBe(next);
    const right = await twoFactor(
      request("/api/admin/session/two-factor", { form: { code: await app.code(), next }, headers: pending }),
    );
    expect([right.status, right.headers.get("location")]).toEqual([303, next]);
    expect(sessionCookieOf(right)).toMatch(/; HttpOnly/i);
  });
});

/** `staffId`'s sign-in events since `since`, kind and details only, oldest first. */
const signInEventsOf = (staffId: string, since: Date) =>
  db().staffEvent.findMany({
    where: { staffId, createdAt: { gte: since }, kind: { startsWith: "sign_in" } },
    orderBy: { createdAt: "asc" },
    select: { kind: true, details: true },
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
