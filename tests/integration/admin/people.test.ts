import { unsealData } from "iron-session";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { staffAuth } from "@/lib/admin/staff-auth";
import { forgetOwnerCheck } from "@/lib/admin/owner";
import { updatePerson } from "@/lib/admin/people";
import type { Actor } from "@/lib/admin/staff-events";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import {
  ADMIN_APP,
  adminRequest,
  adminSessionCookie,
  testOwner,
  testPerson,
  type AdminCaller,
} from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";

// The owner's people (lib/admin/people.ts through app/api/admin/people) and the owner's
// "two-factor for everyone" (lib/admin/settings.ts, enforced by the guards), against a database
// of this file's own: counting owners, sessions and events is this file's business.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;
let owner: Actor;

beforeAll(async () => {
  database = await createTestDatabase("people");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
  forgetOwnerCheck();
  owner = await testOwner();
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(async () => {
  await client.backOfficeSettings.deleteMany({});
});
afterEach(() => settleAfterTasks());

type Caller = Pick<AdminCaller, "session" | "form" | "json" | "raw" | "headers" | "crossSite">;

const routes = {
  people: () => import("@/app/api/admin/people/route"),
  person: () => import("@/app/api/admin/people/[id]/route"),
  settings: () => import("@/app/api/admin/settings/route"),
  signIn: () => import("@/app/api/admin/session/route"),
  guard: () => import("@/lib/http/admin-route-guard"),
};

async function add(caller: Caller) {
  return (await routes.people()).POST(await adminRequest("/api/admin/people", caller));
}
async function change(id: string, caller: Caller) {
  return (await routes.person()).POST(await adminRequest(`/api/admin/people/${id}`, caller), {
    params: Promise.resolve({ id }),
  });
}
async function setSettings(caller: Caller) {
  return (await routes.settings()).POST(await adminRequest("/api/admin/settings", caller));
}
const body = async (response: Response) => (await response.json()) as Record<string, any>;

/** 200 when the API routes' guard lets this Cookie header call `path` (by `method`), else its status and code. */
async function guardOf(cookie: string, path = "/api/admin/products", method = "POST") {
  const { guardAdminRoute } = await routes.guard();
  const guard = await guardAdminRoute(
    await adminRequest(path, {
      method,
      session: false,
      headers: { cookie },
      ...(method === "GET" ? {} : { json: {} }),
    }),
  );
  if (guard.ok) return { status: 200 };
  return { status: guard.response.status, code: ((await guard.response.json()) as any).error.code as string };
}

/** The sign-in route's status for this e-mail and password. */
async function signInStatus(email: string, password: string) {
  const { POST } = await routes.signIn();
  return (await POST(await adminRequest("/api/admin/session", { session: false, json: { email, password } }))).status;
}

const eventsOf = (staffId: string) =>
  client.staffEvent.findMany({ where: { subject: `person:${staffId}` }, orderBy: { createdAt: "asc" } });
const uniqueEmail = (name: string) => `${name}.${Math.random().toString(36).slice(2, 10)}@shop.example`;

/** What better-auth's own verifier says of `password` against the person's stored hash. */
async function passwordMatches(staffId: string, password: string) {
  const login = await client.staffLogin.findFirstOrThrow({ where: { staffId, providerId: "credential" } });
  expect(login.password).not.toContain(password);
  return (await staffAuth()!.$context).password.verify({ hash: login.password!, password });
}

/** The JSON log lines written during `run`. */
async function logged<T>(run: () => Promise<T>): Promise<{ lines: string; result: T }> {
  const lines: string[] = [];
  const spies = (["log", "info", "warn", "error"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
    }),
  );
  try {
    return { result: await run(), lines: lines.join("\n") };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("adding a person", () => {
  it("with the owner's password: 201 with the person, the password hashed by better-auth, an event without it, and a sign-in that works", async () => {
    const email = uniqueEmail("ana");
    const password = "uma palavra-passe longa";
    const response = await add({ json: { name: " Ana Silva ", email: email.toUpperCase(), role: "staff", password } });
    expect(response.status).toBe(201);
    const answer = await body(response);
    expect(answer).toEqual({
      person: {
        id: expect.any(String),
        name: "Ana Silva",
        email,
        role: "staff",
        active: true,
        twoFactorEnabled: false,
      },
    });
    const id = answer.person.id as string;
    expect(await passwordMatches(id, password)).toBe(true);
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({
      kind: "person.create",
      staffId: owner.id,
      details: { name: "Ana Silva", email, role: "staff", newCredential: "set" },
    });
    expect(JSON.stringify(event!.details)).not.toContain(password);
    expect(await signInStatus(email, password)).toBe(200);
  });

  it("without a password: one made up, answered once (no-store), stored only as its hash, never logged", async () => {
    const email = uniqueEmail("bruno");
    const { lines, result: response } = await logged(() => add({ json: { name: "Bruno", email, role: "owner" } }));
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const answer = await body(response);
    expect(answer.person).toMatchObject({ email, role: "owner", active: true });
    expect(answer.password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    expect(await passwordMatches(answer.person.id, answer.password)).toBe(true);
    expect(lines).not.toContain(answer.password);
    const [event] = await eventsOf(answer.person.id);
    expect(event!.details).toMatchObject({ newCredential: "generated" });
    expect(JSON.stringify(event)).not.toContain(answer.password);
    expect(await signInStatus(email, answer.password)).toBe(200);
    // Staff again: the other tests count on one owner.
    expect((await change(answer.person.id, { json: { role: "staff" } })).status).toBe(200);
  });

  it("from the page's form, without a password: the password is in a sealed cookie the redirect names, never in the address", async () => {
    const email = uniqueEmail("carla");
    const response = await add({ form: { name: "Carla", email, role: "staff", password: "" } });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!, ADMIN_APP);
    expect([location.pathname, location.searchParams.get("done"), location.hash]).toEqual([
      "/admin/people",
      "added",
      "#new-person",
    ]);
    const revealId = location.searchParams.get("reveal")!;
    expect(revealId).toMatch(/^[0-9a-f-]{36}$/);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("admin_reveal="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Max-Age=120/);
    const sealed = await unsealData<any>(/^admin_reveal=([^;]+)/.exec(cookie)![1]!, {
      password: process.env.ADMIN_SESSION_SECRET!,
    });
    const person = await client.staff.findUniqueOrThrow({ where: { email } });
    expect(sealed).toMatchObject({ id: revealId, for: owner.id, secret: { kind: "password", personId: person.id } });
    expect(response.headers.get("location")).not.toContain(sealed.secret.password);
    expect(cookie).not.toContain(sealed.secret.password);
    expect(await passwordMatches(person.id, sealed.secret.password)).toBe(true);
  });

  it("refuses an e-mail another person has (any case): 409 email_taken, nothing written", async () => {
    const email = uniqueEmail("dina");
    expect((await add({ json: { name: "Dina", email, role: "staff" } })).status).toBe(201);
    const [people, events] = [await client.staff.count(), await client.staffEvent.count()];
    const again = await add({ json: { name: "Outra Dina", email: ` ${email.toUpperCase()} `, role: "owner" } });
    expect(again.status).toBe(409);
    expect((await body(again)).error.code).toBe("email_taken");
    const form = await add({ form: { name: "Outra Dina", email, role: "staff", password: "" } });
    expect(form.headers.get("location")).toBe("/admin/people?error=email_taken&field=email#new-person");
    expect(form.headers.getSetCookie().some((line) => line.startsWith("admin_reveal="))).toBe(false);
    expect([await client.staff.count(), await client.staffEvent.count()]).toEqual([people, events]);
  });

  it.each([
    ["role", { name: "Eva", role: "manager" }],
    ["email", { name: "Eva", email: "not-an-email", role: "staff" }],
    ["password", { name: "Eva", role: "staff", password: "short" }],
    ["name", { name: "  ", role: "staff" }],
  ])("a bad %s: 400 naming the field, nothing written", async (field, input) => {
    const fields = { email: uniqueEmail("eva"), ...input } as Record<string, string>;
    const [people, events] = [await client.staff.count(), await client.staffEvent.count()];
    const response = await add({ json: fields });
    expect(response.status).toBe(400);
    const { error } = await body(response);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(new RegExp(`^${field} `));
    const form = await add({ form: fields });
    expect(form.headers.get("location")).toBe(`/admin/people?error=invalid_input&field=${field}#new-person`);
    expect([await client.staff.count(), await client.staffEvent.count()]).toEqual([people, events]);
  });
});

describe("changing a person", () => {
  it("disabling ends their open session at once (the guard answers 401 on that cookie), and sign-in is refused; enabling lets them in again", async () => {
    const ana = await testPerson("staff", "Ana");
    const cookie = await adminSessionCookie(ana);
    expect(await guardOf(cookie)).toEqual({ status: 200 });
    const response = await change(ana.id, { json: { active: false } });
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({
      person: { id: ana.id, name: "Ana", email: ana.email, role: "staff", active: false, twoFactorEnabled: false },
      sessionsEnded: 1,
    });
    expect(await guardOf(cookie)).toEqual({ status: 401, code: "unauthorized" });
    expect(await client.staffSession.count({ where: { staffId: ana.id } })).toBe(0);
    expect(await signInStatus(ana.email, ana.password)).toBe(401);

    const enabled = await change(ana.id, { form: { active: "true" } });
    expect(enabled.headers.get("location")).toBe("/admin/people?done=saved#people");
    expect(await signInStatus(ana.email, ana.password)).toBe(200);
    expect((await eventsOf(ana.id)).map((event) => event.details)).toEqual([
      { active: { from: true, to: false }, sessionsEnded: 1 },
      { active: { from: false, to: true }, sessionsEnded: 0 },
    ]);
  });

  it("a new role ends every session of the person", async () => {
    const bruno = await testPerson("staff", "Bruno");
    const cookies = [await adminSessionCookie(bruno), await adminSessionCookie(bruno)];
    const response = await change(bruno.id, { json: { role: "owner" } });
    expect(response.status).toBe(200);
    expect(await body(response)).toMatchObject({ person: { role: "owner" }, sessionsEnded: 2 });
    for (const cookie of cookies) expect((await guardOf(cookie)).status).toBe(401);
    const [event] = await eventsOf(bruno.id);
    expect(event).toMatchObject({
      kind: "person.update",
      staffId: owner.id,
      details: { role: { from: "staff", to: "owner" } },
    });
    // Back to staff, so the owners' count of the other tests stays one.
    expect((await change(bruno.id, { json: { role: "staff" } })).status).toBe(200);
  });

  it("a password reset ends their sessions; the new one signs in and the old does not; an empty one is made up and answered once", async () => {
    const carla = await testPerson("staff", "Carla");
    const cookie = await adminSessionCookie(carla);
    const chosen = "a nova palavra-passe da Carla";
    const response = await change(carla.id, { json: { password: chosen } });
    expect(await body(response)).toMatchObject({ sessionsEnded: 1 });
    expect((await guardOf(cookie)).status).toBe(401);
    expect(await signInStatus(carla.email, carla.password)).toBe(401);
    expect(await signInStatus(carla.email, chosen)).toBe(200);

    const generated = await body(await change(carla.id, { json: { password: "" } }));
    expect(generated.password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    expect(generated.sessionsEnded).toBe(1);
    expect(await signInStatus(carla.email, generated.password)).toBe(200);
    const events = await eventsOf(carla.id);
    expect(events.map((event) => event.details)).toEqual([
      { newCredential: "set", sessionsEnded: 1 },
      { newCredential: "generated", sessionsEnded: 1 },
    ]);
    expect(JSON.stringify(events)).not.toContain(chosen);
    expect(JSON.stringify(events)).not.toContain(generated.password);

    const short = await change(carla.id, { json: { password: "curta" } });
    expect(short.status).toBe(400);
    expect((await body(short)).error.message).toMatch(/^password /);
  });

  it("the last active owner can be neither disabled nor made staff: 409 last_owner, nothing written", async () => {
    const events = await client.staffEvent.count();
    const demote = await change(owner.id, { json: { role: "staff" } });
    expect(demote.status).toBe(409);
    expect((await body(demote)).error.code).toBe("last_owner");
    const disable = await change(owner.id, { form: { active: "false" } });
    expect(disable.headers.get("location")).toBe(
      `/admin/people?error=last_owner&field=active&person=${owner.id}#people`,
    );
    expect(await client.staff.findUniqueOrThrow({ where: { id: owner.id } })).toMatchObject({
      role: "owner",
      banned: false,
    });
    expect(await client.staffEvent.count()).toBe(events);
  });

  it("two owners demoting each other at the same moment leave one owner", async () => {
    const second = await testPerson("staff", "Segunda");
    await change(second.id, { json: { role: "owner" } });
    const deps = (actor: Actor) => ({ db: client, auth: staffAuth()!, actor });
    // Each as the other's action, past the guard (whose session the other's change would end).
    const results = await Promise.all([
      updatePerson(owner.id, { role: "staff" }, deps({ ...second, role: "owner" })),
      updatePerson(second.id, { role: "staff" }, deps(owner)),
    ]);
    expect(results.map((result) => (result.ok ? "ok" : result.code)).sort()).toEqual(["last_owner", "ok"]);
    expect(await client.staff.count({ where: { role: "owner", banned: false } })).toBe(1);
    // The one owner left puts things back as they were for the other tests.
    const left = await client.staff.findFirstOrThrow({ where: { role: "owner" } });
    if (left.id !== owner.id) {
      await updatePerson(owner.id, { role: "owner" }, deps({ ...second, role: "owner" }));
      await updatePerson(left.id, { role: "staff" }, deps(owner));
    }
    expect(await client.staff.findMany({ where: { role: "owner" }, select: { id: true } })).toEqual([{ id: owner.id }]);
  });

  it("an unknown id is a 404; a body without any change is a 400", async () => {
    const unknown = await change("nobody-has-this-id", { json: { active: false } });
    expect(unknown.status).toBe(404);
    expect((await change("x".repeat(200), { json: { active: false } })).status).toBe(404);
    const dina = await testPerson("staff", "Dina");
    const empty = await change(dina.id, { json: {} });
    expect(empty.status).toBe(400);
    expect((await body(empty)).error.message).toMatch(/role, active and password/);
  });
});

describe("the people's routes are the owner's", () => {
  it("staff gets 403 on each, and nothing changes", async () => {
    const staff = await testPerson("staff", "Eduardo");
    const other = await testPerson("staff", "Filipa");
    const [people, events] = [await client.staff.count(), await client.staffEvent.count()];
    const responses = [
      await add({ json: { name: "X", email: uniqueEmail("x"), role: "owner" }, session: staff }),
      await change(other.id, { json: { active: false }, session: staff }),
      await change(staff.id, { json: { role: "owner" }, session: staff }),
      await setSettings({ json: { requireTwoFactor: false }, session: staff }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(403);
      expect((await body(response)).error.code).toBe("forbidden");
    }
    expect([await client.staff.count(), await client.staffEvent.count()]).toEqual([people, events]);
    expect(await client.staff.findUniqueOrThrow({ where: { id: staff.id } })).toMatchObject({ role: "staff" });
  });
});

describe("two-factor for everyone", () => {
  it("the owner turns it on only with their own on; then a person without it may use their account and sign out, and nothing else", async () => {
    const refused = await setSettings({ json: { requireTwoFactor: true } });
    expect(refused.status).toBe(409);
    expect((await body(refused)).error.code).toBe("own_two_factor_off");
    expect(await client.staffEvent.count({ where: { kind: "settings.update" } })).toBe(0);

    await client.staff.update({ where: { id: owner.id }, data: { twoFactorEnabled: true } });
    try {
      // The form's hidden "false" and its ticked box's "on": the last counts.
      const on = await setSettings({
        raw: { body: "requireTwoFactor=false&requireTwoFactor=on", contentType: "application/x-www-form-urlencoded" },
      });
      expect(on.headers.get("location")).toBe("/admin/people?done=settings_saved#settings");
      expect(await client.backOfficeSettings.findUniqueOrThrow({ where: { id: true } })).toMatchObject({
        requireTwoFactor: true,
      });
      expect(await client.staffEvent.findFirst({ where: { kind: "settings.update" } })).toMatchObject({
        staffId: owner.id,
        details: { requireTwoFactor: { from: false, to: true } },
      });

      const gina = await testPerson("staff", "Gina");
      const cookie = await adminSessionCookie(gina);
      expect(await guardOf(cookie)).toEqual({ status: 403, code: "two_factor_required" });
      expect(await guardOf(cookie, "/api/admin/orders/export", "GET")).toMatchObject({ status: 403 });
      for (const path of [
        "/api/admin/account",
        "/api/admin/account/two-factor",
        "/api/admin/session/sign-out-everywhere",
      ])
        expect(await guardOf(cookie, path)).toEqual({ status: 200 });
      // The owner, whose two-factor is on, goes everywhere.
      expect(await guardOf(await adminSessionCookie(owner), "/api/admin/people")).toEqual({ status: 200 });

      const off = await setSettings({ json: { requireTwoFactor: false } });
      expect(await body(off)).toEqual({ settings: { requireTwoFactor: false } });
      expect(await guardOf(cookie)).toEqual({ status: 200 });
    } finally {
      await client.staff.update({ where: { id: owner.id }, data: { twoFactorEnabled: false } });
    }
  });

  it("a bad value is a 400 naming the field", async () => {
    const response = await setSettings({ json: { requireTwoFactor: "maybe" } });
    expect(response.status).toBe(400);
    expect((await body(response)).error.message).toMatch(/^requireTwoFactor /);
  });
});
