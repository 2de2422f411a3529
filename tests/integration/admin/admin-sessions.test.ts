import { randomInt, randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DRAFT_TEXT_BYTES, unsealDraft } from "@/lib/http/admin-draft";
import { STAFF_SESSION_SECONDS } from "@/lib/admin/staff-auth";
import { PRUNED_PER_SIGN_IN } from "@/lib/admin/staff-session";
import type { Actor } from "@/lib/admin/staff-events";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createRateLimits } from "@/lib/db/rate-limit";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import {
  ADMIN_APP,
  adminRequest,
  adminSessionCookie,
  testOwner,
  testPerson,
  type AdminCaller,
} from "../../../harness/support/admin";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The back office's sessions and its sign-in's limits where they touch the whole shop: "sign out
// everywhere" (which ends every session of a person), the shop-wide cap on sign-in attempts, the
// counters' and the sessions' tables going missing, the expired sessions a sign-in deletes, a
// role the code does not know. So against a database of this file's own: the suite's other files
// keep their sessions, counters and tables. And a form post whose session had ended, sent back to
// the sign-in with a draft of what was typed.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

/** PostgreSQL (CI), not embedded PGlite, whose one session cannot hold two transactions at once. */
const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase("admin-sessions");
  await applyMigrations({ connectionString: database.url });
  pool = new pg.Pool({ connectionString: database.url, max: server ? 5 : 1 });
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: server ? 5 : 1 }) });
  Object.assign(shared, { client, pool });
});
afterAll(async () => {
  await client?.$disconnect();
  await pool?.end();
  await database?.drop();
});
beforeEach(async () => {
  // Each test counts from nothing; the limiters are fresh modules too (routes()).
  await pool.query("DELETE FROM rate_limits");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const admin = () => ({
  password: process.env.ADMIN_PASSWORD!,
  sessionSecret: process.env.ADMIN_SESSION_SECRET!,
});
const newPeer = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;

async function routes() {
  vi.resetModules();
  return {
    session: (await import("@/app/api/admin/session/route")).POST,
    everywhere: (await import("@/app/api/admin/session/sign-out-everywhere/route")).POST,
    guard: (await import("@/lib/http/admin-route-guard")).refuseWithoutAdminSession,
    product: (await import("@/app/api/admin/products/[id]/route")).POST,
  };
}

/** A request of nobody signed in, from `peer`. */
const anonymous = (path: string, caller: AdminCaller & { peer?: string } = {}) =>
  adminRequest(path, {
    ...caller,
    session: false,
    headers: { "x-forwarded-for": caller.peer ?? newPeer(), ...caller.headers },
  });

/** A sign-in with `password`: the owner's (`{ password }` alone), or `email`'s. */
async function signIn(password: string, caller: { peer?: string; form?: boolean; next?: string; email?: string } = {}) {
  const { session } = await routes();
  const fields = { ...(caller.email ? { email: caller.email } : {}), password };
  const body = caller.form ? { form: { ...fields, ...(caller.next ? { next: caller.next } : {}) } } : { json: fields };
  return session(await anonymous("/api/admin/session", { ...body, peer: caller.peer }));
}

/** The session cookie's value a response set. */
const cookieOf = (response: Response) =>
  /^admin_session=([^;]+)/.exec(
    response.headers.getSetCookie().find((line) => line.startsWith("admin_session="))!,
  )![1]!;
/** The session's token in staff_sessions: the cookie carries it signed (`<token>.<signature>`). */
const tokenOf = (cookieValue: string) => {
  const signed = decodeURIComponent(cookieValue);
  return signed.slice(0, signed.lastIndexOf("."));
};
/** A live session's cookie value for `person`, opened as better-auth opens one. */
const liveSession = async (person?: Pick<Actor, "id">) => (await adminSessionCookie(person)).split("=")[1]!;

/** 200 when the guard of the API routes lets `cookie` in (on a route every role may call), else its status. */
async function guardStatus(cookie: string) {
  const { guard } = await routes();
  const refusal = await guard(
    await adminRequest("/api/admin/products", {
      json: {},
      session: false,
      headers: { cookie: `admin_session=${cookie}` },
    }),
  );
  return refusal?.status ?? 200;
}

/** The JSON log lines written to the console during `run`. */
async function logged(run: () => Promise<unknown>) {
  const lines: Record<string, unknown>[] = [];
  for (const method of ["log", "warn", "error"] as const)
    vi.spyOn(console, method).mockImplementation((line: unknown) => {
      if (String(line).startsWith("{")) lines.push(JSON.parse(String(line)) as Record<string, unknown>);
    });
  await run();
  vi.restoreAllMocks();
  return lines;
}

describe("sign out everywhere", () => {
  it("ends every session of the person, the other computer's too, and clears this one's cookie; another person's sessions go on", async () => {
    const owner = await testOwner();
    await client.staffSession.deleteMany({ where: { staffId: owner.id } });
    const [here, there] = [cookieOf(await signIn(admin().password)), cookieOf(await signIn(admin().password))];
    expect([await guardStatus(here), await guardStatus(there)]).toEqual([200, 200]);
    const ana = await testPerson("staff", "Ana");
    const anas = [cookieOf(await signIn(ana.password, { email: ana.email })), await liveSession(ana)];

    const { everywhere } = await routes();
    const lines = await logged(async () => {
      const response = await everywhere(
        await adminRequest("/api/admin/session/sign-out-everywhere", {
          session: false,
          form: {},
          headers: { cookie: `admin_session=${here}` },
        }),
      );
      expect([response.status, response.headers.get("location")]).toEqual([303, "/admin?signedOut=everywhere"]);
      expect(response.headers.getSetCookie().find((line) => line.startsWith("admin_session="))).toMatch(
        /^admin_session=;.*Max-Age=0/,
      );
    });
    expect(lines).toContainEqual(expect.objectContaining({ event: "admin.sign_out_everywhere", ended: 2 }));
    expect(await client.staffSession.count({ where: { staffId: owner.id } })).toBe(0);
    expect([await guardStatus(here), await guardStatus(there)]).toEqual([401, 401]);
    // Ana's are hers: the owner signing out everywhere ends none of them.
    expect(await client.staffSession.count({ where: { staffId: ana.id } })).toBe(2);
    expect([await guardStatus(anas[0]!), await guardStatus(anas[1]!)]).toEqual([200, 200]);
    // Recorded as the owner's.
    expect(
      await client.staffEvent.findMany({
        where: { staffId: owner.id, kind: "sign_out" },
        select: { staffId: true, kind: true, details: true },
      }),
    ).toContainEqual({ staffId: owner.id, kind: "sign_out", details: { everywhere: true, ended: 2 } });
  });

  it("a staff member ends their own sessions, and nobody else's", async () => {
    const owner = await testOwner();
    const ownersBefore = await client.staffSession.count({ where: { staffId: owner.id } });
    const ownersLive = await liveSession(owner);
    const ana = await testPerson("staff", "Ana");
    const [here, there] = [await liveSession(ana), await liveSession(ana)];
    const { everywhere } = await routes();
    const response = await everywhere(
      await adminRequest("/api/admin/session/sign-out-everywhere", {
        session: false,
        json: {},
        headers: { cookie: `admin_session=${here}` },
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ signedIn: false, ended: 2 });
    expect([await guardStatus(here), await guardStatus(there)]).toEqual([401, 401]);
    expect(await guardStatus(ownersLive)).toBe(200);
    expect(await client.staffSession.count({ where: { staffId: owner.id } })).toBe(ownersBefore + 1);
  });

  it("needs a session of its own, and answers a JSON client with JSON", async () => {
    await client.staffSession.deleteMany({ where: { staffId: (await testOwner()).id } });
    const live = cookieOf(await signIn(admin().password));
    const { everywhere } = await routes();
    const without = await everywhere(await anonymous("/api/admin/session/sign-out-everywhere", { json: {} }));
    expect(without.status).toBe(401);
    expect(await guardStatus(live)).toBe(200);
    const withSession = await everywhere(
      await adminRequest("/api/admin/session/sign-out-everywhere", {
        session: false,
        json: {},
        headers: { cookie: `admin_session=${live}` },
      }),
    );
    expect(withSession.status).toBe(200);
    expect(await withSession.json()).toEqual({ signedIn: false, ended: 1 });
    expect(await guardStatus(live)).toBe(401);
  });
});

describe("sign-in fails closed", () => {
  it("with the counters' table gone, sign-in is refused with a 503 (the form with a sentence), while other limits let requests through", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "5");
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE", "30");
    await pool.query("ALTER TABLE rate_limits RENAME TO rate_limits_away");
    try {
      const sessionsBefore = await client.staffSession.count();
      const peer = newPeer();
      const lines = await logged(async () => {
        const json = await signIn(admin().password, { peer });
        expect(json.status).toBe(503);
        expect(Number(json.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(await json.json()).toEqual({
          error: { code: "rate_limit_unavailable", message: expect.stringMatching(/\S/) },
        });
        expect(json.headers.getSetCookie()).toEqual([]);

        const form = await signIn(admin().password, { peer, form: true, next: "/admin/orders" });
        expect(form.status).toBe(303);
        const location = new URL(form.headers.get("location")!, ADMIN_APP);
        expect([location.pathname, location.searchParams.get("error"), location.searchParams.get("next")]).toEqual([
          "/admin",
          "unavailable",
          "/admin/orders",
        ]);
        expect(form.headers.getSetCookie()).toEqual([]);
      });
      expect(await client.staffSession.count()).toBe(sessionsBefore);
      expect(lines).toContainEqual(
        expect.objectContaining({ event: "admin.sign_in.failed", reason: "limiter_unavailable", address: peer }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({ event: "rate_limit.unavailable", limit: "admin-sign-in", failClosed: true }),
      );
      expect(JSON.stringify(lines)).not.toContain(admin().password);

      // The same limiter, for any other limit, still fails open.
      const { consumeRateLimit } = await import("@/lib/db/rate-limit");
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      expect(await consumeRateLimit("create-order", peer, { pointsPerMinute: 1 })).toEqual({ ok: true });
      expect(warn).toHaveBeenCalled();
    } finally {
      await pool.query("ALTER TABLE rate_limits_away RENAME TO rate_limits");
    }
    vi.restoreAllMocks();
    expect((await signIn(admin().password)).status).toBe(200);
  });

  it("a pool whose every query throws: a fail-closed limit refuses, an ordinary one lets through", async () => {
    const broken = { query: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")) };
    const log = vi.fn();
    const limits = createRateLimits(broken, { log });
    expect(await limits.consume("admin-sign-in", "x", { pointsPerMinute: 5, failClosed: true })).toEqual({
      ok: false,
      reason: "unavailable",
      retryAfterSeconds: expect.any(Number),
    });
    expect(await limits.consume("create-order", "x", { pointsPerMinute: 5 })).toEqual({ ok: true });
    expect(log.mock.calls.map(([level, event]) => `${level} ${event}`)).toEqual([
      "warn rate_limit.unavailable",
      "warn rate_limit.unavailable",
    ]);
  });
});

describe("without its sessions' table", () => {
  it("the right password is refused with a 503 (no 500), sign-out says the session was not ended, and the guard answers 503", async () => {
    const live = cookieOf(await signIn(admin().password));
    await pool.query("ALTER TABLE staff_sessions RENAME TO staff_sessions_away");
    try {
      const lines = await logged(async () => {
        const json = await signIn(admin().password);
        expect(json.status).toBe(503);
        expect(((await json.json()) as { error: { code: string } }).error.code).toBe("unavailable");
        expect(json.headers.getSetCookie()).toEqual([]);
        const form = await signIn(admin().password, { form: true });
        expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=unavailable"]);

        const { guard } = await routes();
        const refusal = await guard(
          await adminRequest("/api/admin/anything", {
            method: "GET",
            session: false,
            headers: { cookie: `admin_session=${live}` },
          }),
        );
        expect(refusal?.status).toBe(503);

        const signOut = (await import("@/app/api/admin/session/route")).DELETE;
        const out = await signOut(
          await adminRequest("/api/admin/session", {
            method: "DELETE",
            session: false,
            headers: { cookie: `admin_session=${live}` },
          }),
        );
        expect(out.status).toBe(503);
        expect(out.headers.getSetCookie().find((line) => line.startsWith("admin_session="))).toMatch(/Max-Age=0/);
      });
      expect(lines).toContainEqual(
        expect.objectContaining({ event: "admin.sign_in.failed", reason: "session_unavailable" }),
      );
    } finally {
      await pool.query("ALTER TABLE staff_sessions_away RENAME TO staff_sessions");
    }
    expect(await guardStatus(live)).toBe(200);
  });
});

describe("the shop-wide cap on sign-in attempts", () => {
  it("refuses the attempt after N from different addresses, the right password too", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "5");
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE", "4");
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await signIn(`guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const peer = newPeer();
    const lines = await logged(async () => {
      const refused = await signIn(admin().password, { peer });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
      expect(refused.headers.getSetCookie()).toEqual([]);
      const form = await signIn(admin().password, { form: true });
      expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=rate_limited"]);
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "admin.sign_in.failed",
        reason: "rate_limited",
        limit: "admin-sign-in-shop",
        address: peer,
      }),
    );
  });

  it("an address over its own limit does not use up the shop's: its refused attempts are not counted there", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "1");
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE", "3");
    const flooder = newPeer();
    const flood = [];
    for (let i = 0; i < 6; i++) flood.push((await signIn(`guess-${i}`, { peer: flooder })).status);
    expect(flood).toEqual([401, 429, 429, 429, 429, 429]);
    expect((await signIn("guess")).status).toBe(401);
    expect((await signIn(admin().password)).status).toBe(200);
    expect((await signIn(admin().password)).status).toBe(429);
  });

  it("0 turns it off", async () => {
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE", "5");
    vi.stubEnv("RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE", "0");
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(`guess-${i}`)).status);
    expect(statuses).toEqual(Array(8).fill(401));
    const { rows } = await pool.query("SELECT key FROM rate_limits WHERE key LIKE 'admin-sign-in-shop:%'");
    expect(rows).toEqual([]);
  });
});

describe("sessions' rows", () => {
  it("a sign-in deletes expired rows, at most 100, and keeps open ones", async () => {
    await client.staffSession.deleteMany({});
    const owner = await testOwner();
    const HOUR = 3600_000;
    const expired = (i: number) => ({
      id: randomUUID(),
      staffId: owner.id,
      token: randomUUID(),
      createdAt: new Date(Date.now() - 9 * HOUR - i),
      expiresAt: new Date(Date.now() - HOUR - i),
    });
    await client.staffSession.createMany({ data: Array.from({ length: 130 }, (_, i) => expired(i)) });
    const open = cookieOf(await signIn(admin().password));
    // That sign-in already took 100 of them.
    expect(PRUNED_PER_SIGN_IN).toBe(100);
    expect(await client.staffSession.count()).toBe(31);
    const response = await signIn(admin().password);
    expect(response.status).toBe(200);
    const tokens = (await client.staffSession.findMany({ select: { token: true } })).map((row) => row.token).sort();
    const expected = [tokenOf(open), tokenOf(cookieOf(response))];
    expect(tokens).toEqual(expected.sort());
    const row = await client.staffSession.findUniqueOrThrow({ where: { token: expected[0]! } });
    // better-auth stamps the two a moment apart.
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - STAFF_SESSION_SECONDS * 1000)).toBeLessThan(
      1000,
    );
    expect([await guardStatus(open), await guardStatus(cookieOf(response))]).toEqual([200, 200]);
  });
});

describe("a role the code does not know", () => {
  it("is no session, and signs nobody in (a database a later release wrote to, this release's code)", async () => {
    const ana = await testPerson("staff", "Ana");
    const live = await liveSession(ana);
    expect(await guardStatus(live)).toBe(200);
    // The database refuses any role but the table's: a later release's migration would have widened it.
    await pool.query("ALTER TABLE staff DROP CONSTRAINT staff_role_check");
    try {
      await pool.query("UPDATE staff SET role = 'courier' WHERE id = $1", [ana.id]);
      expect(await guardStatus(live)).toBe(401);
      const sessionsBefore = await client.staffSession.count({ where: { staffId: ana.id } });
      const json = await signIn(ana.password, { email: ana.email });
      expect(json.status).toBe(401);
      expect(await json.json()).toEqual({ error: { code: "wrong_password", message: "wrong e-mail or password" } });
      expect(json.headers.getSetCookie()).toEqual([]);
      const form = await signIn(ana.password, { email: ana.email, form: true });
      expect([form.status, form.headers.get("location")]).toEqual([303, "/admin?error=wrong_password"]);
      expect(form.headers.getSetCookie()).toEqual([]);
      // No session was left behind for that role either.
      expect(await client.staffSession.count({ where: { staffId: ana.id } })).toBe(sessionsBefore);
    } finally {
      await pool.query("UPDATE staff SET role = 'staff' WHERE id = $1", [ana.id]);
      await pool.query("ALTER TABLE staff ADD CONSTRAINT staff_role_check CHECK (role IN ('owner', 'staff'))");
    }
    expect(await guardStatus(live)).toBe(200);
  });
});

describe("a form posted after its session ended", () => {
  const productId = randomUUID();
  const productPage = `/admin/products/${productId}`;
  const fields = {
    name: "Café de Ganda, moído",
    slug: "cafe-de-ganda-moido",
    description: "Torra média; notas de cacau.",
    priceAoa: "4500",
    stock: "12",
    stockShown: "10",
    stockReason: "contagem",
    imageAlt: "Pacote de café",
  };

  it("goes to the sign-in, which names the page it was on, with its text fields in a sealed draft; files are lost", async () => {
    const { product } = await routes();
    const response = await product(
      await anonymous(`/api/admin/products/${productId}`, {
        multipart: { fields, image: Buffer.from("not really a png") },
        headers: { referer: `${ADMIN_APP}${productPage}?done=saved&edit=x` },
      }),
      { params: Promise.resolve({ id: productId }) },
    );
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!, ADMIN_APP);
    expect([location.pathname, location.searchParams.get("expired")]).toEqual(["/admin", "1"]);
    const next = new URL(location.searchParams.get("next")!, ADMIN_APP);
    // The page the form was on, without its old outcome (done=saved) but with what it was showing.
    expect(next.pathname).toBe(productPage);
    expect(next.searchParams.get("done")).toBeNull();
    expect(next.searchParams.get("edit")).toBe("x");

    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("admin_draft="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Max-Age=900/);
    expect(cookie.length).toBeLessThan(4096);
    expect(cookie).not.toContain("Ganda");
    const draft = await unsealDraft(/^admin_draft=([^;]+)/.exec(cookie)![1], admin());
    expect(draft).toMatchObject({
      id: next.searchParams.get("draft"),
      action: `/api/admin/products/${productId}`,
      filesLost: true,
      textLost: false,
    });
    expect(Object.fromEntries(draft!.fields)).toEqual(fields);

    // Signing in with the form's `next` lands back on that page, draft named.
    const back = await signIn(admin().password, { form: true, next: `${next.pathname}${next.search}` });
    expect([back.status, back.headers.get("location")]).toEqual([303, `${next.pathname}${next.search}`]);
  });

  it("keeps what fits in a cookie and says the rest was lost", async () => {
    const { product } = await routes();
    const long = { ...fields, description: "ção".repeat(1000) };
    const response = await product(
      await anonymous(`/api/admin/products/${productId}`, {
        form: long,
        headers: { referer: `${ADMIN_APP}${productPage}` },
      }),
      { params: Promise.resolve({ id: productId }) },
    );
    expect(response.status).toBe(303);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("admin_draft="))!;
    expect(cookie.length).toBeLessThan(4096);
    const draft = (await unsealDraft(/^admin_draft=([^;]+)/.exec(cookie)![1], admin()))!;
    expect(draft.textLost).toBe(true);
    expect(draft.filesLost).toBe(false);
    expect(Object.fromEntries(draft.fields)).toEqual({ ...fields, description: undefined });
    expect(JSON.stringify(draft.fields).length).toBeLessThanOrEqual(DRAFT_TEXT_BYTES);
  });

  it("from a page of another site (Referer), back to /admin; from another site (Origin), 403 and no draft; a JSON client, 401", async () => {
    const { product } = await routes();
    const post = async (caller: AdminCaller) =>
      product(await anonymous(`/api/admin/products/${productId}`, caller), {
        params: Promise.resolve({ id: productId }),
      });
    const elsewhere = await post({ form: fields, headers: { referer: `https://evil.example.test${productPage}` } });
    const next = new URL(new URL(elsewhere.headers.get("location")!, ADMIN_APP).searchParams.get("next")!, ADMIN_APP);
    expect(next.pathname).toBe("/admin");

    const crossSite = await post({ form: fields, crossSite: true });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);

    const json = await post({ json: fields, headers: { referer: `${ADMIN_APP}${productPage}` } });
    expect(json.status).toBe(401);
    expect(json.headers.getSetCookie()).toEqual([]);
    const multipartJson = await post({ multipart: { fields }, accept: "application/json" });
    expect(multipartJson.status).toBe(401);
  });
});
