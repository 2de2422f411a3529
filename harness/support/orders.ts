import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import type { OrderStatus } from "@/lib/orders/state-machine";

/**
 * Rows for tests that start from an order already in the database, written the way
 * create-order writes them: a product of its own (so stock assertions never race other test
 * files), a locked cart holding the same lines, and the order with its line snapshot.
 */
export interface TestOrder {
  id: string;
  externalTransactionId: string;
  referenceNumber: string;
  productId: string;
  variantId: string;
  cartId: string;
  quantity: number;
  amountAoa: number;
}

export const newExternalTransactionId = () => `order_${randomUUID()}`;

/** A product without options, with `variantId`, its one variant (made by a trigger, lib/catalog/variants.ts). */
export async function insertTestProduct(options: { priceAoa?: number; stock?: number } = {}) {
  const slug = `test-${randomUUID()}`;
  const { variants, ...product } = await db().product.create({
    data: {
      slug,
      name: `Produto de teste ${slug.slice(5, 13)}`,
      description: "Criado por um teste.",
      imagePath: "/products/cafe-amboim.svg",
      priceAoa: options.priceAoa ?? 2500,
      stock: options.stock ?? 100,
    },
    include: { variants: { select: { id: true } } },
  });
  return { ...product, variantId: variants[0]!.id };
}

export async function insertTestOrder(
  options: { status?: OrderStatus; quantity?: number; stockAfterReservation?: number; referenceNumber?: string } = {},
): Promise<TestOrder> {
  const quantity = options.quantity ?? 2;
  const product = await insertTestProduct({ stock: options.stockAfterReservation ?? 10 });
  const final = options.status && options.status !== "PEN";
  const cart = await db().cart.create({
    data: { status: "LOCKED", lines: { create: { variantId: product.variantId, quantity } } },
  });
  const externalTransactionId = newExternalTransactionId();
  const referenceNumber = options.referenceNumber ?? String(100_000_000 + Math.floor(Math.random() * 899_999_999));
  const order = await db().order.create({
    data: {
      externalTransactionId,
      referenceNumber,
      status: options.status ?? "PEN",
      finalizedAt: final ? new Date() : null,
      amountAoa: product.priceAoa * quantity,
      clientId: `shopper_${randomUUID()}`,
      cartId: cart.id,
      lines: {
        create: {
          productId: product.id,
          variantId: product.variantId,
          productName: product.name,
          unitPriceAoa: product.priceAoa,
          quantity,
        },
      },
    },
  });
  return {
    id: order.id,
    externalTransactionId,
    referenceNumber,
    productId: product.id,
    variantId: product.variantId,
    cartId: cart.id,
    quantity,
    amountAoa: order.amountAoa,
  };
}

/**
 * As if `minutes` passed: every timestamp of every order moves that far into the past. The
 * database's now() cannot be moved, and the checks, holds and sweeps compare with it, so this is
 * how a test lets an hour (or a day, a minute at a time) go by. Every timestamp column, whatever
 * the schema has, so no column is left behind in the present.
 */
export async function passTime(minutes: number): Promise<void> {
  orderTimestampColumns ??= db().$queryRaw<
    { name: string }[]
  >`SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'orders' AND data_type LIKE 'timestamp%'`.then((columns) =>
    columns.map((column) => column.name),
  );
  const set = (await orderTimestampColumns)
    .map((name) => `"${name}" = "${name}" - make_interval(secs => $1::double precision)`)
    .join(", ");
  await db().$executeRawUnsafe(`UPDATE orders SET ${set}`, minutes * 60);
}
let orderTimestampColumns: Promise<string[]> | undefined;

export const jobsOf = (externalTransactionId: string) =>
  db().job.findMany({ where: { dedupeKey: { endsWith: `:${externalTransactionId}` } }, orderBy: { type: "asc" } });

/**
 * A product with options, as the back office makes one: its default variant becomes the first
 * combination and the others are added (a trigger keeps the product's stock and lowest price).
 * `variants` lists each combination's values in option order, its price and stock.
 */
export async function insertTestProductWithOptions(
  options: { name: string; values: string[] }[],
  variants: { values: string[]; priceAoa: number; stock: number; sku?: string; imagePath?: string }[],
) {
  const product = await insertTestProduct({ priceAoa: variants[0]!.priceAoa, stock: variants[0]!.stock });
  const optionsOf = (values: string[]) => Object.fromEntries(options.map((option, i) => [option.name, values[i]!]));
  const ids = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM products WHERE id = ${product.id}::uuid FOR NO KEY UPDATE`;
    await tx.productOption.createMany({
      data: options.map((option, i) => ({ productId: product.id, position: i + 1, ...option })),
    });
    const [first, ...rest] = variants;
    await tx.productVariant.update({
      where: { id: product.variantId },
      data: { options: optionsOf(first!.values), sku: first!.sku ?? null, imagePath: first!.imagePath ?? null },
    });
    const created = [];
    for (const [i, variant] of rest.entries())
      created.push(
        await tx.productVariant.create({
          data: {
            productId: product.id,
            options: optionsOf(variant.values),
            priceAoa: variant.priceAoa,
            stock: variant.stock,
            sku: variant.sku ?? null,
            imagePath: variant.imagePath ?? null,
            position: i + 1,
          },
          select: { id: true },
        }),
      );
    return [product.variantId, ...created.map((variant) => variant.id)];
  });
  return { ...product, variantIds: ids };
}
