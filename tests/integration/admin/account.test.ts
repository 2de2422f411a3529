import { unsealData } from "iron-session";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { forgetOwnerCheck } from "@/lib/admin/owner";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { ADMIN_APP, adminRequest, adminSessionCookie, testOwner, testPerson } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { totpCode } from "../../../harness/support/totp";

// A person's own account (lib/admin/account.ts through app/api/admin/account): a new password
// that ends their other sessions, and two-factor sign-in turned on with the password, confirmed
// by the app's first code (the backup codes shown once), and turned off; against a database of
// this file's own.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("account");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
  forgetOwnerCheck();
  await testOwner();
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
afterEach(() => settleAfterTasks());

type Body = { json: unknown } | { form: Record<string, string> };

async function post(path: "/api/admin/account" | "/api/admin/account/two-factor", cookie: string, body: Body) {
  const route =
    path === "/api/admin/account"
      ? await import("@/app/api/admin/account/route")
      : await import("@/app/api/admin/account/two-factor/route");
  return route.POST(await adminRequest(path, { session: false, headers: { cookie }, ...body }));
}
const json = async (response: Response) => (await response.json()) as Record<string, any>;

/** 200 when the API routes' guard lets this Cookie header in, else its status. */
async function guardStatus(cookie: string) {
  const { refuseWithoutAdminSession } = await import("@/lib/http/admin-route-guard");
  const refusal = await refuseWithoutAdminSession(
    await adminRequest("/api/admin/products", { session: false, headers: { cookie }, json: {} }),
  );
  return refusal?.status ?? 200;
}

/** The sign-in route's answer for this e-mail and password. */
async function signIn(email: string, password: string) {
  const { POST } = await import("@/app/api/admin/session/route");
  const response = await POST(await adminRequest("/api/admin/session", { session: false, json: { email, password } }));
  return { status: response.status, body: await json(response) };
}

/** The session cookie an answer sets, as a Cookie header. */
const sessionCookieOf = (response: Response) => {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("admin_session="));
  return line && /^(admin_session=[^;]*)/.exec(line)![1]!;
};

const events = (staffId: string, kind: string) => client.staffEvent.findMany({ where: { staffId, kind } });

describe("a new password of one's own", () => {
  it("needs the current one (400 wrong_password, nothing changed), then ends the other sessions but not this one", async () => {
    const ana = await testPerson("staff", "Ana", "the first password");
    const [here, there] = [await adminSessionCookie(ana), await adminSessionCookie(ana)];

    const wrong = await post("/api/admin/account", here, {
      json: { currentPassword: "not the password", newPassword: "a brand new password" },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.code).toBe("wrong_password");
    expect(await guardStatus(there)).toBe(200);
    expect(await events(ana.id, "account.password")).toEqual([]);

    const form = await post("/api/admin/account", here, {
      form: { currentPassword: "not the password", newPassword: "a brand new password" },
    });
    expect(form.headers.get("location")).toBe("/admin/account?error=wrong_password&field=currentPassword#password");

    const short = await post("/api/admin/account", here, {
      json: { currentPassword: ana.password, newPassword: "short" },
    });
    expect(short.status).toBe(400);
    expect((await json(short)).error.message).toMatch(/^newPassword /);

    const done = await post("/api/admin/account", here, {
      json: { currentPassword: ana.password, newPassword: "a brand new password" },
    });
    expect(done.status).toBe(200);
    expect(await json(done)).toEqual({ done: "password_changed", otherSessionsEnded: 1 });
    expect([await guardStatus(here), await guardStatus(there)]).toEqual([200, 401]);
    expect((await signIn(ana.email, ana.password)).status).toBe(401);
    expect((await signIn(ana.email, "a brand new password")).status).toBe(200);
    const [event] = await events(ana.id, "account.password");
    expect(event).toMatchObject({ subject: `person:${ana.id}`, details: { otherSessionsEnded: 1 } });
    expect(JSON.stringify(event)).not.toContain("a brand new password");
  });
});

describe("two-factor sign-in", () => {
  it("turned on with the password, confirmed by the app's first code (a new session, the backup codes once), asked at sign-in, turned off with the password", async () => {
    const bruno = await testPerson("staff", "Bruno", "bruno's password");
    const cookie = await adminSessionCookie(bruno);
    // Signed in seven hours ago: one hour left, which turning two-factor on does not extend.
    const ends = new Date(Date.now() + 3600_000);
    await client.staffSession.updateMany({ where: { staffId: bruno.id }, data: { expiresAt: ends } });

    const wrong = await post("/api/admin/account/two-factor", cookie, {
      json: { action: "enable", password: "not bruno's" },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.code).toBe("wrong_password");

    const started = await post("/api/admin/account/two-factor", cookie, {
      json: { action: "enable", password: bruno.password },
    });
    expect(started.status).toBe(200);
    expect(started.headers.get("cache-control")).toBe("no-store");
    const { totpURI, secret } = await json(started);
    expect(totpURI).toMatch(/^otpauth:\/\/totp\//);
    expect(totpURI).toContain(encodeURIComponent(bruno.email));
    expect(secret).toBe(new URL(totpURI).searchParams.get("secret"));
    // Not on until the app's first code confirms it.
    expect(await client.staff.findUniqueOrThrow({ where: { id: bruno.id } })).toMatchObject({
      twoFactorEnabled: false,
    });

    const badCode = await post("/api/admin/account/two-factor", cookie, {
      json: { action: "confirm", code: totpCode(totpURI, 10) },
    });
    expect(badCode.status).toBe(400);
    expect((await json(badCode)).error.code).toBe("wrong_code");
    const notDigits = await post("/api/admin/account/two-factor", cookie, {
      json: { action: "confirm", code: "12ab" },
    });
    expect((await json(notDigits)).error.message).toMatch(/^code /);

    const confirmed = await post("/api/admin/account/two-factor", cookie, {
      json: { action: "confirm", code: totpCode(totpURI) },
    });
    expect(confirmed.status).toBe(200);
    const answer = await json(confirmed);
    expect(answer).toMatchObject({ done: "two_factor_on", twoFactorEnabled: true });
    expect(answer.backupCodes).toHaveLength(10);
    expect(await client.staff.findUniqueOrThrow({ where: { id: bruno.id } })).toMatchObject({ twoFactorEnabled: true });
    // better-auth ended the old session and opened another, which the cookie now carries.
    const renewed = sessionCookieOf(confirmed)!;
    expect(renewed).toBeDefined();
    expect([await guardStatus(cookie), await guardStatus(renewed)]).toEqual([401, 200]);
    const [session] = await client.staffSession.findMany({ where: { staffId: bruno.id } });
    expect(session!.expiresAt).toEqual(ends);
    expect(await events(bruno.id, "account.two_factor")).toMatchObject([{ details: { enabled: true } }]);
    expect(JSON.stringify(await events(bruno.id, "account.two_factor"))).not.toContain(answer.backupCodes[0]);

    // Signing in now asks for the app's code.
    expect(await signIn(bruno.email, bruno.password)).toEqual({
      status: 200,
      body: { signedIn: false, twoFactorRequired: true },
    });

    const again = await post("/api/admin/account/two-factor", renewed, {
      json: { action: "enable", password: bruno.password },
    });
    expect(again.status).toBe(409);

    const off = await post("/api/admin/account/two-factor", renewed, {
      json: { action: "disable", password: bruno.password },
    });
    expect(await json(off)).toEqual({ done: "two_factor_off", twoFactorEnabled: false });
    expect(await client.staffTwoFactor.count({ where: { staffId: bruno.id } })).toBe(0);
    expect((await signIn(bruno.email, bruno.password)).body).toMatchObject({ signedIn: true });
    expect((await events(bruno.id, "account.two_factor")).map((event) => event.details)).toEqual([
      { enabled: true },
      { enabled: false },
    ]);
  });

  it("from the page's forms: the key waits in a sealed cookie, the backup codes are revealed once by the redirect's id", async () => {
    const carla = await testPerson("staff", "Carla", "carla's password");
    const cookie = await adminSessionCookie(carla);
    const started = await post("/api/admin/account/two-factor", cookie, {
      form: { action: "enable", password: carla.password },
    });
    expect(started.headers.get("location")).toBe("/admin/account?done=two_factor_started#two-factor");
    const setupLine = started.headers.getSetCookie().find((line) => line.startsWith("admin_two_factor_setup="))!;
    expect(setupLine).toMatch(/; HttpOnly/i);
    expect(setupLine).toMatch(/; Max-Age=600/);
    const setup = await unsealData<{ for: string; totpURI: string }>(
      /^admin_two_factor_setup=([^;]+)/.exec(setupLine)![1]!,
      {
        password: process.env.ADMIN_SESSION_SECRET!,
      },
    );
    expect(setup.for).toBe(carla.id);
    expect(setupLine).not.toContain(new URL(setup.totpURI).searchParams.get("secret"));

    const confirmed = await post("/api/admin/account/two-factor", cookie, {
      form: { action: "confirm", code: totpCode(setup.totpURI) },
    });
    const location = new URL(confirmed.headers.get("location")!, ADMIN_APP);
    expect([location.pathname, location.searchParams.get("done"), location.hash]).toEqual([
      "/admin/account",
      "two_factor_on",
      "#two-factor",
    ]);
    const cookies = confirmed.headers.getSetCookie();
    expect(cookies.find((line) => line.startsWith("admin_two_factor_setup="))).toMatch(/Max-Age=0/);
    expect(sessionCookieOf(confirmed)).toBeDefined();
    const revealLine = cookies.find((line) => line.startsWith("admin_reveal="))!;
    const reveal = await unsealData<any>(/^admin_reveal=([^;]+)/.exec(revealLine)![1]!, {
      password: process.env.ADMIN_SESSION_SECRET!,
    });
    expect(reveal).toMatchObject({
      id: location.searchParams.get("reveal"),
      for: carla.id,
      secret: { kind: "backup_codes" },
    });
    expect(reveal.secret.codes).toHaveLength(10);
    for (const code of reveal.secret.codes) expect(confirmed.headers.get("location")).not.toContain(code);
  });

  it("cannot be turned off while the owner requires it of everyone", async () => {
    const dina = await testPerson("staff", "Dina", "dina's password");
    await client.staff.update({ where: { id: dina.id }, data: { twoFactorEnabled: true } });
    await client.backOfficeSettings.create({ data: { requireTwoFactor: true } });
    try {
      const cookie = await adminSessionCookie(dina);
      const off = await post("/api/admin/account/two-factor", cookie, {
        json: { action: "disable", password: dina.password },
      });
      expect(off.status).toBe(409);
      expect((await json(off)).error.code).toBe("two_factor_required");
      expect(await client.staff.findUniqueOrThrow({ where: { id: dina.id } })).toMatchObject({
        twoFactorEnabled: true,
      });

      // Someone without it may still change their password there, and nothing else.
      const eva = await testPerson("staff", "Eva", "eva's password");
      const evaCookie = await adminSessionCookie(eva);
      expect(await guardStatus(evaCookie)).toBe(403);
      const changed = await post("/api/admin/account", evaCookie, {
        json: { currentPassword: eva.password, newPassword: "eva's new password" },
      });
      expect(changed.status).toBe(200);
    } finally {
      await client.backOfficeSettings.deleteMany({});
    }
  });

  it("an unknown action is a 400 naming it", async () => {
    const cookie = await adminSessionCookie(await testPerson("staff", "Filipa"));
    const response = await post("/api/admin/account/two-factor", cookie, { json: { action: "maybe" } });
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toMatch(/^action /);
  });
});
