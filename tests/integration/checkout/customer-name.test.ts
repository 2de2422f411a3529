import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { settleAfterTasks } from "../../../harness/support/next-after";
import { insertTestProduct } from "../../../harness/support/orders";
import { useOwnSandbox } from "../../../harness/support/sandbox";

// POST /api/pay/create-order with a customer name that carries more than a name (a web or e-mail
// address, a phone number, markup): 400 naming customer.name, and nothing held: no order, no unit
// reserved, the cart still open, no payment order at the service. Called as Next calls the route,
// against the suite's database and a sandbox of this file's own (its request log is ours alone).

let sandbox: Awaited<ReturnType<typeof useOwnSandbox>>;

beforeAll(async () => {
  sandbox = await useOwnSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(() => settleAfterTasks());

async function createOrder(body: unknown, cartId?: string) {
  const { POST } = await import("@/app/api/pay/create-order/route");
  const response = await POST(
    new NextRequest("http://localhost:3000/api/pay/create-order", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cartId ? { Cookie: `cart_id=${cartId}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const createPaymentOrders = () => sandbox.control.requests("/paypartner/createPaymentOrder");
const stockOf = async (variantId: string) =>
  (await db().productVariant.findUniqueOrThrow({ where: { id: variantId } })).stock;
const ordersOf = (productId: string) => db().order.findMany({ where: { lines: { some: { productId } } } });

describe("a customer name that is more than a name", () => {
  it.each([
    ["the prize mail's name", "GANHOU 500.000 Kz! Reclame ja em https://premio-loja.example/kz"],
    ["a bare domain", "Visite site.ao"],
    ["www.", "Ana www.premio"],
    ["an e-mail address", "ana@example.com"],
    ["markup", "<a href=x>Ana</a>"],
    ["a phone number", "Ligue 923 456 789"],
  ])("%s: 400 naming customer.name, nothing held, nothing asked of the service", async (_what, name) => {
    const product = await insertTestProduct({ stock: 5 });
    const cart = await db().cart.create({
      data: { lines: { create: { variantId: product.variantId, quantity: 2 } } },
    });

    const response = await createOrder({ customer: { name, phone: "+244 923 456 789" } }, cart.id);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: "invalid_request", message: expect.any(String) } });
    expect(response.body.error.message).toMatch(/^customer\.name must be a name only/);
    // The name is not echoed back.
    expect(response.body.error.message).not.toContain(name);
    expect(await ordersOf(product.id)).toEqual([]);
    expect(await stockOf(product.variantId)).toBe(5);
    expect(await db().cart.findUniqueOrThrow({ where: { id: cart.id } })).toMatchObject({ status: "OPEN" });
    expect(await createPaymentOrders()).toEqual([]);
  });

  it("a real name, with accents, an apostrophe, an ordinal and initials, is an order as before", async () => {
    const product = await insertTestProduct({ stock: 5 });
    const name = "J. R. D'Almeida-Nzinga 2º";
    const response = await createOrder({
      items: [{ productId: product.id, quantity: 1 }],
      customer: { name, phone: "+244 923 456 789" },
    });
    expect(response.status).toBe(200);
    const [order] = await ordersOf(product.id);
    expect(order).toMatchObject({ status: "PEN", customerName: name });
    expect((await createPaymentOrders()).filter((request) => request.status === 200)).toHaveLength(1);
  });
});
