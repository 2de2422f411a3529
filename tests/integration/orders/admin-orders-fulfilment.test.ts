import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_COLUMNS, ordersCsv, parseExportRange } from "@/lib/orders/export-admin";
import { listAdminOrders, parseOrdersQuery } from "@/lib/orders/orders-admin";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";

// The back office's orders list filtered by fulfilment and delivery method, and the CSV export's
// delivery columns, on a database of this file's own: the list reads every order.

let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("admin_orders_fulfilment");
  await applyMigrations({ connectionString: database.url });
  const max = process.env.TEST_SERVER_DATABASE_URL ? 4 : 1;
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max }) });
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

const DAY = new Date("2026-06-10T10:00:00Z");
let minute = 0;

/** An order created a minute after the previous one, so the list's order is known. */
function insertOrder(data: {
  status: "PEN" | "CON" | "CAN";
  method?: "pickup" | "delivery";
  fulfilmentState?: string;
  extra?: Record<string, unknown>;
}) {
  minute += 1;
  return client.order.create({
    data: {
      externalTransactionId: `order_${randomUUID()}`,
      status: data.status,
      amountAoa: 10_000,
      clientId: `shopper_${randomUUID()}`,
      createdAt: new Date(DAY.getTime() + minute * 60_000),
      finalizedAt: data.status === "PEN" ? null : new Date(DAY.getTime() + minute * 60_000 + 1000),
      deliveryMethod: data.method ?? null,
      fulfilmentState: data.fulfilmentState ?? null,
      ...data.extra,
    },
  });
}

describe("the orders list's fulfilment and method filters", () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    const orders = {
      oldPaid: await insertOrder({ status: "CON" }),
      deliveryToPrepare: await insertOrder({ status: "CON", method: "delivery" }),
      pickupToPrepare: await insertOrder({ status: "CON", method: "pickup" }),
      shipped: await insertOrder({ status: "CON", method: "delivery", fulfilmentState: "shipped" }),
      ready: await insertOrder({ status: "CON", method: "pickup", fulfilmentState: "ready_for_pickup" }),
      delivered: await insertOrder({ status: "CON", method: "delivery", fulfilmentState: "delivered" }),
      collected: await insertOrder({ status: "CON", method: "pickup", fulfilmentState: "collected" }),
      pending: await insertOrder({ status: "PEN", method: "delivery" }),
      cancelled: await insertOrder({ status: "CAN", method: "pickup" }),
    };
    ids = Object.fromEntries(Object.entries(orders).map(([name, order]) => [name, order.externalTransactionId]));
  });

  /** The names of the listed orders, newest first, for these query parameters. */
  async function listed(params: Record<string, string>) {
    const page = await listAdminOrders(client, parseOrdersQuery(params));
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    expect(page.total).toBe(page.orders.length);
    return page.orders.map((order) => names[order.externalTransactionId]);
  }

  it("to_prepare is a paid order with no fulfilment state yet, whatever its method", async () => {
    expect(await listed({ fulfilment: "to_prepare" })).toEqual(["pickupToPrepare", "deliveryToPrepare", "oldPaid"]);
  });

  it.each([
    ["shipped", ["shipped"]],
    ["ready_for_pickup", ["ready"]],
    ["delivered", ["delivered"]],
    ["collected", ["collected"]],
  ])("%s lists the paid orders in that state", async (state, expected) => {
    expect(await listed({ fulfilment: state })).toEqual(expected);
  });

  it("filters by method, alone or with the fulfilment state and the status", async () => {
    expect(await listed({ method: "pickup" })).toEqual(["cancelled", "collected", "ready", "pickupToPrepare"]);
    expect(await listed({ method: "delivery" })).toEqual(["pending", "delivered", "shipped", "deliveryToPrepare"]);
    expect(await listed({ method: "delivery", fulfilment: "to_prepare" })).toEqual(["deliveryToPrepare"]);
    expect(await listed({ method: "pickup", status: "CAN" })).toEqual(["cancelled"]);
    expect(await listed({ fulfilment: "to_prepare", status: "PEN" })).toEqual([]);
  });

  it("ignores a bad filter (all orders), never an error, and the rows carry method and state", async () => {
    expect(parseOrdersQuery({ fulfilment: "lost", method: "drone" })).toEqual({ page: 1 });
    expect(parseOrdersQuery({ fulfilment: ["shipped", "x"], method: ["pickup"] })).toMatchObject({
      fulfilment: "shipped",
      method: "pickup",
    });
    expect(await listed({ fulfilment: "lost", method: "drone" })).toHaveLength(9);
    const [row] = (await listAdminOrders(client, parseOrdersQuery({ fulfilment: "ready_for_pickup" }))).orders;
    expect(row).toMatchObject({ deliveryMethod: "pickup", fulfilmentState: "ready_for_pickup" });
  });
});

describe("the CSV export's delivery columns", () => {
  it("has the method, zone or pickup point, address, amount's parts, code, fulfilment state and email", async () => {
    const day = new Date("2026-07-01T12:00:00Z");
    const delivery = await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        status: "CON",
        clientId: "shopper_csv",
        createdAt: day,
        finalizedAt: new Date(day.getTime() + 1000),
        amountAoa: 9_500,
        subtotalAoa: 10_000,
        discountAoa: 2_000,
        promoCode: "BEMVINDO",
        deliveryFeeAoa: 1_500,
        deliveryMethod: "delivery",
        deliveryZoneName: "Luanda centro",
        deliveryEstimatedDays: 2,
        deliveryAddress: {
          province: "Luanda",
          municipality: "Maianga",
          neighbourhood: "Alvalade",
          street: "=Rua 1",
          reference: "Prédio azul",
        },
        customerEmail: "ana@example.com",
        fulfilmentState: "shipped",
      },
    });
    const pickup = await client.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        status: "PEN",
        clientId: "shopper_csv",
        createdAt: new Date(day.getTime() + 60_000),
        amountAoa: 3_000,
        subtotalAoa: 3_000,
        deliveryMethod: "pickup",
        pickupPointName: "Loja da Baixa",
        pickupPointAddress: "Largo 1",
        pickupPointHours: "9h-18h",
      },
    });
    const range = parseExportRange("2026-07-01", "2026-07-01");
    if (!range.ok) throw new Error(range.message);
    const records: string[][] = parse(await new Response(ordersCsv(client, range.range)).text(), { bom: true });
    expect(records[0]).toEqual([...EXPORT_COLUMNS]);
    const column = (record: string[], name: (typeof EXPORT_COLUMNS)[number]) => record[EXPORT_COLUMNS.indexOf(name)];
    const byId = new Map(records.slice(1).map((record) => [record[0], record]));
    const deliveryRow = byId.get(delivery.externalTransactionId)!;
    expect(deliveryRow.slice(EXPORT_COLUMNS.indexOf("delivery_method"))).toEqual([
      "delivery",
      "Luanda centro",
      "",
      "Luanda",
      "Maianga",
      "Alvalade",
      "'=Rua 1",
      "Prédio azul",
      "10000",
      "2000",
      "BEMVINDO",
      "1500",
      "shipped",
      "ana@example.com",
      // customer_nif: none given.
      "",
      // refunded_aoa: nothing given back.
      "0",
    ]);
    const pickupRow = byId.get(pickup.externalTransactionId)!;
    expect(column(pickupRow, "delivery_method")).toBe("pickup");
    expect(column(pickupRow, "pickup_point")).toBe("Loja da Baixa");
    expect(column(pickupRow, "delivery_zone")).toBe("");
    // Unpaid: nothing to fulfil yet.
    expect(column(pickupRow, "fulfilment_state")).toBe("");
  });
});
