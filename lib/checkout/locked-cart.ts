import { NO_IMAGE, shownImage } from "../catalog/gallery";
import { lineName } from "../catalog/variants";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { refusal, type Refusal } from "../refusal";
import { ORDER_DELIVERY_SELECT, orderDelivery } from "../orders/delivery-details";
import { deliveryDescription } from "./order-delivery";
import { createdOrder, type CreatedOrder } from "./payment-order";

/**
 * A cart is checked out once: a second submission of a cart already LOCKED by a checkout (a
 * double click, or a popup still open) answers with that checkout's order, read back from the
 * database, instead of creating another.
 */

/**
 * Answer with the order of the checkout holding the cart, waiting up to `waitMs` for its
 * reference while the first submission is still talking to the service: a double click yields
 * one order and the same answer twice.
 */
export async function answerForLockedCart(
  cartId: string,
  db: Database,
  waitMs: number,
): Promise<({ ok: true; replayed: true } & CreatedOrder) | Refusal<"checkout_in_progress">> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const order = await db.order.findFirst({
      where: { cartId, status: "PEN" },
      orderBy: { createdAt: "desc" },
      select: storedOrderFields,
    });
    if (order?.referenceNumber) return { ok: true, replayed: true, ...storedAnswer(order, order.referenceNumber) };
    if (!order || Date.now() >= deadline)
      return refusal(409, "checkout_in_progress", "this cart is being checked out; try again in a moment");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const storedOrderFields = {
  id: true,
  externalTransactionId: true,
  referenceNumber: true,
  amountAoa: true,
  ...ORDER_DELIVERY_SELECT,
  lines: {
    orderBy: { id: "asc" },
    select: {
      productName: true,
      variantTitle: true,
      unitPriceAoa: true,
      quantity: true,
      discountAoa: true,
      variant: { select: { stock: true, imagePath: true, product: { select: { imagePath: true } } } },
    },
  },
} as const satisfies Prisma.OrderSelect;

type StoredOrder = Prisma.OrderGetPayload<{ select: typeof storedOrderFields }>;

/** The answer for an order made by an earlier submission, from what was stored. */
function storedAnswer(order: StoredOrder, referenceNumber: string): CreatedOrder {
  const delivery = orderDelivery(order);
  return createdOrder(
    {
      id: order.id,
      externalTransactionId: order.externalTransactionId,
      amountAoa: order.amountAoa,
      // Orders made before amounts had parts store none: their amount is their subtotal.
      subtotalAoa: order.subtotalAoa ?? order.amountAoa,
      discountAoa: order.discountAoa,
      deliveryFeeAoa: order.deliveryFeeAoa,
      promoCode: order.promoCode,
      deliveryDescription: delivery.method
        ? deliveryDescription(
            delivery.method,
            (delivery.method === "delivery" ? delivery.zone : delivery.pickup)?.name ?? "",
          )
        : null,
      lines: order.lines.map((line) => ({
        name: lineName(line.productName, line.variantTitle),
        imagePath: shownImage(line.variant?.imagePath) ?? line.variant?.product.imagePath ?? NO_IMAGE,
        unitPriceAoa: line.unitPriceAoa,
        quantity: line.quantity,
        discountAoa: line.discountAoa,
        stock: line.variant?.stock ?? 0,
      })),
    },
    referenceNumber,
  );
}
