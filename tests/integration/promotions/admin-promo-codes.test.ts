import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPromoCode, listPromoCodes, promoCodeState } from "@/lib/promotions/promo-codes-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testOwner, type AdminCaller } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";

// The back office's promo codes (lib/promotions/promo-codes-admin.ts through app/api/admin/promo-codes),
// against a real database of this file's own, so that counting every code is this file's business.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

const server = Boolean(process.env.TEST_SERVER_DATABASE_URL);
let database: TestDatabase;
let client: PrismaClient;
let coffee: string;
let honey: string;

beforeAll(async () => {
  database = await createTestDatabase("promo_codes");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
  coffee = (await client.category.create({ data: { slug: "cafe", name: "Café" }, select: { id: true } })).id;
  honey = (await client.category.create({ data: { slug: "mel", name: "Mel" }, select: { id: true } })).id;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
afterEach(() => settleAfterTasks());

type Caller = Pick<AdminCaller, "session" | "crossSite">;
type Body = { json: unknown } | { form: Record<string, string> } | { raw: string; contentType: string };

function request(path: string, body: Body, caller: Caller = {}) {
  if ("raw" in body) return adminRequest(path, { ...caller, raw: { body: body.raw, contentType: body.contentType } });
  return adminRequest(path, { ...caller, ...body });
}

const routes = {
  list: () => import("@/app/api/admin/promo-codes/route"),
  one: () => import("@/app/api/admin/promo-codes/[id]/route"),
};
async function create(body: Body, caller?: Caller) {
  return (await routes.list()).POST(await request("/api/admin/promo-codes", body, caller));
}
async function edit(id: string, body: Body, caller?: Caller) {
  return (await routes.one()).POST(await request(`/api/admin/promo-codes/${id}`, body, caller), {
    params: Promise.resolve({ id }),
  });
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const uniqueCode = (prefix: string) => `${prefix}${randomUUID().slice(0, 8).toUpperCase()}`;
const count = () => client.promoCode.count();
const links = () => client.promoCodeCategory.count();
const stored = (id: string) =>
  client.promoCode.findUniqueOrThrow({ where: { id }, include: { categories: { select: { categoryId: true } } } });

async function aCode(input: Record<string, unknown> = {}) {
  const created = await createPromoCode(
    { code: uniqueCode("BASE"), kind: "percent", value: 10, ...input },
    { db: client, actor: await testOwner() },
  );
  if (!created.ok) throw new Error(created.message);
  return created.promoCode;
}

describe("every route refuses", () => {
  const id = randomUUID();
  const calls = [
    ["create", (caller: Caller) => create({ json: { code: "NOPE1", kind: "percent", value: 5 } }, caller)],
    ["edit", (caller: Caller) => edit(id, { json: { code: "NOPE1", kind: "percent", value: 5 } }, caller)],
  ] as const;

  it.each(calls)("%s without a session: 401, nothing written", async (_name, call) => {
    const before = await count();
    const response = await call({ session: false });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { code: "unauthorized" } });
    expect(await count()).toBe(before);
  });

  it.each(calls)("%s from another site: 403", async (_name, call) => {
    const response = await call({ crossSite: true });
    expect(response.status).toBe(403);
  });

  it("an unknown id: 404; an id that is no UUID: 400 invalid_id", async () => {
    const body = { json: { code: "NOPE1", kind: "percent", value: 5 } };
    const unknown = await edit(id, body);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: { code: "not_found" } });
    const malformed = await edit("not-a-uuid", body);
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toMatchObject({ error: { code: "invalid_id" } });
  });
});

describe("creating a code", () => {
  it("JSON: 201 with the code, its id, its uses and state; the code trimmed and upper-cased", async () => {
    const code = uniqueCode("VERAO");
    const response = await create({
      json: {
        code: `  ${code.toLowerCase()} `,
        kind: "fixed",
        value: 2500,
        minSubtotalAoa: 20000,
        startsAt: "2026-12-01T00:00:00+01:00",
        endsAt: "2027-01-01T00:00:00Z",
        maxUses: 50,
        maxUsesPerPhone: 1,
        categoryIds: [coffee, honey.toUpperCase(), coffee],
      },
    });
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body).toMatchObject({
      done: "created",
      promoCode: {
        code,
        kind: "fixed",
        value: 2500,
        minSubtotalAoa: 20000,
        startsAt: "2026-11-30T23:00:00.000Z",
        endsAt: "2027-01-01T00:00:00.000Z",
        maxUses: 50,
        maxUsesPerPhone: 1,
        uses: 0,
        remainingUses: 50,
        active: true,
        categories: [
          { id: coffee, name: "Café" },
          { id: honey, name: "Mel" },
        ],
      },
    });
    expect(body.promoCode.id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await stored(body.promoCode.id);
    expect(row).toMatchObject({ code, kind: "fixed", value: 2500, uses: 0 });
    expect(row.categories.map((c) => c.categoryId).sort()).toEqual([coffee, honey].sort());
  });

  it("JSON: the optional fields absent or null are no limit, and the code is on", async () => {
    const code = uniqueCode("SIMPLES");
    const response = await create({ json: { code, kind: "percent", value: 100, maxUses: null, startsAt: null } });
    expect(response.status).toBe(201);
    expect((await json(response)).promoCode).toMatchObject({
      code,
      minSubtotalAoa: 0,
      startsAt: null,
      endsAt: null,
      maxUses: null,
      maxUsesPerPhone: null,
      remainingUses: null,
      active: true,
      state: "valid",
      categories: [],
    });
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ["a kind that is neither percent nor fixed", { kind: "free" }, "kind"],
    ["a percent above 100", { kind: "percent", value: 101 }, "value"],
    ["a fixed amount above 10 000 000", { kind: "fixed", value: 10_000_001 }, "value"],
    ["a value of 0", { value: 0 }, "value"],
    ["a value that is not whole", { value: 2.5 }, "value"],
    ["a code too short", { code: "AB" }, "code"],
    ["a code with a space inside", { code: "BEM VINDO" }, "code"],
    ["a code with a NUL", { code: "BEM\u0000VINDO" }, "code"],
    ["a negative minimum", { minSubtotalAoa: -1 }, "minSubtotalAoa"],
    ["a start without an offset", { startsAt: "2026-12-01T09:00:00" }, "startsAt"],
    ["a date that does not exist", { startsAt: "2026-02-30T09:00:00+01:00" }, "startsAt"],
    ["an end before the start", { startsAt: "2026-12-02T00:00:00Z", endsAt: "2026-12-01T00:00:00Z" }, "endsAt"],
    ["an end at the start", { startsAt: "2026-12-01T00:00:00Z", endsAt: "2026-12-01T01:00:00+01:00" }, "endsAt"],
    ["a limit of 0 uses", { maxUses: 0 }, "maxUses"],
    ["a limit of 0 uses per phone", { maxUsesPerPhone: 0 }, "maxUsesPerPhone"],
    ["a category id that is no UUID", { categoryIds: ["cafe"] }, "categoryIds"],
    ["an unknown category", { categoryIds: [randomUUID()] }, "categoryIds"],
    ["an active flag that is not on or off", { active: "maybe" }, "active"],
  ];

  it.each(refusals)("JSON: %s is a 400 naming the field; nothing is written", async (_name, change, field) => {
    const [before, linksBefore] = [await count(), await links()];
    const code = uniqueCode("RECUSA");
    const response = await create({ json: { code, kind: "percent", value: 10, ...change } });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body).toMatchObject({ error: { code: "invalid_input" } });
    expect(body.error.message).toContain(field);
    expect([await count(), await links()]).toEqual([before, linksBefore]);
  });

  it("JSON: a code another has, in any case, is 409 code_taken; nothing is written", async () => {
    const taken = await aCode();
    const before = await count();
    const response = await create({ json: { code: taken.code.toLowerCase(), kind: "fixed", value: 100 } });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "code_taken" } });
    expect(await count()).toBe(before);
  });

  it("a body that is not JSON: 400; a body neither JSON nor a form: 415", async () => {
    const before = await count();
    expect((await create({ raw: "{", contentType: "application/json" })).status).toBe(400);
    expect((await create({ raw: "code=X", contentType: "text/plain" })).status).toBe(415);
    expect(await count()).toBe(before);
  });

  it("the page's form: 303 back with ?done=; Luanda's datetime-local, empty fields, checkboxes", async () => {
    const code = uniqueCode("FORM");
    const fields = new URLSearchParams([
      ["code", code.toLowerCase()],
      ["kind", "percent"],
      ["value", "15"],
      ["minSubtotalAoa", ""],
      ["startsAt", "2026-12-01T09:00"],
      ["endsAt", "2026-12-31T23:59"],
      ["maxUses", "100"],
      ["maxUsesPerPhone", ""],
      ["categoryIds", ""],
      ["categoryIds", honey],
      ["active", "false"],
      ["active", "on"],
    ]);
    const response = await create({ raw: fields.toString(), contentType: "application/x-www-form-urlencoded" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/promo-codes?done=created#promo-codes");
    const row = await client.promoCode.findUniqueOrThrow({
      where: { code },
      include: { categories: { select: { categoryId: true } } },
    });
    expect(row).toMatchObject({
      kind: "percent",
      value: 15,
      minSubtotalAoa: 0,
      startsAt: new Date("2026-12-01T08:00:00Z"),
      endsAt: new Date("2026-12-31T22:59:00Z"),
      maxUses: 100,
      maxUsesPerPhone: null,
      active: true,
      categories: [{ categoryId: honey }],
    });
  });

  it("the page's form refused: 303 back with ?error= and ?field=; nothing is written", async () => {
    const before = await count();
    const response = await create({
      form: { code: uniqueCode("FORM"), kind: "percent", value: "150", startsAt: "", endsAt: "", categoryIds: "" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/promo-codes?error=invalid_input&field=value#promo-codes");
    const taken = await aCode();
    const duplicate = await create({ form: { code: taken.code, kind: "fixed", value: "10" } });
    expect(duplicate.headers.get("location")).toBe("/admin/promo-codes?error=code_taken&field=code#promo-codes");
    expect(await count()).toBe(before + 1);
  });
});

describe("editing a code", () => {
  it("JSON: 200 with every field replaced, categories included; turned off", async () => {
    const code = await aCode({ categoryIds: [coffee], maxUses: 10 });
    const renamed = uniqueCode("NOVO");
    const response = await edit(code.id, {
      json: {
        code: renamed,
        kind: "fixed",
        value: 500,
        categoryIds: [honey],
        active: false,
        endsAt: "2027-02-01T00:00:00+01:00",
      },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      done: "saved",
      promoCode: {
        id: code.id,
        code: renamed,
        kind: "fixed",
        value: 500,
        maxUses: null,
        active: false,
        state: "inactive",
        categories: [{ id: honey }],
      },
    });
    const row = await stored(code.id);
    expect(row).toMatchObject({
      code: renamed,
      active: false,
      maxUses: null,
      endsAt: new Date("2027-01-31T23:00:00Z"),
    });
    expect(row.categories).toEqual([{ categoryId: honey }]);
  });

  it("the page's form: 303 back with ?done=saved; the unticked boxes clear the categories", async () => {
    const code = await aCode({ categoryIds: [coffee, honey] });
    const response = await edit(code.id, {
      form: {
        code: code.code,
        kind: "percent",
        value: "20",
        startsAt: "",
        endsAt: "",
        maxUses: "",
        maxUsesPerPhone: "2",
        categoryIds: "",
        active: "false",
      },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/promo-codes?done=saved#promo-codes");
    const row = await stored(code.id);
    expect(row).toMatchObject({ value: 20, maxUsesPerPhone: 2, active: false });
    expect(row.categories).toEqual([]);
  });

  it("JSON without categoryIds keeps the code's categories; an explicit [] makes it apply to every product", async () => {
    const code = await aCode({ categoryIds: [coffee, honey] });
    const kept = await edit(code.id, { json: { code: code.code, kind: "percent", value: 25 } });
    expect(kept.status).toBe(200);
    expect((await json(kept)).promoCode.categories.map((category: { id: string }) => category.id).sort()).toEqual(
      [coffee, honey].sort(),
    );
    const row = await stored(code.id);
    expect(row.value).toBe(25);
    expect(row.categories.map((category) => category.categoryId).sort()).toEqual([coffee, honey].sort());

    const everything = await edit(code.id, { json: { code: code.code, kind: "percent", value: 25, categoryIds: [] } });
    expect(everything.status).toBe(200);
    expect((await json(everything)).promoCode.categories).toEqual([]);
    expect((await stored(code.id)).categories).toEqual([]);
  });

  it("a form that sends no categoryIds at all (not the page's, which always sends an empty one) keeps them too", async () => {
    const code = await aCode({ categoryIds: [coffee] });
    const response = await edit(code.id, {
      form: { code: code.code, kind: "percent", value: "12", startsAt: "", endsAt: "", maxUses: "" },
    });
    expect(response.headers.get("location")).toBe("/admin/promo-codes?done=saved#promo-codes");
    expect((await stored(code.id)).categories).toEqual([{ categoryId: coffee }]);
  });

  it("maxUses below the uses counted: 409 max_uses_below_uses, nothing changed; at the uses, saved", async () => {
    const code = await aCode({ maxUses: 10, categoryIds: [coffee] });
    await client.promoCode.update({ where: { id: code.id }, data: { uses: 4 } });
    const before = await stored(code.id);
    const body = { code: code.code, kind: "percent", value: 30, maxUses: 3, categoryIds: [honey] };
    const response = await edit(code.id, { json: body });
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ error: { code: "max_uses_below_uses" } });
    expect(await stored(code.id)).toEqual(before);

    const form = await edit(code.id, { form: { ...body, value: "30", maxUses: "3", categoryIds: honey } });
    expect(form.headers.get("location")).toBe(
      `/admin/promo-codes?error=max_uses_below_uses&field=maxUses&edit=${code.id}#promo-codes`,
    );
    expect(await stored(code.id)).toEqual(before);

    const atUses = await edit(code.id, { json: { ...body, maxUses: 4 } });
    expect(atUses.status).toBe(200);
    expect((await json(atUses)).promoCode).toMatchObject({ maxUses: 4, uses: 4, remainingUses: 0, state: "used_up" });
  });

  it("another code's code: 409 code_taken; an unknown category: 400; nothing changed", async () => {
    const [code, other] = [await aCode({ categoryIds: [coffee] }), await aCode()];
    const before = await stored(code.id);
    const taken = await edit(code.id, { json: { code: other.code, kind: "percent", value: 10 } });
    expect(taken.status).toBe(409);
    expect(await json(taken)).toMatchObject({ error: { code: "code_taken" } });
    const unknown = await edit(code.id, {
      json: { code: code.code, kind: "percent", value: 10, categoryIds: [randomUUID()] },
    });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error.message).toContain("categoryIds");
    expect(await stored(code.id)).toEqual(before);
  });
});

describe("the list", () => {
  it("every code with its uses, what is left and where it stands", async () => {
    const now = new Date("2026-12-15T12:00:00Z");
    const scheduled = await aCode({ startsAt: "2027-01-01T00:00:00Z" });
    const expired = await aCode({ endsAt: "2026-12-01T00:00:00Z" });
    const usedUp = await aCode({ maxUses: 2 });
    await client.promoCode.update({ where: { id: usedUp.id }, data: { uses: 2 } });
    const list = await listPromoCodes(client, now);
    const byId = new Map(list.map((code) => [code.id, code]));
    expect(byId.get(scheduled.id)).toMatchObject({ state: "scheduled" });
    expect(byId.get(expired.id)).toMatchObject({ state: "expired" });
    expect(byId.get(usedUp.id)).toMatchObject({ state: "used_up", uses: 2, remainingUses: 0 });
    expect(list).toHaveLength(await count());
  });

  it("a code's state: off first, then ended, used up, not yet started", () => {
    const base = { active: true, startsAt: null, endsAt: null, maxUses: null, uses: 0 };
    const now = new Date("2026-12-15T12:00:00Z");
    expect(promoCodeState(base, now)).toBe("valid");
    expect(promoCodeState({ ...base, active: false, maxUses: 1, uses: 1 }, now)).toBe("inactive");
    expect(promoCodeState({ ...base, endsAt: now }, now)).toBe("expired");
    expect(promoCodeState({ ...base, startsAt: now }, now)).toBe("valid");
    expect(promoCodeState({ ...base, startsAt: new Date(now.getTime() + 1) }, now)).toBe("scheduled");
    expect(promoCodeState({ ...base, maxUses: 3, uses: 3 }, now)).toBe("used_up");
  });
});
