import { randomUUID } from "node:crypto";
import { takeUnits } from "../catalog/stock";
import type { Database } from "../db/client";
import { deliveryFee } from "../delivery/delivery-rules";
import { Prisma } from "../generated/prisma/client";
import type { UnitLimits } from "../order-limits";
import type { Customer } from "../orders/customer-rules";
import type { ReferenceLine } from "../pay/sdk/payment-references";
import { applyPromo, recordPromoUse } from "../promotions/promo-codes";
import type { DeliveryChoice, OrderItem } from "./checkout-rules";
import { refused } from "./checkout-refusal";
import { refuseOverReferenceHolds, refuseTooManyOpenOrders } from "./open-order-caps";
import { resolveDelivery } from "./order-delivery";
import { refuseOverUnitCaps, resolveVariants } from "./order-lines";

/**
 * The order's one transaction: lock the cart, check the caps, read the database's prices,
 * reserve the stock and create the order PEN with a snapshot of its lines and its delivery.
 * Its amount is `subtotal − discount + delivery fee`, every part from the database.
 */

export type CheckoutSource = { kind: "items"; items: OrderItem[] } | { kind: "cart"; cartId: string | undefined };

export interface CreateOrderInput {
  source: CheckoutSource;
  customer?: Customer;
  /** How the goods reach the shopper; required when the shop offers any method. */
  delivery?: DeliveryChoice;
  /** A promo code as the shopper typed it. */
  promoCode?: string;
  /** A stable id of the shopper (contract 2.2 `clientId`). */
  clientId: string;
  /**
   * The key the client's address counts under (lib/http/client-address.ts' rateLimitKeyOf), for the
   * cap on one address's open orders; stored on the order. Null when the address cannot be read
   * (a proxy set-up that hides it, see TRUST_PROXY): no cap then, rather than one shared by every
   * such shopper; the per-shopper cap and the per-address rate limit still apply.
   */
  clientAddress?: string | null;
}

export interface OrderPolicy {
  /** Seconds an unpaid order holds its stock (ORDER_HOLD_SECONDS). */
  holdSeconds: number;
  /** Open orders per shopper; 0: no cap (MAX_OPEN_ORDERS_PER_SHOPPER). */
  maxOpenPerShopper: number;
  /** Open orders per client address, whatever its cookies; 0: no cap (MAX_OPEN_ORDERS_PER_ADDRESS). */
  maxOpenPerAddress: number;
  /** Orders holding a bank reference per client address and per phone; 0 or absent: no cap (MAX_REFERENCE_HOLDS). */
  maxReferenceHolds?: number;
  /** Units of one variant, and in all, per order (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER). */
  units: UnitLimits;
}

export interface ReservedOrder {
  id: string;
  externalTransactionId: string;
  amountAoa: number;
  subtotalAoa: number;
  discountAoa: number;
  deliveryFeeAoa: number;
  promoCode: string | null;
  /** "Entrega: Talatona" or "Levantamento: Loja do Maculusso". */
  deliveryDescription: string | null;
  lines: (ReferenceLine & { imagePath: string })[];
}

/** The order column is a PostgreSQL integer. */
const MAX_AMOUNT_AOA = 2_147_483_647;

/** Reserves the order, or throws the Rollback of a CheckoutRefusal (nothing then is kept). */
export async function reserveOrder(input: CreateOrderInput, db: Database, policy: OrderPolicy): Promise<ReservedOrder> {
  return db.$transaction(async (tx) => {
    let items: OrderItem[];
    let cartId: string | null = null;
    if (input.source.kind === "cart") {
      cartId = input.source.cartId ?? null;
      if (!cartId) throw refused(422, "cart_empty", "there is no cart to check out");
      // The lock is the row update itself: a concurrent checkout of this cart waits here, then finds it LOCKED.
      const locked = await tx.cart.updateMany({ where: { id: cartId, status: "OPEN" }, data: { status: "LOCKED" } });
      if (locked.count === 0) {
        const cart = await tx.cart.findUnique({ where: { id: cartId }, select: { status: true } });
        if (!cart) throw refused(422, "cart_empty", "there is no cart to check out");
        if (cart.status === "CHECKED_OUT") throw refused(409, "cart_checked_out", "this cart was already paid for");
        throw refused(409, "cart_locked", "this cart is being checked out");
      }
      const cartLines = await tx.cartLine.findMany({
        where: { cartId },
        select: { variantId: true, quantity: true, variant: { select: { productId: true } } },
      });
      items = cartLines.map((line) => ({
        productId: line.variant.productId,
        variantId: line.variantId,
        quantity: line.quantity,
      }));
      if (items.length === 0) throw refused(422, "cart_empty", "the cart is empty");
    } else {
      items = input.source.items;
    }

    // Shopper first, then address: every checkout takes the two locks in this order.
    if (policy.maxOpenPerShopper > 0)
      await refuseTooManyOpenOrders(tx, { column: "client_id", value: input.clientId }, policy.maxOpenPerShopper);
    if (policy.maxOpenPerAddress > 0 && input.clientAddress)
      await refuseTooManyOpenOrders(
        tx,
        { column: "client_address", value: input.clientAddress },
        policy.maxOpenPerAddress,
      );
    // Then the phone: lib/orders/reference-holds.ts takes the address's lock (again) and the phone's.
    if (policy.maxReferenceHolds)
      await refuseOverReferenceHolds(
        tx,
        { address: input.clientAddress ?? null, phone: input.customer?.phone ?? null },
        policy.maxReferenceHolds,
      );

    const lines = await resolveVariants(tx, items);
    refuseOverUnitCaps(lines, policy.units);
    const delivery = await resolveDelivery(tx, input.delivery);
    // One conditional UPDATE per variant, in lib/catalog/stock.ts' lock order (no deadlock between checkouts).
    const short = await takeUnits(
      tx,
      lines.map((line) => ({ productId: line.productId, variantId: line.variantId, quantity: line.quantity })),
    );
    if (short) {
      const line = lines.find((candidate) => candidate.variantId === short.variantId)!;
      // The variants let the caller end expired holds on them and try once more.
      throw refused(409, "out_of_stock", `not enough ${line.name} in stock for ${line.quantity}`, {
        variantIds: lines.map((candidate) => candidate.variantId),
      });
    }

    const subtotalAoa = lines.reduce((sum, line) => sum + line.unitPriceAoa * line.quantity, 0);
    if (subtotalAoa > MAX_AMOUNT_AOA) throw refused(422, "amount_too_large", "the order total is too large");
    // After the stock: the code's row is locked last (lib/catalog/stock.ts' order, then promo_codes),
    // and its use is counted in this transaction, on that locked row.
    const promo = input.promoCode
      ? await applyPromo(tx, {
          code: input.promoCode,
          lines: lines.map((line) => ({ productId: line.productId, lineTotalAoa: line.unitPriceAoa * line.quantity })),
          phone: input.customer?.phone ?? null,
          lock: true,
        })
      : null;
    if (promo && !promo.ok) throw refused(422, promo.code, promo.message);
    const discountAoa = promo?.discountAoa ?? 0;
    // Free from the zone's threshold on the subtotal after the discount.
    const deliveryFeeAoa = delivery?.zone ? deliveryFee(delivery.zone, subtotalAoa - discountAoa) : 0;
    const amountAoa = subtotalAoa - discountAoa + deliveryFeeAoa;
    if (amountAoa > MAX_AMOUNT_AOA) throw refused(422, "amount_too_large", "the order total is too large");
    if (amountAoa < 1)
      throw refused(
        422,
        "amount_not_payable",
        "with this promo code there is nothing left to pay; the service charges at least 1 Kz",
      );

    const created = await tx.order.create({
      data: {
        externalTransactionId: `order_${randomUUID()}`,
        status: "PEN",
        amountAoa,
        clientId: input.clientId,
        clientAddress: input.clientAddress ?? null,
        customerName: input.customer?.name ?? null,
        customerPhone: input.customer?.phone ?? null,
        customerEmail: input.customer?.email ?? null,
        customerNif: input.customer?.nif ?? null,
        subtotalAoa,
        discountAoa,
        deliveryFeeAoa,
        promoCodeId: promo?.promoCodeId ?? null,
        promoCode: promo?.code ?? null,
        ...delivery?.columns,
        cartId,
        // Its units are held until then; a checkout that finds the stock short ends the expired holds keeping it.
        holdExpiresAt: new Date(Date.now() + policy.holdSeconds * 1000),
      },
      select: { id: true, externalTransactionId: true },
    });
    // Apart from the order, not nested in its create: a nested create reads the order back with one
    // more statement, where a plain one takes what it needs from the INSERT's RETURNING.
    await tx.orderLine.createMany({
      data: lines.map((line, index) => ({
        orderId: created.id,
        productId: line.productId,
        variantId: line.variantId,
        productName: line.productName,
        variantTitle: line.variantTitle,
        sku: line.sku,
        unitPriceAoa: line.unitPriceAoa,
        quantity: line.quantity,
        discountAoa: promo?.lineDiscounts[index] ?? 0,
      })),
    });
    if (promo)
      await recordPromoUse(tx, {
        promoCodeId: promo.promoCodeId,
        orderId: created.id,
        phone: input.customer?.phone ?? null,
        discountAoa,
      });
    return {
      ...created,
      amountAoa,
      subtotalAoa,
      discountAoa,
      deliveryFeeAoa,
      promoCode: promo?.code ?? null,
      deliveryDescription: delivery?.description ?? null,
      lines: lines.map((line, index) => ({
        name: line.name,
        imagePath: line.imagePath,
        unitPriceAoa: line.unitPriceAoa,
        quantity: line.quantity,
        discountAoa: promo?.lineDiscounts[index] ?? 0,
        // What the variant has left once this order holds its units: what a second submission reads.
        stock: line.stock - line.quantity,
      })),
    };
  });
}
