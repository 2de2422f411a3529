import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buyAgain, type BuyAgainResult } from "@/lib/accounts/buy-again";
import { getCart } from "@/lib/cart/cart";
import { db } from "@/lib/db/client";
import { insertTestProduct, newExternalTransactionId } from "../../../harness/support/orders";
import { randomPhoneKey } from "../../../harness/support/shoppers";

// "Comprar de novo" (lib/accounts/buy-again.ts) against the suite's real database: an order's
// lines back in the cart through the cart's own add, at today's prices and stock, what is gone or
// short said line by line; only for an order of the signed-in phone. Every test has products and
// a phone of its own.

type Product = Awaited<ReturnType<typeof insertTestProduct>>;

/** An order placed with `phone` as typed, one line per product (bought at `unitPriceAoa`). */
async function orderOf(phone: string, lines: { product: Product; quantity: number; unitPriceAoa?: number }[]) {
  return db().order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      status: "CON",
      finalizedAt: new Date(),
      amountAoa: lines.reduce((sum, line) => sum + (line.unitPriceAoa ?? 2_500) * line.quantity, 0),
      clientId: `shopper_${randomUUID()}`,
      customerPhone: phone,
      lines: {
        create: lines.map((line) => ({
          productId: line.product.id,
          variantId: line.product.variantId,
          productName: line.product.name,
          unitPriceAoa: line.unitPriceAoa ?? 2_500,
          quantity: line.quantity,
        })),
      },
    },
  });
}

function bought(result: BuyAgainResult) {
  if (!result.ok) throw new Error(`expected lines back in the cart, got ${result.code}: ${result.message}`);
  return result;
}

const byName = <T extends { name: string }>(rows: T[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));

const cartLinesOf = async (cartId: string) =>
  (await getCart(db(), cartId))!.lines.map((line) => ({
    variantId: line.variantId,
    quantity: line.quantity,
    unitPriceAoa: line.unitPriceAoa,
  }));

describe("buyAgain", () => {
  it("puts the lines back at today's price, and says plainly what is gone, sold out or short", async () => {
    const phone = randomPhoneKey();
    const [repriced, unpublished, soldOut, short] = await Promise.all([
      insertTestProduct({ priceAoa: 2_500, stock: 10 }),
      insertTestProduct({ stock: 10 }),
      insertTestProduct({ stock: 10 }),
      insertTestProduct({ stock: 10 }),
    ]);
    const order = await orderOf(`0${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`, [
      { product: repriced, quantity: 2 },
      { product: unpublished, quantity: 2 },
      { product: soldOut, quantity: 2 },
      { product: short, quantity: 3 },
    ]);
    // Since the order: a new price, a product taken off the shop, a variant sold out, a stock run low.
    await db().productVariant.update({ where: { id: repriced.variantId }, data: { priceAoa: 3_000 } });
    await db().product.update({ where: { id: unpublished.id }, data: { archivedAt: new Date() } });
    await db().productVariant.update({ where: { id: soldOut.variantId }, data: { stock: 0 } });
    await db().productVariant.update({ where: { id: short.variantId }, data: { stock: 1 } });

    const result = bought(
      await buyAgain(db(), { cartId: undefined, externalTransactionId: order.externalTransactionId, phoneKey: phone }),
    );

    expect(result.cartId).toEqual(expect.any(String));
    expect(byName(result.added)).toEqual(
      byName([
        {
          name: repriced.name,
          productId: repriced.id,
          variantId: repriced.variantId,
          quantity: 2,
          unitPriceAoa: 3_000,
          orderedUnitPriceAoa: 2_500,
        },
        {
          name: short.name,
          productId: short.id,
          variantId: short.variantId,
          quantity: 1,
          unitPriceAoa: 2_500,
          orderedUnitPriceAoa: 2_500,
        },
      ]),
    );
    expect(byName(result.unavailable)).toEqual(
      byName([
        { name: unpublished.name, reason: "gone", quantity: 2 },
        { name: soldOut.name, reason: "out_of_stock", quantity: 2 },
        { name: short.name, reason: "reduced", quantity: 2 },
      ]),
    );
    // The cart charges today's price.
    expect(byName((await cartLinesOf(result.cartId!)).map((line) => ({ ...line, name: line.variantId })))).toEqual(
      byName([
        { name: repriced.variantId, variantId: repriced.variantId, quantity: 2, unitPriceAoa: 3_000 },
        { name: short.variantId, variantId: short.variantId, quantity: 1, unitPriceAoa: 2_500 },
      ]),
    );
  });

  it("adds to the open cart, counting what was in it, and says an archived variant is gone", async () => {
    const phone = randomPhoneKey();
    const [kept, archived] = await Promise.all([insertTestProduct({ stock: 4 }), insertTestProduct({ stock: 10 })]);
    const order = await orderOf(`+244 ${phone}`, [
      { product: kept, quantity: 3 },
      { product: archived, quantity: 1 },
    ]);
    await db().productVariant.update({ where: { id: archived.variantId }, data: { archivedAt: new Date() } });
    const cart = await db().cart.create({
      data: { status: "OPEN", lines: { create: { variantId: kept.variantId, quantity: 2 } } },
    });

    const result = bought(
      await buyAgain(db(), { cartId: cart.id, externalTransactionId: order.externalTransactionId, phoneKey: phone }),
    );
    expect(result.cartId).toBe(cart.id);
    // Two were there, four in stock: two more went in.
    expect(result.added).toMatchObject([{ variantId: kept.variantId, quantity: 2 }]);
    expect(byName(result.unavailable)).toEqual(
      byName([
        { name: kept.name, reason: "reduced", quantity: 1 },
        { name: archived.name, reason: "gone", quantity: 1 },
      ]),
    );
    expect(await cartLinesOf(cart.id)).toMatchObject([{ variantId: kept.variantId, quantity: 4 }]);
  });

  it("starts a new cart when the cookie's was checked out", async () => {
    const phone = randomPhoneKey();
    const product = await insertTestProduct({ stock: 10 });
    const order = await orderOf(phone, [{ product, quantity: 1 }]);
    const paid = await db().cart.create({ data: { status: "CHECKED_OUT" } });
    const result = bought(
      await buyAgain(db(), { cartId: paid.id, externalTransactionId: order.externalTransactionId, phoneKey: phone }),
    );
    expect(result.cartId).not.toBe(paid.id);
    expect(await cartLinesOf(result.cartId!)).toMatchObject([{ variantId: product.variantId, quantity: 1 }]);
  });

  it("reports the cart's limits instead of failing: a full cart, and a line that fits only in part", async () => {
    const phone = randomPhoneKey();
    const [first, second] = await Promise.all([insertTestProduct({ stock: 10 }), insertTestProduct({ stock: 10 })]);
    const order = await orderOf(phone, [
      { product: first, quantity: 3 },
      { product: second, quantity: 2 },
    ]);
    const request = { cartId: undefined, externalTransactionId: order.externalTransactionId, phoneKey: phone };

    const result = bought(await buyAgain(db(), request, { limits: { perLine: 10, perOrder: 4 } }));
    const units = result.added.reduce((sum, line) => sum + line.quantity, 0);
    expect(units).toBe(4);
    expect(result.unavailable).toEqual([expect.objectContaining({ reason: "cart_full", quantity: 1 })]);

    // Again into the same, now full, cart: nothing fits, every line says so.
    const again = bought(
      await buyAgain(db(), { ...request, cartId: result.cartId! }, { limits: { perLine: 10, perOrder: 4 } }),
    );
    expect(again.cartId).toBe(result.cartId);
    expect(again.added).toEqual([]);
    expect(byName(again.unavailable)).toEqual(
      byName([
        { name: first.name, reason: "cart_full", quantity: 3 },
        { name: second.name, reason: "cart_full", quantity: 2 },
      ]),
    );
    expect((await getCart(db(), result.cartId!))!.itemCount).toBe(4);
  });

  it("refuses a cart a payment holds, as the cart does, changing nothing", async () => {
    const phone = randomPhoneKey();
    const product = await insertTestProduct({ stock: 10 });
    const order = await orderOf(phone, [{ product, quantity: 1 }]);
    const locked = await db().cart.create({ data: { status: "LOCKED" } });
    expect(
      await buyAgain(db(), { cartId: locked.id, externalTransactionId: order.externalTransactionId, phoneKey: phone }),
    ).toMatchObject({ ok: false, status: 409, code: "cart_locked" });
    expect(await db().cartLine.count({ where: { cartId: locked.id } })).toBe(0);
  });

  it("answers an order of another phone exactly as an unknown one, putting nothing in any cart", async () => {
    const phone = randomPhoneKey();
    const product = await insertTestProduct({ stock: 10 });
    const order = await orderOf(phone, [{ product, quantity: 1 }]);
    const foreign = await orderOf(`+351 ${phone}`, [{ product, quantity: 1 }]);
    const cart = await db().cart.create({ data: { status: "OPEN" } });

    const unknown = await buyAgain(db(), {
      cartId: cart.id,
      externalTransactionId: newExternalTransactionId(),
      phoneKey: phone,
    });
    expect(unknown).toMatchObject({ ok: false, status: 404, code: "not_found" });
    for (const request of [
      { externalTransactionId: order.externalTransactionId, phoneKey: randomPhoneKey() },
      { externalTransactionId: foreign.externalTransactionId, phoneKey: phone },
      { externalTransactionId: order.externalTransactionId, phoneKey: `0${phone}` },
      { externalTransactionId: order.externalTransactionId, phoneKey: "" },
      { externalTransactionId: "order_nope", phoneKey: phone },
    ])
      expect(await buyAgain(db(), { cartId: cart.id, ...request }), JSON.stringify(request)).toEqual(unknown);
    expect(await db().cartLine.count({ where: { cartId: cart.id } })).toBe(0);
  });
});
