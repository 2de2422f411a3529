import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { shopperOrders } from "@/lib/orders/lookup";
import { newExternalTransactionId } from "../../../harness/support/orders";

// Finding an order again: "As minhas encomendas" by the shopper cookie; from another device, by
// signing in with the order's phone, since POST /api/orders/lookup no longer opens an order for
// its number and a phone (410 for a JSON client, a form sent back to /orders/lookup). Against the
// suite's real database (PostgreSQL, or PGlite).

async function placedOrder(options: { phone?: string | null; clientId?: string; createdAt?: Date } = {}) {
  return db().order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      amountAoa: 4_500,
      clientId: options.clientId ?? `shopper_${randomUUID()}`,
      customerName: "Ana Teste",
      customerPhone: options.phone === undefined ? "+244 923 456 789" : options.phone,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    },
  });
}

const shortNumber = (externalTransactionId: string) => externalTransactionId.slice(6, 14).toUpperCase();

/** POST /api/orders/lookup as Next calls it. */
async function postLookup(body: string, contentType = "application/json") {
  const { POST } = await import("@/app/api/orders/lookup/route");
  const response = await POST(
    new NextRequest("http://localhost:3000/api/orders/lookup", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
    }),
  );
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

describe("POST /api/orders/lookup", () => {
  it("answers a JSON client 410 gone, pointing at the sign-in, even for an order's right number and phone", async () => {
    const order = await placedOrder();
    for (const body of [
      JSON.stringify({ orderNumber: shortNumber(order.externalTransactionId), phone: "923 456 789" }),
      JSON.stringify({ orderNumber: order.externalTransactionId, phone: "+244 923 456 789" }),
      "{}",
      "{",
      "",
    ]) {
      const answer = await postLookup(body);
      expect(answer.status, body).toBe(410);
      expect(JSON.parse(answer.text), body).toEqual({
        error: { code: "gone", message: expect.stringContaining("/account/sign-in") },
      });
      expect(answer.text).not.toContain(order.externalTransactionId);
    }
  });

  it("sends an old page's form back to /orders/lookup, with nothing of what it posted", async () => {
    const order = await placedOrder();
    const answer = await postLookup(
      new URLSearchParams({ orderNumber: shortNumber(order.externalTransactionId), phone: "923456789" }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(answer).toEqual({ status: 303, location: "/orders/lookup", text: "" });
  });
});

describe("shopperOrders", () => {
  it("lists a shopper's own orders, newest first, with their units", async () => {
    const clientId = `shopper_${randomUUID()}`;
    const older = await placedOrder({ clientId, createdAt: new Date(Date.now() - 60_000) });
    const newer = await placedOrder({ clientId });
    await placedOrder();
    await db().orderLine.create({
      data: {
        orderId: newer.id,
        productId: (await db().product.findFirstOrThrow()).id,
        productName: "x",
        unitPriceAoa: 1,
        quantity: 3,
      },
    });
    const listed = await shopperOrders(db(), clientId);
    expect(listed.map((order) => [order.externalTransactionId, order.items])).toEqual([
      [newer.externalTransactionId, 3],
      [older.externalTransactionId, 0],
    ]);
    expect(await shopperOrders(db(), undefined)).toEqual([]);
  });
});
