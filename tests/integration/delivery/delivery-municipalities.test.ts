import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { adminRequest } from "../../../harness/support/admin";
import { postCreateOrder } from "../../../harness/support/checkout";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";

// The municipalities a delivery zone serves (lib/delivery/municipalities.ts): the owner lists
// them in the back office, one municipality in at most one zone (whatever its accents and case),
// and endpoint A derives the zone and its fee from the address's municipality, refusing a posted
// zone that disagrees. A database and a sandbox of this file's own: the zones are the whole shop's.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  db: () => shared.client,
  dbPool: () => shared.pool,
}));

let database: TestDatabase;
let client: PrismaClient;
let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  database = await createTestDatabase("delivery_municipalities");
  await applyMigrations({ connectionString: database.url });
  const max = process.env.TEST_SERVER_DATABASE_URL ? 10 : 1;
  ({ client, pool: shared.pool } = clientOf(database.url, max));
  shared.client = client;
  sandbox = await useOwnSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(() => sandbox.control.reset());
afterEach(async () => {
  await settleAfterTasks();
  vi.restoreAllMocks();
});

const quiet = () => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
};
const json = async (response: Response) => (await response.json()) as Record<string, any>;
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

async function createZone(body: { json: unknown } | { form: Record<string, string> }) {
  const { POST } = await import("@/app/api/admin/delivery-zones/route");
  return POST(await adminRequest("/api/admin/delivery-zones", body));
}
async function editZone(id: string, body: { json: unknown } | { form: Record<string, string> }) {
  const { POST } = await import("@/app/api/admin/delivery-zones/[id]/route");
  return POST(await adminRequest(`/api/admin/delivery-zones/${id}`, body), { params: Promise.resolve({ id }) });
}
async function zoneOf(body: { json: unknown }) {
  const response = await createZone(body);
  expect(response.status).toBe(201);
  return (await json(response)).zone as { id: string; name: string; municipalities: string[] };
}
const municipalitiesOf = async (zoneId: string) =>
  (
    await client.deliveryZoneMunicipality.findMany({
      where: { zoneId },
      select: { name: true },
      orderBy: { name: "asc" },
    })
  ).map((row) => row.name);

describe("the owner lists a zone's municipalities", () => {
  it("JSON: created with its list, each kept once; an edit that leaves the list out keeps it", async () => {
    const zone = await zoneOf({
      json: { name: unique("Sul"), feeAoa: 2_000, municipalities: ["Talatona", " Belas ", "belas"] },
    });
    expect(zone.municipalities).toEqual(["Belas", "Talatona"]);
    expect(await municipalitiesOf(zone.id)).toEqual(["Belas", "Talatona"]);
    const edited = await editZone(zone.id, { json: { name: zone.name, feeAoa: 2_200 } });
    expect(edited.status).toBe(200);
    expect(await municipalitiesOf(zone.id)).toEqual(["Belas", "Talatona"]);
    const cleared = await editZone(zone.id, { json: { name: zone.name, feeAoa: 2_200, municipalities: [] } });
    expect(await json(cleared)).toMatchObject({ zone: { municipalities: [] } });
    expect(await municipalitiesOf(zone.id)).toEqual([]);
  });

  it("the page's textarea: one municipality a line", async () => {
    const name = unique("Norte");
    const response = await createZone({
      form: { name, feeAoa: "3000", municipalities: "Cacuaco\r\n\r\nSambizanga\n" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/delivery?done=created#zones");
    const zone = await client.deliveryZone.findUniqueOrThrow({ where: { name } });
    expect(await municipalitiesOf(zone.id)).toEqual(["Cacuaco", "Sambizanga"]);
  });

  it("a municipality another zone serves, however it is written: 409 naming the zone, nothing changed", async () => {
    const served = await zoneOf({ json: { name: unique("Kissama"), feeAoa: 5_000, municipalities: ["Quiçama"] } });
    const count = await client.deliveryZone.count();
    const created = await createZone({ json: { name: unique("Outra"), feeAoa: 1_000, municipalities: ["QUICAMA"] } });
    expect(created.status).toBe(409);
    const body = await json(created);
    expect(body.error.code).toBe("municipality_served");
    expect(body.error.message).toContain(served.name);
    expect(body.error.message).toContain("QUICAMA");
    expect(await client.deliveryZone.count()).toBe(count);

    const other = await zoneOf({ json: { name: unique("Leste"), feeAoa: 1_000, municipalities: ["Cazenga"] } });
    const edited = await editZone(other.id, {
      json: { name: other.name, feeAoa: 9_999, municipalities: ["Cazenga", "quiçama"] },
    });
    expect(edited.status).toBe(409);
    expect((await json(edited)).error.message).toContain(served.name);
    expect(await municipalitiesOf(other.id)).toEqual(["Cazenga"]);
    expect((await client.deliveryZone.findUniqueOrThrow({ where: { id: other.id } })).feeAoa).toBe(1_000);

    const form = await editZone(other.id, { form: { name: other.name, feeAoa: "1000", municipalities: "Quiçama" } });
    expect(form.headers.get("location")).toBe("/admin/delivery?error=municipality_served&field=municipalities#zones");
    expect(await municipalitiesOf(served.id)).toEqual(["Quiçama"]);
  });

  it("two zones saved at once with one municipality: one gets it, the other a 409 naming it", async () => {
    const names = [unique("Par A"), unique("Par B")];
    const answers = await Promise.all(
      names.map((name) => createZone({ json: { name, feeAoa: 1_000, municipalities: ["Mussulo"] } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = await json(answers.find((answer) => answer.status === 409)!);
    expect(refused.error.code).toBe("municipality_served");
    const holders = await client.deliveryZoneMunicipality.findMany({
      where: { name: "Mussulo" },
      select: { zone: { select: { name: true } } },
    });
    expect(holders).toHaveLength(1);
    expect(refused.error.message).toContain(holders[0]!.zone.name);
  });

  it("the database itself keeps one municipality in one zone, accents and case aside", async () => {
    const first = await zoneOf({ json: { name: unique("Um"), feeAoa: 1, municipalities: ["Ingombota"] } });
    const second = await zoneOf({ json: { name: unique("Dois"), feeAoa: 1 } });
    await expect(
      client.deliveryZoneMunicipality.create({ data: { zoneId: second.id, name: "INGÓMBOTA" } }),
    ).rejects.toThrow();
    expect(await municipalitiesOf(first.id)).toEqual(["Ingombota"]);
  });
});

describe("the checkout derives the zone from the address's municipality", () => {
  let south: { id: string; name: string };
  let east: { id: string; name: string };
  let open: { id: string; name: string };

  beforeAll(async () => {
    south = await zoneOf({
      json: { name: unique("Entrega Sul"), feeAoa: 2_000, municipalities: ["Kilamba Kiaxi", "Camama"] },
    });
    east = await zoneOf({ json: { name: unique("Entrega Leste"), feeAoa: 3_500, municipalities: ["Viana"] } });
    // A zone listing no municipality (one from before they were listed): not yet restricted.
    open = await zoneOf({ json: { name: unique("Entrega antiga"), feeAoa: 4_000 } });
  });

  const address = (municipality: string) => ({
    province: "Luanda",
    municipality,
    neighbourhood: "Golfe 2",
    street: "Rua 21, casa 4",
    reference: "Perto da escola primária",
  });
  const customer = { name: "Ana Silva", phone: "+244 923 456 789" };
  const stockOf = async (productId: string) =>
    (await client.product.findUniqueOrThrow({ where: { id: productId }, select: { stock: true } })).stock;
  const charged = async () =>
    (await sandbox.control.requests("/paypartner/createPaymentOrder")).filter((request) => request.status === 200);

  it("the municipality alone: its zone and fee, the zone's own spelling kept on the order", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 10_000, stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer,
      delivery: { method: "delivery", address: address("kilamba kiáxi") },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ amountAoa: 12_000, deliveryFeeAoa: 2_000 });
    const order = await client.order.findUniqueOrThrow({
      where: { externalTransactionId: answer.body.externalTransactionId },
    });
    expect(order).toMatchObject({ deliveryZoneId: south.id, deliveryZoneName: south.name, deliveryFeeAoa: 2_000 });
    expect(order.deliveryAddress).toMatchObject({ municipality: "Kilamba Kiaxi" });
    expect((await charged()).map((request) => JSON.parse(request.body).amount)).toEqual([12_000]);
  });

  it("the zone that serves it posted too: accepted", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer,
      delivery: { method: "delivery", zoneId: east.id, address: address("Viana") },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ deliveryFeeAoa: 3_500 });
  });

  it.each([
    ["a cheaper zone than the one serving the municipality", () => south.id, "Viana", "delivery_zone_mismatch"],
    ["a zone that serves other municipalities", () => east.id, "Huambo", "delivery_zone_mismatch"],
    ["a municipality no zone serves", () => undefined, "Huambo", "municipality_not_served"],
    ["an unrestricted zone for a municipality another zone serves", () => open.id, "Camama", "delivery_zone_mismatch"],
  ])(
    "%s: 400 naming delivery.address.municipality, nothing held, no call to the service",
    async (_name, zoneId, municipality, code) => {
      quiet();
      const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
      const before = await client.order.count();
      const id = zoneId();
      const answer = await postCreateOrder({
        items: [{ productId: product.id, quantity: 1 }],
        customer,
        delivery: { method: "delivery", ...(id ? { zoneId: id } : {}), address: address(municipality) },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe(code);
      expect(answer.body.error.message).toContain("delivery.address.municipality");
      expect(answer.body.error.message).toContain(municipality);
      expect(await stockOf(product.id)).toBe(5);
      expect(await client.order.count()).toBe(before);
      expect(await charged()).toEqual([]);
    },
  );

  it("a zone that lists no municipality yet keeps taking the address the shopper picks it for", async () => {
    quiet();
    const product = await insertTestProduct({ priceAoa: 1_000, stock: 5 });
    const answer = await postCreateOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer,
      delivery: { method: "delivery", zoneId: open.id, address: address("Huambo") },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ deliveryFeeAoa: 4_000 });
  });

  it("GET /api/delivery-options names each zone's municipalities", async () => {
    const { GET } = await import("@/app/api/delivery-options/route");
    const body = await json(await GET());
    const zones = body.zones as { id: string; municipalities: string[] }[];
    expect(zones.find((zone) => zone.id === south.id)?.municipalities).toEqual(["Camama", "Kilamba Kiaxi"]);
    expect(zones.find((zone) => zone.id === open.id)?.municipalities).toEqual([]);
  });
});
