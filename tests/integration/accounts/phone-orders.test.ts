import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ordersOfPhone, ordersOfPhoneCount, PHONE_ORDERS_PAGE_MAX } from "@/lib/accounts/phone-orders";
import { customerPhoneIs } from "@/lib/orders/phone-match";
import { clientOf, createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import { insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";

// A signed-in shopper's orders (lib/accounts/phone-orders.ts): every order whose checkout phone
// has the account's key, whatever form it was typed in, guest orders included, newest first, a
// page at a time, with what the account page shows of each. On a database of this file's own
// (PostgreSQL, or PGlite), so the phones below are nobody else's.

const shared = vi.hoisted(() => ({ client: undefined as unknown, pool: undefined as unknown }));
vi.mock("@/lib/db/client", () => ({ db: () => shared.client, dbPool: () => shared.pool }));

let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("phone_orders");
  await applyMigrations({ connectionString: database.url });
  ({ client, pool: shared.pool } = clientOf(database.url));
  shared.client = client;
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});
beforeEach(async () => {
  await client.$executeRaw`TRUNCATE orders, invoices CASCADE`;
});

const KEY = "923111222";
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** An order placed with `phone` as typed, `minutes` ago, with a line of a product of its own. */
async function placed(
  phone: string | null,
  minutes: number,
  options: {
    status?: "PEN" | "CON" | "CAN";
    quantity?: number;
    paymentReference?: string;
    entityNumber?: string;
    invoiced?: boolean;
  } = {},
) {
  const product = await insertTestProduct({ priceAoa: 1_500 });
  const quantity = options.quantity ?? 2;
  const order = await client.order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      status: options.status ?? "PEN",
      finalizedAt: options.status && options.status !== "PEN" ? new Date() : null,
      amountAoa: 1_500 * quantity,
      clientId: `shopper_${randomUUID()}`,
      customerName: "Ana",
      customerPhone: phone,
      createdAt: minutesAgo(minutes),
      holdExpiresAt: new Date(Date.now() + 86_400_000),
      paymentReference: options.paymentReference ?? null,
      entityNumber: options.entityNumber ?? null,
      lines: {
        create: {
          productId: product.id,
          variantId: product.variantId,
          productName: product.name,
          variantTitle: "M, Azul",
          unitPriceAoa: 1_500,
          quantity,
        },
      },
    },
  });
  if (options.invoiced) {
    const number = (await client.invoice.count()) + 1;
    await client.invoice.create({ data: { number, orderId: order.id, amountAoa: order.amountAoa } });
  }
  return { ...order, product };
}

const idsOf = (page: { orders: { externalTransactionId: string }[] }) =>
  page.orders.map((order) => order.externalTransactionId);

describe("ordersOfPhone", () => {
  it("finds the orders of every form of the phone, newest first, and no other phone's", async () => {
    const national = await placed("0923 111 222", 50);
    const international = await placed("+244923111222", 40);
    const dashed = await placed("923-111-222", 30);
    const dialled = await placed("00244 (923) 111.222", 20);
    await placed("+351923111222", 10);
    await placed("+351 923 111 222", 9);
    await placed("923 111 223", 8);
    await placed("0923 111 2222", 7);
    await placed(null, 6);

    const page = await ordersOfPhone(client, KEY);
    expect(idsOf(page)).toEqual([dialled, dashed, international, national].map((order) => order.externalTransactionId));
    expect(page.nextBefore).toBeNull();
    expect(await ordersOfPhoneCount(client, KEY)).toBe(4);
    // The Portuguese number with the same digits is a phone of its own.
    expect(await ordersOfPhoneCount(client, "+351923111222")).toBe(2);
  });

  it("shows each order's number, status, amount, units, lines, pending reference and receipt", async () => {
    const pending = await placed("923111222", 40, {
      quantity: 3,
      paymentReference: "123456789",
      entityNumber: "01234",
    });
    const paid = await placed("923111222", 30, { status: "CON", invoiced: true });
    const paying = await placed("923111222", 20, { status: "CON" });
    const cancelled = await placed("923111222", 10, { status: "CAN", paymentReference: "987654321" });
    const unpaid = await placed("923111222", 5);

    const { orders } = await ordersOfPhone(client, KEY);
    const byId = new Map(orders.map((order) => [order.externalTransactionId, order]));
    expect(byId.get(pending.externalTransactionId)).toEqual({
      externalTransactionId: pending.externalTransactionId,
      orderNumber: pending.externalTransactionId.slice(6, 14).toUpperCase(),
      status: "PEN",
      amountAoa: 4_500,
      createdAt: pending.createdAt,
      items: 3,
      reference: { entityNumber: "01234", paymentReference: "123456789", validUntil: expect.any(String) },
      receipt: null,
      lines: [
        {
          productId: pending.product.id,
          variantId: pending.product.variantId,
          productName: pending.product.name,
          variantTitle: "M, Azul",
          quantity: 3,
        },
      ],
    });
    expect(new Date(byId.get(pending.externalTransactionId)!.reference!.validUntil).getTime()).toBeGreaterThan(
      pending.createdAt.getTime(),
    );
    expect(byId.get(paid.externalTransactionId)).toMatchObject({ status: "CON", reference: null, receipt: "issued" });
    expect(byId.get(paying.externalTransactionId)).toMatchObject({ receipt: "preparing" });
    // A cancelled order's reference is not to be paid, and it has no receipt.
    expect(byId.get(cancelled.externalTransactionId)).toMatchObject({ status: "CAN", reference: null, receipt: null });
    expect(byId.get(unpaid.externalTransactionId)).toMatchObject({ status: "PEN", reference: null, receipt: null });
  });

  it("pages newest first with the last order's id as the cursor, ties broken by id", async () => {
    const placedOrders = [];
    for (let n = 0; n < 5; n++) placedOrders.push(await placed("+244 923 111 222", 50 - n * 10));
    // Two orders of the same millisecond.
    const tie = minutesAgo(60);
    const twins = [await placed("923111222", 60), await placed("923111222", 60)];
    await client.order.updateMany({ where: { id: { in: twins.map((order) => order.id) } }, data: { createdAt: tie } });
    const expected = [
      ...placedOrders.reverse().map((order) => order.externalTransactionId),
      ...twins.sort((a, b) => (a.id < b.id ? 1 : -1)).map((order) => order.externalTransactionId),
    ];

    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await ordersOfPhone(client, KEY, { take: 3, ...(before ? { before } : {}) });
      expect(page.orders.length).toBeLessThanOrEqual(3);
      seen.push(...idsOf(page));
      before = page.nextBefore ?? undefined;
      pages++;
    } while (before);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
  });

  it(`holds ${PHONE_ORDERS_PAGE_MAX} orders a page at most, whatever take asks`, async () => {
    await client.order.createMany({
      data: Array.from({ length: PHONE_ORDERS_PAGE_MAX + 2 }, (_, n) => ({
        externalTransactionId: newExternalTransactionId(),
        amountAoa: 1_000,
        clientId: "guest",
        customerPhone: "923 111 222",
        createdAt: minutesAgo(n),
      })),
    });
    const first = await ordersOfPhone(client, KEY, { take: 1_000 });
    expect(first.orders).toHaveLength(PHONE_ORDERS_PAGE_MAX);
    const rest = await ordersOfPhone(client, KEY, { before: first.nextBefore! });
    expect(rest.orders).toHaveLength(2);
    expect(rest.nextBefore).toBeNull();
    expect((await ordersOfPhone(client, KEY, { take: 0 })).orders).toHaveLength(1);
    expect((await ordersOfPhone(client, KEY, { take: -5 })).orders).toHaveLength(1);
    expect(await ordersOfPhoneCount(client, KEY)).toBe(PHONE_ORDERS_PAGE_MAX + 2);
  });

  it("lists nothing for what is not a phone's key, or a cursor that is not one of this phone's orders", async () => {
    const own = await placed("923111222", 20);
    const other = await placed("923999888", 10);
    for (const key of ["", "0923111222", "+244923111222", "923 111 222", "92311122", "' OR 1=1 --"]) {
      expect(await ordersOfPhone(client, key), key).toEqual({ orders: [], nextBefore: null });
      expect(await ordersOfPhoneCount(client, key), key).toBe(0);
    }
    for (const before of [other.externalTransactionId, newExternalTransactionId(), "order_x", ""])
      expect(await ordersOfPhone(client, KEY, { before }), before).toEqual({ orders: [], nextBefore: null });
    expect(idsOf(await ordersOfPhone(client, KEY))).toEqual([own.externalTransactionId]);
  });

  it("is read through the index on the phone's digits (its expression is the query's)", async () => {
    await placed("923111222", 1);
    const plan = await client.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const rows = await tx.$queryRaw<{ "QUERY PLAN": string }[]>(
        Prisma.sql`EXPLAIN SELECT id FROM orders WHERE ${customerPhoneIs(KEY)}`,
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("orders_customer_phone_digits_idx");
  });
});
