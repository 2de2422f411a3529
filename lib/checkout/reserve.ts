import { randomUUID } from "node:crypto";
import { takeUnits } from "../catalog/stock";
import { pgRunner, type ConnectionPool } from "../db/sql-runner";
import { deliveryFee } from "../delivery/delivery-rules";
import { Prisma } from "../generated/prisma/client";
import type { UnitLimits } from "../order-limits";
import type { Customer } from "../orders/customer-rules";
import type { ReferenceLine } from "../pay/sdk/payment-references";
import { applyPromo, recordPromoUse } from "../promotions/promo-codes";
import type { DeliveryChoice, OrderItem } from "./checkout-rules";
import { refused } from "./checkout-refusal";
import { refuseOverOpenOrderCaps } from "./open-order-caps";
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

/**
 * Reserves the order, or throws the Rollback of a CheckoutRefusal (nothing then is kept). On a
 * connection of `pool` through `pg` itself (lib/db/sql-runner.ts): a checkout is a dozen short
 * statements, and Prisma's interactive transaction cost more than they do (bench/README.md).
 */
export async function reserveOrder(
  input: CreateOrderInput,
  pool: ConnectionPool,
  policy: OrderPolicy,
): Promise<ReservedOrder> {
  return pgRunner(pool).$transaction(async (tx) => {
    let items: OrderItem[];
    let cartId: string | null = null;
    if (input.source.kind === "cart") {
      cartId = input.source.cartId ?? null;
      if (!cartId) throw refused(422, "cart_empty", "there is no cart to check out");
      // The lock is the row update itself: a concurrent checkout of this cart waits here, then finds it LOCKED.
      const locked = await tx.$executeRaw(Prisma.sql`
UPDATE carts SET status = 'LOCKED', updated_at = now() WHERE id = ${cartId}::uuid AND status = 'OPEN'`);
      if (locked === 0) {
        const [cart] = await tx.$queryRaw<{ status: string }[]>(Prisma.sql`
SELECT status::text FROM carts WHERE id = ${cartId}::uuid`);
        if (!cart) throw refused(422, "cart_empty", "there is no cart to check out");
        if (cart.status === "CHECKED_OUT") throw refused(409, "cart_checked_out", "this cart was already paid for");
        throw refused(409, "cart_locked", "this cart is being checked out");
      }
      items = await tx.$queryRaw<OrderItem[]>(Prisma.sql`
SELECT v.product_id AS "productId", l.variant_id AS "variantId", l.quantity
FROM cart_lines l JOIN product_variants v ON v.id = l.variant_id
WHERE l.cart_id = ${cartId}::uuid ORDER BY l.created_at, l.id`);
      if (items.length === 0) throw refused(422, "cart_empty", "the cart is empty");
    } else {
      items = input.source.items;
    }

    // Before anything is held: the caps on one client's open orders and day-long holds.
    await refuseOverOpenOrderCaps(
      tx,
      { clientId: input.clientId, address: input.clientAddress ?? null, phone: input.customer?.phone ?? null },
      policy,
    );

    const lines = await resolveVariants(tx, items);
    refuseOverUnitCaps(lines, policy.units);
    const delivery = await resolveDelivery(tx, input.delivery);
    // One conditional UPDATE for every variant, under the products' locks (lib/catalog/stock.ts: no deadlock between checkouts).
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

    const columns = delivery?.columns;
    const [created] = await tx.$queryRaw<{ id: string; externalTransactionId: string }[]>(Prisma.sql`
INSERT INTO orders (
  external_transaction_id, status, amount_aoa, client_id, client_address,
  customer_name, customer_phone, customer_email, customer_nif,
  subtotal_aoa, discount_aoa, delivery_fee_aoa, promo_code_id, promo_code,
  delivery_method, delivery_zone_id, delivery_zone_name, delivery_estimated_days, delivery_address,
  pickup_point_id, pickup_point_name, pickup_point_address, pickup_point_hours,
  cart_id, hold_expires_at
) VALUES (
  ${`order_${randomUUID()}`}, 'PEN', ${amountAoa}::int, ${input.clientId}, ${input.clientAddress ?? null},
  ${input.customer?.name ?? null}, ${input.customer?.phone ?? null}, ${input.customer?.email ?? null},
  ${input.customer?.nif ?? null},
  ${subtotalAoa}::int, ${discountAoa}::int, ${deliveryFeeAoa}::int, ${promo?.promoCodeId ?? null}::uuid,
  ${promo?.code ?? null},
  ${columns?.deliveryMethod ?? null}, ${columns?.deliveryZoneId ?? null}::uuid, ${columns?.deliveryZoneName ?? null},
  ${columns?.deliveryEstimatedDays ?? null}::int,
  ${columns?.deliveryAddress ? JSON.stringify(columns.deliveryAddress) : null}::jsonb,
  ${columns?.pickupPointId ?? null}::uuid, ${columns?.pickupPointName ?? null}, ${columns?.pickupPointAddress ?? null},
  ${columns?.pickupPointHours ?? null},
  ${cartId}::uuid,
  -- Its units are held until then; a checkout that finds the stock short ends the expired holds keeping it.
  now() + ${policy.holdSeconds}::int * interval '1 second'
) RETURNING id, external_transaction_id AS "externalTransactionId"`);
    if (!created) throw new Error("the order's INSERT returned no row");
    // All the lines in one statement, from arrays in line order.
    await tx.$executeRaw(Prisma.sql`
INSERT INTO order_lines (order_id, product_id, variant_id, product_name, variant_title, sku, unit_price_aoa, quantity, discount_aoa)
SELECT ${created.id}::uuid, line.*
FROM unnest(${lines.map((line) => line.productId)}::uuid[], ${lines.map((line) => line.variantId)}::uuid[],
            ${lines.map((line) => line.productName)}::text[], ${lines.map((line) => line.variantTitle)}::text[],
            ${lines.map((line) => line.sku)}::text[], ${lines.map((line) => line.unitPriceAoa)}::int[],
            ${lines.map((line) => line.quantity)}::int[], ${lines.map((_, index) => promo?.lineDiscounts[index] ?? 0)}::int[])
  AS line (product_id, variant_id, product_name, variant_title, sku, unit_price_aoa, quantity, discount_aoa)`);
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
