import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getCart, MAX_CART_LINES, type CartChange } from "@/lib/cart/cart";
import { addToCart, removeLine, setLineQuantity } from "@/lib/cart/cart-changes";
import { MAX_QUANTITY_INPUT } from "@/lib/order-limits";
import { db } from "@/lib/db/client";
import { insertTestProduct } from "../../../harness/support/orders";

// lib/cart/cart.ts against the suite's real database. Every test makes products of its own, so stock
// and carts never race other test files.

function changed(result: CartChange) {
  if (!result.ok) throw new Error(`expected a change, got ${result.code}: ${result.message}`);
  return result;
}

const itemsOf = async (cartId: string) =>
  (
    await db().cartLine.findMany({
      where: { cartId },
      select: { quantity: true, variant: { select: { productId: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    })
  ).map((line) => ({ productId: line.variant.productId, quantity: line.quantity }));

/** A cart with these lines, each of the product's one variant. */
async function cartWith(lines: { productId: string; quantity: number }[], status: "OPEN" | "LOCKED" | "CHECKED_OUT") {
  const variants = await db().productVariant.findMany({
    where: { productId: { in: lines.map((line) => line.productId) } },
    select: { id: true, productId: true },
  });
  const variantOf = (productId: string) => variants.find((variant) => variant.productId === productId)!.id;
  const cart = await db().cart.create({ data: { status } });
  // One by one, so that their order (createdAt) is the order given.
  for (const line of lines)
    await db().cartLine.create({
      data: { cartId: cart.id, variantId: variantOf(line.productId), quantity: line.quantity },
    });
  return cart;
}

describe("addToCart", () => {
  it("creates an OPEN cart when there is none and puts the line in it", async () => {
    const product = await insertTestProduct({ priceAoa: 2500, stock: 10 });
    const result = changed(await addToCart(db(), { productId: product.id, quantity: 2 }));

    expect(result).toMatchObject({ quantity: 2, capped: false });
    const cart = await db().cart.findUniqueOrThrow({ where: { id: result.cartId } });
    expect(cart.status).toBe("OPEN");
    expect(await itemsOf(result.cartId)).toEqual([{ productId: product.id, quantity: 2 }]);
  });

  it("accepts the quantity as the digits a form sends", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const result = changed(await addToCart(db(), { productId: product.id, quantity: "3" }));
    expect(await itemsOf(result.cartId)).toEqual([{ productId: product.id, quantity: 3 }]);
  });

  it("adds to the same cart, summing the quantities of the same product", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const other = await insertTestProduct({ stock: 10 });
    const first = changed(await addToCart(db(), { productId: product.id, quantity: 2 }));
    const second = changed(await addToCart(db(), { cartId: first.cartId, productId: product.id, quantity: 3 }));
    changed(await addToCart(db(), { cartId: first.cartId, productId: other.id, quantity: 1 }));

    expect(second).toEqual({ ok: true, cartId: first.cartId, quantity: 5, capped: false });
    expect(await itemsOf(first.cartId)).toEqual([
      { productId: product.id, quantity: 5 },
      { productId: other.id, quantity: 1 },
    ]);
  });

  it("caps the line at the product's stock", async () => {
    const product = await insertTestProduct({ stock: 4 });
    const first = changed(await addToCart(db(), { productId: product.id, quantity: 3 }));
    const second = changed(await addToCart(db(), { cartId: first.cartId, productId: product.id, quantity: 3 }));

    expect(second).toMatchObject({ quantity: 4, capped: true });
    expect(await itemsOf(first.cartId)).toEqual([{ productId: product.id, quantity: 4 }]);
  });

  it("caps the line at MAX_UNITS_PER_LINE (default 10) however much is in stock", async () => {
    const product = await insertTestProduct({ stock: 1000 });
    const first = changed(await addToCart(db(), { productId: product.id, quantity: 8 }));
    const second = changed(await addToCart(db(), { cartId: first.cartId, productId: product.id, quantity: 5 }));

    expect(first).toMatchObject({ quantity: 8, capped: false });
    expect(second).toMatchObject({ quantity: 10, capped: true, cappedBy: "limit" });
    expect(await itemsOf(first.cartId)).toEqual([{ productId: product.id, quantity: 10 }]);
    // The stock, not the cap, when the stock is lower.
    const scarce = await insertTestProduct({ stock: 3 });
    expect(await addToCart(db(), { cartId: first.cartId, productId: scarce.id, quantity: 7 })).toMatchObject({
      quantity: 3,
      cappedBy: "stock",
    });
  });

  it("caps the cart at MAX_UNITS_PER_ORDER across its lines, and refuses a line it has no room for", async () => {
    const limits = { perLine: 10, perOrder: 12 };
    const [a, b, c] = [
      await insertTestProduct({ stock: 50 }),
      await insertTestProduct({ stock: 50 }),
      await insertTestProduct({ stock: 50 }),
    ];
    const first = changed(await addToCart(db(), { productId: a.id, quantity: 10 }, { limits }));
    const cartId = first.cartId;
    expect(await addToCart(db(), { cartId, productId: b.id, quantity: 5 }, { limits })).toMatchObject({
      ok: true,
      quantity: 2,
      capped: true,
      cappedBy: "limit",
    });
    expect(await addToCart(db(), { cartId, productId: c.id, quantity: 1 }, { limits })).toMatchObject({
      ok: false,
      code: "cart_full",
    });
    // Setting a quantity is capped the same way.
    expect(await setLineQuantity(db(), { cartId, variantId: b.variantId, quantity: 9 }, limits)).toMatchObject({
      ok: true,
      quantity: 2,
      cappedBy: "limit",
    });
    expect(await setLineQuantity(db(), { cartId, variantId: a.variantId, quantity: 4 }, limits)).toMatchObject({
      quantity: 4,
      capped: false,
    });
    expect(await setLineQuantity(db(), { cartId, variantId: b.variantId, quantity: 9 }, limits)).toMatchObject({
      quantity: 8,
      capped: true,
    });
    expect(await itemsOf(cartId)).toEqual([
      { productId: a.id, quantity: 4 },
      { productId: b.id, quantity: 8 },
    ]);
  });

  it.each([0, -1, MAX_QUANTITY_INPUT + 1, 1.5, "", "2.0", " 2", "two", null])(
    "refuses the quantity %j and writes nothing",
    async (quantity) => {
      const product = await insertTestProduct({ stock: 10 });
      const cart = await cartWith([], "OPEN");
      const result = await addToCart(db(), { cartId: cart.id, productId: product.id, quantity });

      expect(result).toMatchObject({
        ok: false,
        status: 400,
        code: "invalid_input",
        message: expect.stringContaining("quantity"),
      });
      expect(await itemsOf(cart.id)).toEqual([]);
    },
  );

  it("refuses an unknown product without creating a cart", async () => {
    const cartsBefore = await db().cart.count();
    const result = await addToCart(db(), { productId: randomUUID(), quantity: 1 });

    expect(result).toMatchObject({ ok: false, status: 404, code: "unknown_product" });
    expect(await db().cart.count()).toBe(cartsBefore);
  });

  it("refuses a product id that is not a UUID", async () => {
    expect(await addToCart(db(), { productId: "1; DROP TABLE carts", quantity: 1 })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
  });

  it("refuses a sold-out product", async () => {
    const product = await insertTestProduct({ stock: 0 });
    expect(await addToCart(db(), { productId: product.id, quantity: 1 })).toMatchObject({
      ok: false,
      code: "out_of_stock",
    });
  });

  it("refuses to change a LOCKED cart (a checkout holds it)", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const cart = await cartWith([{ productId: product.id, quantity: 1 }], "LOCKED");
    const result = await addToCart(db(), { cartId: cart.id, productId: product.id, quantity: 1 });

    expect(result).toMatchObject({
      ok: false,
      status: 409,
      code: "cart_locked",
      message: expect.stringContaining("payment"),
    });
    expect(await itemsOf(cart.id)).toEqual([{ productId: product.id, quantity: 1 }]);
  });

  it("starts a new cart when the cookie's cart was checked out, leaving the old one alone", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const paid = await cartWith([], "CHECKED_OUT");
    const result = changed(await addToCart(db(), { cartId: paid.id, productId: product.id, quantity: 1 }));

    expect(result.cartId).not.toBe(paid.id);
    expect(await itemsOf(paid.id)).toEqual([]);
    expect((await db().cart.findUniqueOrThrow({ where: { id: paid.id } })).status).toBe("CHECKED_OUT");
    expect((await db().cart.findUniqueOrThrow({ where: { id: result.cartId } })).status).toBe("OPEN");
  });

  it("starts a new cart when the cookie names a cart that does not exist", async () => {
    const product = await insertTestProduct({ stock: 10 });
    const missing = randomUUID();
    const result = changed(await addToCart(db(), { cartId: missing, productId: product.id, quantity: 1 }));
    expect(result.cartId).not.toBe(missing);
  });

  it(`holds at most ${MAX_CART_LINES} lines, and still adds to a line it has`, async () => {
    const products = await Promise.all(
      Array.from({ length: MAX_CART_LINES + 1 }, () => insertTestProduct({ stock: 10 })),
    );
    const full = products.slice(0, MAX_CART_LINES);
    const cart = await cartWith(
      full.map((product) => ({ productId: product.id, quantity: 1 })),
      "OPEN",
    );
    const extra = products[MAX_CART_LINES]!;
    // Room for units: the count of lines is what is tested.
    const limits = { perLine: 10, perOrder: 100 };

    expect(await addToCart(db(), { cartId: cart.id, productId: extra.id, quantity: 1 }, { limits })).toMatchObject({
      ok: false,
      code: "too_many_lines",
    });
    expect(await db().cartItem.count({ where: { cartId: cart.id } })).toBe(MAX_CART_LINES);
    expect(
      changed(await addToCart(db(), { cartId: cart.id, productId: full[0]!.id, quantity: 1 }, { limits })).quantity,
    ).toBe(2);
  });
});

describe("setLineQuantity", () => {
  it("sets the quantity, capped by the stock", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const cart = await cartWith([{ productId: product.id, quantity: 1 }], "OPEN");

    expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity: "4" })).toEqual({
      ok: true,
      cartId: cart.id,
      quantity: 4,
      capped: false,
    });
    expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity: 9 })).toMatchObject({
      quantity: 6,
      capped: true,
    });
    expect(await itemsOf(cart.id)).toEqual([{ productId: product.id, quantity: 6 }]);
  });

  it("removes the line when the quantity is 0", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const cart = await cartWith([{ productId: product.id, quantity: 2 }], "OPEN");

    expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity: 0 })).toMatchObject({
      ok: true,
      quantity: 0,
    });
    expect(await itemsOf(cart.id)).toEqual([]);
  });

  it.each([-1, MAX_QUANTITY_INPUT + 1, 2.5, "abc"])("refuses the quantity %j and changes nothing", async (quantity) => {
    const product = await insertTestProduct({ stock: 6 });
    const cart = await cartWith([{ productId: product.id, quantity: 2 }], "OPEN");

    expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
    expect(await itemsOf(cart.id)).toEqual([{ productId: product.id, quantity: 2 }]);
  });

  it("refuses a product that is not in the cart", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const cart = await cartWith([], "OPEN");
    expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity: 1 })).toMatchObject({
      ok: false,
      code: "line_not_found",
    });
    expect(await itemsOf(cart.id)).toEqual([]);
  });

  it("refuses to change a LOCKED cart, even to remove a line", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const cart = await cartWith([{ productId: product.id, quantity: 2 }], "LOCKED");

    for (const quantity of [1, 0])
      expect(await setLineQuantity(db(), { cartId: cart.id, variantId: product.variantId, quantity })).toMatchObject({
        ok: false,
        code: "cart_locked",
      });
    expect(await itemsOf(cart.id)).toEqual([{ productId: product.id, quantity: 2 }]);
  });

  it("treats a checked-out or unknown cart as no cart", async () => {
    const product = await insertTestProduct({ stock: 6 });
    const paid = await cartWith([{ productId: product.id, quantity: 2 }], "CHECKED_OUT");

    for (const cartId of [paid.id, randomUUID(), undefined])
      expect(await setLineQuantity(db(), { cartId, variantId: product.variantId, quantity: 1 })).toMatchObject({
        ok: false,
        code: "no_cart",
      });
    expect(await itemsOf(paid.id)).toEqual([{ productId: product.id, quantity: 2 }]);
  });
});

describe("removeLine", () => {
  it("removes only that line", async () => {
    const kept = await insertTestProduct();
    const removed = await insertTestProduct();
    const cart = await cartWith(
      [
        { productId: kept.id, quantity: 1 },
        { productId: removed.id, quantity: 3 },
      ],
      "OPEN",
    );

    expect(await removeLine(db(), { cartId: cart.id, variantId: removed.variantId })).toMatchObject({ ok: true });
    expect(await itemsOf(cart.id)).toEqual([{ productId: kept.id, quantity: 1 }]);
    expect(await removeLine(db(), { cartId: cart.id, variantId: removed.variantId })).toMatchObject({
      ok: false,
      code: "line_not_found",
    });
  });

  it("refuses to change a LOCKED cart", async () => {
    const product = await insertTestProduct();
    const cart = await cartWith([{ productId: product.id, quantity: 1 }], "LOCKED");
    expect(await removeLine(db(), { cartId: cart.id, variantId: product.variantId })).toMatchObject({
      ok: false,
      code: "cart_locked",
    });
    expect(await itemsOf(cart.id)).toEqual([{ productId: product.id, quantity: 1 }]);
  });

  it("refuses ids that are not UUIDs", async () => {
    expect(await removeLine(db(), { cartId: "nope", variantId: randomUUID() })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
  });
});

describe("getCart", () => {
  it("flags an open cart over the caps on units (filled before they were lowered), per line and in all", async () => {
    const [a, b] = [await insertTestProduct({ stock: 50 }), await insertTestProduct({ stock: 50 })];
    const cart = await cartWith(
      [
        { productId: a.id, quantity: 8 },
        { productId: b.id, quantity: 6 },
      ],
      "OPEN",
    );
    const view = async (limits: { perLine: number; perOrder: number }) => {
      const found = await getCart(db(), cart.id, limits);
      return { exceedsLimits: found!.exceedsLimits, limits: found!.limits };
    };
    expect(await view({ perLine: 10, perOrder: 50 })).toEqual({
      exceedsLimits: false,
      limits: { perLine: 10, perOrder: 50 },
    });
    expect((await view({ perLine: 7, perOrder: 50 })).exceedsLimits).toBe(true);
    expect((await view({ perLine: 10, perOrder: 13 })).exceedsLimits).toBe(true);
    // A LOCKED cart's units are already an order's: nothing to fix.
    await db().cart.update({ where: { id: cart.id }, data: { status: "LOCKED" } });
    expect((await view({ perLine: 7, perOrder: 13 })).exceedsLimits).toBe(false);
  });

  it("computes line totals and the total from the database's current prices", async () => {
    const coffee = await insertTestProduct({ priceAoa: 6500, stock: 10 });
    const honey = await insertTestProduct({ priceAoa: 3200, stock: 1 });
    const cart = await cartWith(
      [
        { productId: coffee.id, quantity: 2 },
        { productId: honey.id, quantity: 3 },
      ],
      "OPEN",
    );
    // A price change after the line was added shows at once: the cart stores no prices.
    await db().productVariant.update({ where: { id: coffee.variantId }, data: { priceAoa: 7000 } });

    const view = await getCart(db(), cart.id);
    expect({ ...view, lines: [...(view?.lines ?? [])].sort((a, b) => b.unitPriceAoa - a.unitPriceAoa) }).toEqual({
      id: cart.id,
      status: "OPEN",
      lines: [
        {
          productId: coffee.id,
          variantId: coffee.variantId,
          slug: coffee.slug,
          name: coffee.name,
          productName: coffee.name,
          variantTitle: "",
          sku: null,
          image: coffee.imagePath,
          unitPriceAoa: 7000,
          quantity: 2,
          stock: 10,
          lineTotalAoa: 14_000,
        },
        {
          productId: honey.id,
          variantId: honey.variantId,
          slug: honey.slug,
          name: honey.name,
          productName: honey.name,
          variantTitle: "",
          sku: null,
          image: honey.imagePath,
          unitPriceAoa: 3200,
          quantity: 3,
          stock: 1,
          lineTotalAoa: 9600,
        },
      ],
      itemCount: 5,
      totalAoa: 23_600,
      exceedsStock: true,
      limits: { perLine: 10, perOrder: 50 },
      exceedsLimits: false,
    });
  });

  it("shows a LOCKED cart with its lines, whose units are already reserved, not short of stock", async () => {
    // The checkout took the last unit: stock 0 now, and that unit is this cart's.
    const product = await insertTestProduct({ priceAoa: 1000, stock: 0 });
    const cart = await cartWith([{ productId: product.id, quantity: 1 }], "LOCKED");
    expect(await getCart(db(), cart.id)).toMatchObject({ status: "LOCKED", totalAoa: 1000, exceedsStock: false });
  });

  it("is null without a cart, for a malformed or unknown id, and for a checked-out cart", async () => {
    const paid = await cartWith([], "CHECKED_OUT");
    for (const id of [undefined, "not-a-uuid", randomUUID(), paid.id]) expect(await getCart(db(), id)).toBeNull();
  });
});
