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

/** A product without options, with `variantId`, its one variant (made by a trigger, lib/variants.ts). */
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

export const jobsOf = (externalTransactionId: string) =>
  db().job.findMany({ where: { dedupeKey: { endsWith: `:${externalTransactionId}` } }, orderBy: { type: "asc" } });
