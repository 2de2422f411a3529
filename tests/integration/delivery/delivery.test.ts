import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deliveryOptions } from "@/lib/delivery/zones";
import { createDeliveryZone, createPickupPoint, updateDeliveryZone } from "@/lib/delivery/zones-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest, testOwner, type AdminCaller } from "../../../harness/support/admin";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";

// Delivery methods (lib/delivery/zones.ts through app/api/admin/delivery-zones, app/api/admin/pickup-points
// and GET /api/delivery-options), against a real database of this file's own: the options are the
// whole shop's, so no other test file may see the ones written here, nor these tests theirs.

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
  database = await createTestDatabase("delivery");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url, server ? 10 : 1));
  shared.client = client;
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
  zones: () => import("@/app/api/admin/delivery-zones/route"),
  zone: () => import("@/app/api/admin/delivery-zones/[id]/route"),
  points: () => import("@/app/api/admin/pickup-points/route"),
  point: () => import("@/app/api/admin/pickup-points/[id]/route"),
  options: () => import("@/app/api/delivery-options/route"),
};

async function createZone(body: Body, caller?: Caller) {
  return (await routes.zones()).POST(await request("/api/admin/delivery-zones", body, caller));
}
async function editZone(id: string, body: Body, caller?: Caller) {
  return (await routes.zone()).POST(await request(`/api/admin/delivery-zones/${id}`, body, caller), {
    params: Promise.resolve({ id }),
  });
}
async function createPoint(body: Body, caller?: Caller) {
  return (await routes.points()).POST(await request("/api/admin/pickup-points", body, caller));
}
async function editPoint(id: string, body: Body, caller?: Caller) {
  return (await routes.point()).POST(await request(`/api/admin/pickup-points/${id}`, body, caller), {
    params: Promise.resolve({ id }),
  });
}
async function options() {
  const response = await (await routes.options()).GET();
  expect(response.status).toBe(200);
  return (await response.json()) as { zones: Record<string, unknown>[]; pickupPoints: Record<string, unknown>[] };
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

describe("every route refuses", () => {
  const id = randomUUID();
  const calls = [
    ["create zone", (caller: Caller) => createZone({ json: { name: "x", feeAoa: 1 } }, caller)],
    ["edit zone", (caller: Caller) => editZone(id, { json: { name: "x", feeAoa: 1 } }, caller)],
    ["create point", (caller: Caller) => createPoint({ json: { name: "x", address: "y", hours: "z" } }, caller)],
    ["edit point", (caller: Caller) => editPoint(id, { json: { name: "x", address: "y", hours: "z" } }, caller)],
  ] as const;

  it.each(calls)("%s without a session: 401", async (_name, call) => {
    const response = await call({ session: false });
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ error: { code: "unauthorized" } });
  });

  it.each(calls)("%s from another site: 403", async (_name, call) => {
    const response = await call({ crossSite: true });
    expect(response.status).toBe(403);
  });

  it("an unknown id: 404", async () => {
    expect((await editZone(id, { json: { name: "x", feeAoa: 1 } })).status).toBe(404);
    expect((await editPoint("not-a-uuid", { json: { name: "x", address: "y", hours: "z" } })).status).toBe(404);
  });
});

describe("delivery zones", () => {
  it("JSON: 201 with the zone and its id", async () => {
    const name = unique("Talatona");
    const response = await createZone({
      json: { name, feeAoa: 2500, freeFromAoa: 50000, estimatedDays: 2, active: true },
    });
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body).toMatchObject({
      done: "created",
      zone: { name, feeAoa: 2500, freeFromAoa: 50000, estimatedDays: 2, active: true, position: 0 },
    });
    expect(body.zone.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.deliveryZone.findUniqueOrThrow({ where: { id: body.zone.id } })).toMatchObject({ name });
  });

  it("the page's form: 303 back with ?done=; digit strings, empty optional fields, the checkbox", async () => {
    const name = unique("Viana");
    const response = await createZone({
      raw: `name=${encodeURIComponent(name)}&feeAoa=3500&freeFromAoa=&estimatedDays=3&position=4&active=false&active=on`,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/delivery?done=created#zones");
    expect(await client.deliveryZone.findUniqueOrThrow({ where: { name } })).toMatchObject({
      feeAoa: 3500,
      freeFromAoa: null,
      estimatedDays: 3,
      position: 4,
      active: true,
    });
  });

  it("edits a zone and turns it off (the form's unticked box sends only the hidden false)", async () => {
    const created = await createDeliveryZone(
      { name: unique("Kilamba"), feeAoa: 3000 },
      { db: client, actor: await testOwner() },
    );
    if (!created.ok) throw new Error(created.message);
    const renamed = unique("Kilamba novo");
    const response = await editZone(created.zone.id, {
      form: { name: renamed, feeAoa: "3200", freeFromAoa: "60000", estimatedDays: "", position: "1", active: "false" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/delivery?done=saved#zones");
    expect(await client.deliveryZone.findUniqueOrThrow({ where: { id: created.zone.id } })).toMatchObject({
      name: renamed,
      feeAoa: 3200,
      freeFromAoa: 60000,
      estimatedDays: null,
      active: false,
    });
    const back = await editZone(created.zone.id, { json: { name: renamed, feeAoa: 3200, active: true } });
    expect(back.status).toBe(200);
    expect(await json(back)).toMatchObject({ done: "saved", zone: { active: true, freeFromAoa: null } });
  });

  it("a duplicate name: 409 name_taken, on create and on edit", async () => {
    const name = unique("Maianga");
    expect((await createZone({ json: { name, feeAoa: 1500 } })).status).toBe(201);
    const again = await createZone({ json: { name, feeAoa: 1000 } });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: "name_taken" } });
    const form = await createZone({ form: { name, feeAoa: "1000" } });
    expect(form.headers.get("location")).toBe("/admin/delivery?error=name_taken&field=name#zones");
    const other = await createDeliveryZone(
      { name: unique("Outra"), feeAoa: 1 },
      { db: client, actor: await testOwner() },
    );
    if (!other.ok) throw new Error(other.message);
    expect(
      await updateDeliveryZone(other.zone.id, { name, feeAoa: 1 }, { db: client, actor: await testOwner() }),
    ).toMatchObject({
      ok: false,
      status: 409,
      code: "name_taken",
    });
  });

  it.each([
    ["name", { name: "", feeAoa: 1 }],
    ["name", { name: "a\u0000b", feeAoa: 1 }],
    ["name", { name: "x".repeat(81), feeAoa: 1 }],
    ["feeAoa", { name: "ok", feeAoa: -1 }],
    ["feeAoa", { name: "ok", feeAoa: 10_000_001 }],
    ["feeAoa", { name: "ok", feeAoa: 1.5 }],
    ["feeAoa", { name: "ok", feeAoa: "1500.0" }],
    ["freeFromAoa", { name: "ok", feeAoa: 1, freeFromAoa: 0 }],
    ["estimatedDays", { name: "ok", feeAoa: 1, estimatedDays: 61 }],
    ["active", { name: "ok", feeAoa: 1, active: "maybe" }],
  ])("bad input: 400 naming %s", async (field, input) => {
    const response = await createZone({ json: input });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: "invalid_input" } });
    const form = await createZone({
      form: Object.fromEntries(Object.entries(input).map(([key, value]) => [key, String(value)])),
    });
    expect(form.headers.get("location")).toBe(`/admin/delivery?error=invalid_input&field=${field}#zones`);
  });
});

describe("pickup points", () => {
  it("JSON: 201 with the point and its id; edit and turn off", async () => {
    const name = unique("Loja da Maianga");
    const response = await createPoint({
      json: { name, address: "Rua Cónego Manuel das Neves, Maianga", hours: "Seg–Sáb 9h–18h", active: true },
    });
    expect(response.status).toBe(201);
    const { pickupPoint } = await json(response);
    expect(pickupPoint).toMatchObject({ name, hours: "Seg–Sáb 9h–18h", active: true });
    const edited = await editPoint(pickupPoint.id, {
      form: { name, address: "Outra rua", hours: "Seg–Sex 8h–17h", position: "2", active: "false" },
    });
    expect(edited.headers.get("location")).toBe("/admin/delivery?done=saved#pickup-points");
    expect(await client.pickupPoint.findUniqueOrThrow({ where: { id: pickupPoint.id } })).toMatchObject({
      address: "Outra rua",
      position: 2,
      active: false,
    });
  });

  it("a duplicate name: 409; bad input: 400 naming the field", async () => {
    const name = unique("Talatona Shopping");
    expect((await createPoint({ json: { name, address: "a", hours: "h" } })).status).toBe(201);
    expect(await json(await createPoint({ json: { name, address: "b", hours: "h" } }))).toMatchObject({
      error: { code: "name_taken" },
    });
    for (const [field, input] of [
      ["address", { name: "ok", address: "x".repeat(301), hours: "h" }],
      ["address", { name: "ok", address: "a\u0000", hours: "h" }],
      ["hours", { name: "ok", address: "a", hours: "h".repeat(201) }],
      ["hours", { name: "ok", address: "a" }],
    ] as const) {
      const form = await createPoint({ form: input as Record<string, string> });
      expect(form.headers.get("location"), field).toBe(
        `/admin/delivery?error=invalid_input&field=${field}#pickup-points`,
      );
      expect((await createPoint({ json: input })).status).toBe(400);
    }
  });
});

describe("GET /api/delivery-options", () => {
  it("lists only the active zones and points, by position then name", async () => {
    await client.deliveryZone.deleteMany();
    await client.pickupPoint.deleteMany();
    const zone = async (name: string, position: number, active = true) => {
      const result = await createDeliveryZone(
        { name, feeAoa: 1000 + position, position, active, estimatedDays: 1 },
        { db: client, actor: await testOwner() },
      );
      if (!result.ok) throw new Error(result.message);
      return result.zone;
    };
    await zone("B zona", 1);
    await zone("A zona", 1);
    await zone("Primeira", 0);
    await zone("Desligada", 0, false);
    for (const [name, position, active] of [
      ["Ponto 2", 2, true],
      ["Ponto 1", 1, true],
      ["Ponto fechado", 0, false],
    ] as const)
      expect(
        (
          await createPickupPoint(
            { name, address: "Rua", hours: "9h–18h", position, active },
            { db: client, actor: await testOwner() },
          )
        ).ok,
      ).toBe(true);

    const answer = await options();
    expect(answer.zones.map((z) => z.name)).toEqual(["Primeira", "A zona", "B zona"]);
    expect(answer.zones[0]).toEqual({
      id: expect.any(String),
      name: "Primeira",
      feeAoa: 1000,
      freeFromAoa: null,
      estimatedDays: 1,
      municipalities: [],
    });
    expect(answer.pickupPoints).toEqual([
      { id: expect.any(String), name: "Ponto 1", address: "Rua", hours: "9h–18h" },
      { id: expect.any(String), name: "Ponto 2", address: "Rua", hours: "9h–18h" },
    ]);
    expect(await deliveryOptions(client)).toEqual(answer);
  });

  it("follows a zone turned off", async () => {
    const created = await createDeliveryZone(
      { name: unique("Temporária"), feeAoa: 500 },
      { db: client, actor: await testOwner() },
    );
    if (!created.ok) throw new Error(created.message);
    expect((await options()).zones.map((z) => z.id)).toContain(created.zone.id);
    await editZone(created.zone.id, { json: { name: created.zone.name, feeAoa: 500, active: false } });
    expect((await options()).zones.map((z) => z.id)).not.toContain(created.zone.id);
  });
});
