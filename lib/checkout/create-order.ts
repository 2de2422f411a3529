import "server-only";
import { randomUUID } from "node:crypto";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { NO_IMAGE, shownImage } from "../catalog/gallery";
import { Prisma } from "../generated/prisma/client";
import { jobsForTransition } from "../jobs/job-types";
import { jobsOfOrders } from "../jobs/queue";
import { errorKind, type Logger } from "../log";
import { creationFailureReason } from "../orders/cancel-reasons";
import { ORDER_DELIVERY_SELECT, orderDelivery } from "../orders/delivery-details";
import type { DeliveryMethod } from "../orders/fulfilment-states";
import { releaseExpiredHolds } from "../orders/holds";
import { referenceHoldsFull, type ReferenceHolder } from "../orders/reference-holds";
import { applyPaymentUpdate } from "../orders/state-machine";
import { PayServiceError, type PayClient } from "../orders/pay-client";
import { deliveryFee } from "../delivery/delivery-rules";
import { servingZone } from "../delivery/municipalities";
import { formatAoa } from "../money";
import { applyPromo, recordPromoUse } from "../promotions/promo-codes";
import { takeUnits } from "../catalog/stock";
import { lineName, readVariantOptions, variantTitle } from "../catalog/variants";
import type { UnitLimits } from "../order-limits";
import { paymentReferenceItems, type ReferenceLine } from "../pay/sdk/payment-references";
import type { PaymentReferenceItem } from "../pay/sdk/types";
import type { DeliveryAddress, DeliveryChoice, OrderItem } from "./checkout-rules";
import type { Customer } from "../orders/customer-rules";

/**
 * Endpoint A (contract 4.2): turn a cart (or a list of items) into an order at the service.
 *
 * 1. One transaction: lock the cart, read database prices, reserve stock, create the order PEN
 *    with a snapshot of its lines. Nothing the client says about money is used.
 * 2. Outside it (never hold a transaction across the network): createPaymentOrder, then store
 *    the referenceNumber. From here on the order exists at the service, so the shopper gets
 *    the reference even if storing it keeps failing (the reconcile sweep stores it later).
 * 3. If the service fails, the order is cancelled through the state machine (cancelReason
 *    says why) and its CAN jobs — release the stock, reopen the cart — run before we answer,
 *    so the shopper can try again at once and nothing is left dangling.
 *
 * A cart is checked out once: a second submission of the same cart, even at the same moment,
 * answers with the first one's order instead of creating another.
 *
 * Every order holds its units until `hold_expires_at` (ORDER_HOLD_SECONDS from now). When the
 * stock is short because expired holds still keep it, those holds are ended on the spot
 * (lib/orders/holds.ts, bounded and with a short service deadline) and the reservation is tried
 * once more, so a shopper never waits for a cron.
 *
 * No client may hold most of the stock (issue 26): an order has at most MAX_UNITS_PER_LINE units
 * of a variant and MAX_UNITS_PER_ORDER in all (422), and at most MAX_OPEN_ORDERS_PER_SHOPPER
 * orders of one shopper (the `shopper_id` cookie, which the client chooses) and
 * MAX_OPEN_ORDERS_PER_ADDRESS of one client address (which it cannot) are open (pending, hold
 * running) at once (429 with Retry-After); nor is one placed from an address or for a phone
 * whose orders already hold MAX_REFERENCE_HOLDS day-long bank references (429).
 *
 * The amount (issue 25) is `subtotal − discount + delivery fee`, every part from the database:
 * the variants' prices, the promo code (lib/promotions/promo-codes.ts: its use is counted in this transaction, on
 * its locked row), and the zone's fee, free from its threshold on the subtotal after the discount.
 * A shop that offers any pickup point or delivery zone needs one chosen (400 `delivery_required`);
 * a delivery's zone is the one serving the address's municipality (400 `delivery_zone_mismatch`
 * for a posted zone that disagrees, `municipality_not_served` when none serves it). The order
 * keeps a snapshot of it (names, address, hours), so a later edit never rewrites it.
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

export interface CreatedOrder {
  externalTransactionId: string;
  referenceNumber: string;
  /** subtotalAoa − discountAoa + deliveryFeeAoa: what the service charges. */
  amountAoa: number;
  subtotalAoa: number;
  discountAoa: number;
  deliveryFeeAoa: number;
  /** The code applied, as stored (upper case); null without one. */
  promoCode: string | null;
  /** For the SDK's addAllPaymentReferences (lib/pay/sdk/payment-references.ts); they add up to amountAoa. */
  paymentReferences: PaymentReferenceItem[];
}

export type CreateOrderResult =
  | ({ ok: true; replayed: boolean } & CreatedOrder)
  | {
      ok: false;
      status: 400 | 404 | 409 | 422 | 429 | 502 | 503;
      code: string;
      message: string;
      /** With 429: when the shopper may try again. */
      retryAfterSeconds?: number;
    };

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

export interface CreateOrderDeps {
  db: Database;
  pay: PayClient;
  /** The shop's public address, for the absolute image URL sent to the service. */
  appUrl: string;
  /** Runs these jobs now (the cancelled order's stock release and cart reopening). */
  runJobsNow: (jobIds: string[]) => Promise<unknown>;
  log: Logger;
  /** How long a second submission of a cart waits for the first one's reference. */
  concurrentCheckoutWaitMs?: number;
  /** Default: ORDER_HOLD_SECONDS, the MAX_OPEN_ORDERS_* and MAX_UNITS_* caps from the environment. */
  orders?: OrderPolicy;
}

/** The order column is a PostgreSQL integer. */
const MAX_AMOUNT_AOA = 2_147_483_647;
/** Tries at storing the service's referenceNumber, 100 ms, then 200 ms apart. */
const REFERENCE_STORE_ATTEMPTS = 3;

class Refusal extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422 | 429,
    readonly code: string,
    message: string,
    readonly details: { variantIds?: string[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
}

interface ReservedOrder {
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

/**
 * The image createPaymentOrder sends (docs/contract-decisions.md, 2.2): the first line's that has
 * one, else the shop's icon (app/icon.svg), so the field always holds the address of an image.
 */
function orderImage(lines: readonly { imagePath: string }[], appUrl: string): string {
  const path = lines.map((line) => shownImage(line.imagePath)).find((image) => image !== null) ?? SHOP_ICON_PATH;
  return new URL(path, `${appUrl}/`).href;
}

/** app/icon.svg, which Next serves at this address. */
const SHOP_ICON_PATH = "/icon.svg";

export async function createOrder(input: CreateOrderInput, deps: CreateOrderDeps): Promise<CreateOrderResult> {
  const policy = deps.orders ?? getEnv().orders;
  let order: ReservedOrder;
  try {
    order = await reserveOrder(input, deps.db, policy).catch(async (error: unknown) => {
      // Short because expired holds still keep the units: end them now, then try once more.
      if (!(error instanceof Refusal) || error.code !== "out_of_stock" || !error.details.variantIds) throw error;
      const released = await releaseExpiredHolds(error.details.variantIds, deps);
      if (released === 0) throw error;
      deps.log("info", "order.holds_released_for_checkout", { orders: released });
      return reserveOrder(input, deps.db, policy);
    });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.code === "cart_locked" && input.source.kind === "cart" && input.source.cartId)
      return answerForLockedCart(input.source.cartId, deps);
    return {
      ok: false,
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.details.retryAfterSeconds ? { retryAfterSeconds: error.details.retryAfterSeconds } : {}),
    };
  }

  let referenceNumber: string;
  try {
    ({ referenceNumber } = await deps.pay.createPaymentOrder({
      externalTransactionId: order.externalTransactionId,
      clientId: input.clientId,
      name: paymentOrderName(order.lines),
      amountAoa: order.amountAoa,
      image: orderImage(order.lines, deps.appUrl),
      additionalInfo: additionalInfo(order),
    }));
  } catch (error) {
    await cancelUnpaidOrder(order.externalTransactionId, error, deps);
    if (error instanceof PayServiceError) {
      return {
        ok: false,
        status: error.httpStatus,
        code: error.kind === "unavailable" ? "payment_service_unavailable" : "payment_service_error",
        message:
          error.kind === "unavailable"
            ? "the payment service is not answering; nothing was charged, please try again in a moment"
            : "the payment service refused the order; nothing was charged",
      };
    }
    throw error;
  }

  await storeReferenceNumber(order, referenceNumber, deps);
  deps.log("info", "order.created", {
    externalTransactionId: order.externalTransactionId,
    amountAoa: order.amountAoa,
    lines: order.lines.length,
  });
  return { ok: true, replayed: false, ...createdOrder(order, referenceNumber) };
}

function createdOrder(order: ReservedOrder, referenceNumber: string): CreatedOrder {
  return {
    externalTransactionId: order.externalTransactionId,
    referenceNumber,
    amountAoa: order.amountAoa,
    subtotalAoa: order.subtotalAoa,
    discountAoa: order.discountAoa,
    deliveryFeeAoa: order.deliveryFeeAoa,
    promoCode: order.promoCode,
    paymentReferences: paymentReferenceItems({ referenceNumber, ...order }),
  };
}

/** "1× Café do Amboim; 2× Camisola…, M, Preta; Desconto BEMVINDO10: −1 000 Kz; Entrega: Talatona 2 000 Kz". */
function additionalInfo(order: ReservedOrder): string {
  return [
    ...order.lines.map((line) => `${line.quantity}× ${line.name}`),
    ...(order.promoCode ? [`Desconto ${order.promoCode}: −${formatAoa(order.discountAoa)}`] : []),
    ...(order.deliveryDescription
      ? [`${order.deliveryDescription}${order.deliveryFeeAoa > 0 ? ` ${formatAoa(order.deliveryFeeAoa)}` : ""}`]
      : []),
  ]
    .join("; ")
    .slice(0, 500);
}

async function reserveOrder(input: CreateOrderInput, db: Database, policy: OrderPolicy): Promise<ReservedOrder> {
  return db.$transaction(async (tx) => {
    let items: OrderItem[];
    let cartId: string | null = null;
    if (input.source.kind === "cart") {
      cartId = input.source.cartId ?? null;
      if (!cartId) throw new Refusal(422, "cart_empty", "there is no cart to check out");
      // The lock is the row update itself: a concurrent checkout of this cart waits here, then finds it LOCKED.
      const locked = await tx.cart.updateMany({ where: { id: cartId, status: "OPEN" }, data: { status: "LOCKED" } });
      if (locked.count === 0) {
        const cart = await tx.cart.findUnique({ where: { id: cartId }, select: { status: true } });
        if (!cart) throw new Refusal(422, "cart_empty", "there is no cart to check out");
        if (cart.status === "CHECKED_OUT") throw new Refusal(409, "cart_checked_out", "this cart was already paid for");
        throw new Refusal(409, "cart_locked", "this cart is being checked out");
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
      if (items.length === 0) throw new Refusal(422, "cart_empty", "the cart is empty");
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
    refuseOverUnitCaps(lines, policy);
    const delivery = await resolveDelivery(tx, input.delivery);
    // One conditional UPDATE per variant, in lib/catalog/stock.ts' lock order (no deadlock between checkouts).
    const short = await takeUnits(
      tx,
      lines.map((line) => ({ productId: line.productId, variantId: line.variantId, quantity: line.quantity })),
    );
    if (short) {
      const line = lines.find((candidate) => candidate.variantId === short.variantId)!;
      throw new Refusal(409, "out_of_stock", `not enough ${line.name} in stock for ${line.quantity}`, {
        variantIds: lines.map((candidate) => candidate.variantId),
      });
    }

    const subtotalAoa = lines.reduce((sum, line) => sum + line.unitPriceAoa * line.quantity, 0);
    if (subtotalAoa > MAX_AMOUNT_AOA) throw new Refusal(422, "amount_too_large", "the order total is too large");
    // After the stock: the code's row is locked last (lib/catalog/stock.ts' order, then promo_codes).
    const promo = input.promoCode
      ? await applyPromo(tx, {
          code: input.promoCode,
          lines: lines.map((line) => ({ productId: line.productId, lineTotalAoa: line.unitPriceAoa * line.quantity })),
          phone: input.customer?.phone ?? null,
          lock: true,
        })
      : null;
    if (promo && !promo.ok) throw new Refusal(422, promo.code, promo.message);
    const discountAoa = promo?.discountAoa ?? 0;
    const deliveryFeeAoa = delivery?.zone ? deliveryFee(delivery.zone, subtotalAoa - discountAoa) : 0;
    const amountAoa = subtotalAoa - discountAoa + deliveryFeeAoa;
    if (amountAoa > MAX_AMOUNT_AOA) throw new Refusal(422, "amount_too_large", "the order total is too large");
    if (amountAoa < 1)
      throw new Refusal(
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
        subtotalAoa,
        discountAoa,
        deliveryFeeAoa,
        promoCodeId: promo?.promoCodeId ?? null,
        promoCode: promo?.code ?? null,
        ...delivery?.columns,
        cartId,
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

interface ResolvedLine {
  productId: string;
  variantId: string;
  quantity: number;
  productName: string;
  variantTitle: string;
  /** "T-shirt Kianda, M, Azul". */
  name: string;
  sku: string | null;
  unitPriceAoa: number;
  imagePath: string;
  /** The variant's stock before this order took its units. */
  stock: number;
}

/**
 * Each item's variant, with its price and names from the database. An item without `variantId`
 * means the product's one variant; a product with several needs one named (422 variant_required).
 * Archived products and variants are no longer sold: refused as unknown ones are.
 */
async function resolveVariants(tx: Transaction, items: readonly OrderItem[]): Promise<ResolvedLine[]> {
  // One statement: each variant on sale with its product's name, image and options (the
  // transaction awaits every round trip while it holds the cart's lock).
  const variants = await tx.$queryRaw<
    {
      id: string;
      productId: string;
      options: unknown;
      sku: string | null;
      priceAoa: number;
      stock: number;
      imagePath: string | null;
      product: { name: string; imagePath: string; options: { name: string; values: string[] }[] };
    }[]
  >(Prisma.sql`
SELECT v.id, v.product_id AS "productId", v.options, v.sku, v.price_aoa AS "priceAoa", v.stock, v.image_path AS "imagePath",
       json_build_object(
         'name', p.name,
         'imagePath', p.image_path,
         'options', COALESCE((SELECT json_agg(json_build_object('name', o.name, 'values', o.values) ORDER BY o.position)
                              FROM product_options o WHERE o.product_id = p.id), '[]'::json)
       ) AS product
FROM product_variants v JOIN products p ON p.id = v.product_id
WHERE v.product_id = ANY(${items.map((item) => item.productId)}::uuid[]) AND v.archived_at IS NULL
  AND p.archived_at IS NULL -- lib/catalog/on-sale.ts ON_SALE`);
  const unknown = items.filter((item) => !variants.some((variant) => variant.productId === item.productId));
  if (unknown.length > 0)
    throw new Refusal(422, "unknown_product", `no product with id ${unknown.map((item) => item.productId).join(", ")}`);

  const lines = items.map((item): ResolvedLine => {
    const ofProduct = variants.filter((variant) => variant.productId === item.productId);
    const variant = item.variantId
      ? ofProduct.find((candidate) => candidate.id === item.variantId)
      : ofProduct.length === 1
        ? ofProduct[0]
        : undefined;
    if (!variant && item.variantId)
      throw new Refusal(422, "unknown_variant", `product ${item.productId} has no variant ${item.variantId} on sale`);
    if (!variant)
      throw new Refusal(
        422,
        "variant_required",
        `product ${item.productId} is sold in several variants; name one with variantId`,
      );
    const title = variantTitle(variant.product.options, readVariantOptions(variant.options));
    return {
      productId: item.productId,
      variantId: variant.id,
      quantity: item.quantity,
      productName: variant.product.name,
      variantTitle: title,
      name: lineName(variant.product.name, title),
      sku: variant.sku,
      unitPriceAoa: variant.priceAoa,
      imagePath: shownImage(variant.imagePath) ?? variant.product.imagePath,
      stock: variant.stock,
    };
  });
  if (new Set(lines.map((line) => line.variantId)).size !== lines.length)
    throw new Refusal(422, "duplicate_variant", "items lists a variant more than once");
  return lines;
}

type Transaction = Parameters<Parameters<Database["$transaction"]>[0]>[0];

interface ResolvedDelivery {
  /** The zone, for its fee; null for a pickup. */
  zone: { feeAoa: number; freeFromAoa: number | null } | null;
  description: string;
  /** The order's snapshot of the method. */
  columns: {
    deliveryMethod: DeliveryMethod;
    deliveryZoneId?: string;
    deliveryZoneName?: string;
    deliveryEstimatedDays?: number | null;
    deliveryAddress?: DeliveryAddress;
    pickupPointId?: string;
    pickupPointName?: string;
    pickupPointAddress?: string;
    pickupPointHours?: string;
  };
}

/** How the payment references and additionalInfo name the method: "Entrega: Talatona", "Levantamento: Loja…". */
const deliveryDescription = (method: DeliveryMethod, name: string) =>
  `${method === "delivery" ? "Entrega" : "Levantamento"}: ${name}`;

/**
 * The chosen pickup point or zone, active, from the database; none chosen is only right for a
 * shop that offers neither. Refusals name the field (400), and roll the transaction back.
 */
async function resolveDelivery(tx: Transaction, choice: DeliveryChoice | undefined): Promise<ResolvedDelivery | null> {
  if (!choice) {
    const [offered] = await tx.$queryRaw<{ any: boolean }[]>(Prisma.sql`
SELECT EXISTS (SELECT 1 FROM delivery_zones WHERE active) OR EXISTS (SELECT 1 FROM pickup_points WHERE active) AS any`);
    if (offered?.any)
      throw new Refusal(400, "delivery_required", "delivery is required: choose a pickup point or a delivery zone");
    return null;
  }
  if (choice.method === "pickup") {
    const point = await tx.pickupPoint.findFirst({
      where: { id: choice.pickupPointId, active: true },
      select: { id: true, name: true, address: true, hours: true },
    });
    if (!point) throw new Refusal(400, "unknown_pickup_point", "delivery.pickupPointId names no pickup point on offer");
    return {
      zone: null,
      description: deliveryDescription("pickup", point.name),
      columns: {
        deliveryMethod: "pickup",
        pickupPointId: point.id,
        pickupPointName: point.name,
        pickupPointAddress: point.address,
        pickupPointHours: point.hours,
      },
    };
  }
  const { zone, address } = await deliveryZoneOf(tx, choice);
  return {
    zone,
    description: deliveryDescription("delivery", zone.name),
    columns: {
      deliveryMethod: "delivery",
      deliveryZoneId: zone.id,
      deliveryZoneName: zone.name,
      deliveryEstimatedDays: zone.estimatedDays,
      deliveryAddress: address,
    },
  };
}

/**
 * The zone a delivery goes by: the active zone serving the address's municipality (its spelling
 * then kept on the address), never one the client names instead. A zone posted too must be that
 * one. With no zone serving the municipality, only a posted zone that lists no municipality yet
 * (lib/delivery/municipalities.ts, "not yet restricted") takes it.
 */
async function deliveryZoneOf(tx: Transaction, choice: Extract<DeliveryChoice, { method: "delivery" }>) {
  const { municipality } = choice.address;
  const serving = await servingZone(tx, municipality);
  if (serving) {
    if (choice.zoneId && choice.zoneId !== serving.id)
      throw new Refusal(
        400,
        "delivery_zone_mismatch",
        `delivery.address.municipality: ${municipality} is delivered to by the zone "${serving.name}", not the zone delivery.zoneId names`,
      );
    return { zone: serving, address: { ...choice.address, municipality: serving.municipality } };
  }
  if (!choice.zoneId)
    throw new Refusal(
      400,
      "municipality_not_served",
      `delivery.address.municipality: the shop does not deliver to ${municipality}; choose a pickup point or another address`,
    );
  const zone = await tx.deliveryZone.findFirst({
    where: { id: choice.zoneId, active: true },
    select: {
      id: true,
      name: true,
      feeAoa: true,
      freeFromAoa: true,
      estimatedDays: true,
      _count: { select: { municipalities: true } },
    },
  });
  if (!zone) throw new Refusal(400, "unknown_delivery_zone", "delivery.zoneId names no delivery zone on offer");
  if (zone._count.municipalities > 0)
    throw new Refusal(
      400,
      "delivery_zone_mismatch",
      `delivery.address.municipality: the zone "${zone.name}" does not deliver to ${municipality}`,
    );
  return { zone, address: choice.address };
}

/**
 * A cap on open orders (pending, hold still running) of one shopper (`client_id`, the cookie) or
 * of one client address (`client_address`): checked under a lock on that id for the rest of the
 * transaction, so concurrent checkouts of one shopper, or from one address, count each other.
 * The refusal says when the soonest of their holds runs out. Both counts are one range of an
 * index (orders_client_id_created_at_idx; the partial orders_open_client_address_idx).
 */
async function refuseTooManyOpenOrders(
  tx: Transaction,
  of: { column: "client_id" | "client_address"; value: string },
  max: number,
): Promise<void> {
  const byAddress = of.column === "client_address";
  const lockKey = byAddress ? `open-orders-address:${of.value}` : `open-orders:${of.value}`;
  await tx.$queryRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))::text`);
  const [open] = await tx.$queryRaw<{ count: number; soonestSeconds: number | null }[]>(Prisma.sql`
SELECT count(*)::int AS count,
       ceil(extract(epoch FROM min(hold_expires_at) - now()))::int AS "soonestSeconds"
FROM orders WHERE ${Prisma.raw(of.column)} = ${of.value} AND status = 'PEN' AND hold_expires_at > now()`);
  if (!open || open.count < max) return;
  const retryAfterSeconds = Math.max(1, open.soonestSeconds ?? 1);
  if (byAddress)
    throw new Refusal(
      429,
      "too_many_open_orders_from_address",
      `${open.count} unpaid orders placed from this network are waiting for payment; try again when one is paid or expires`,
      { retryAfterSeconds },
    );
  throw new Refusal(
    429,
    "too_many_open_orders",
    `there are already ${open.count} unpaid orders waiting for payment; pay or cancel one, or wait until one expires`,
    { retryAfterSeconds },
  );
}

/**
 * The cap on day-long holds (MAX_REFERENCE_HOLDS): an address or a phone whose orders already
 * hold that many bank references places no more until one is paid or ends, for its next
 * reference would keep nothing (lib/orders/reference-holds.ts). Said before anything is held.
 */
async function refuseOverReferenceHolds(tx: Transaction, holder: ReferenceHolder, max: number): Promise<void> {
  const full = await referenceHoldsFull(tx, holder, max);
  if (!full) return;
  const whose = full.by === "address" ? "placed from this network" : "for this phone";
  throw new Refusal(
    429,
    full.by === "address" ? "too_many_reference_holds_from_address" : "too_many_reference_holds_for_phone",
    `${full.count} orders ${whose} are waiting to be paid with a bank reference; pay one of them, or try again when one expires`,
    { retryAfterSeconds: full.retryAfterSeconds },
  );
}

/**
 * The caps on units (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER), on the resolved lines (one per
 * variant: resolveVariants refuses a variant named twice). Nothing is held yet.
 */
function refuseOverUnitCaps(lines: readonly ResolvedLine[], policy: OrderPolicy): void {
  const overLine = lines.find((line) => line.quantity > policy.units.perLine);
  if (overLine)
    throw new Refusal(
      422,
      "too_many_units",
      `at most ${policy.units.perLine} units of ${overLine.name} per order (asked for ${overLine.quantity})`,
    );
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (units > policy.units.perOrder)
    throw new Refusal(422, "too_many_units", `at most ${policy.units.perOrder} units per order (asked for ${units})`);
}

/**
 * Once the service has the order, a database hiccup must not turn into "nothing was charged":
 * the order is payable at the service whatever we answer, and cancelling it here would not
 * cancel it there. So retry briefly, and if the database still fails, answer with the reference
 * anyway; the order stays PEN (stock reserved, cart locked) as it should while it is payable,
 * the webhook finds it by externalTransactionId, and the reconcile sweep stores the reference.
 */
async function storeReferenceNumber(order: ReservedOrder, referenceNumber: string, deps: CreateOrderDeps) {
  for (let attempt = 1; attempt <= REFERENCE_STORE_ATTEMPTS; attempt++) {
    try {
      await deps.db.order.update({ where: { id: order.id }, data: { referenceNumber } });
      return;
    } catch (error) {
      deps.log(attempt < REFERENCE_STORE_ATTEMPTS ? "warn" : "error", "order.reference_not_stored", {
        externalTransactionId: order.externalTransactionId,
        attempt,
        error: errorKind(error),
      });
      if (attempt < REFERENCE_STORE_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** "Café do Amboim", "Café do Amboim (2)" or "Café do Amboim e mais 2 artigos". */
function paymentOrderName(lines: ReservedOrder["lines"]): string {
  const [first, ...rest] = lines;
  if (rest.length === 0) return first!.quantity > 1 ? `${first!.name} (${first!.quantity})` : first!.name;
  return `${first!.name} e mais ${rest.length} ${rest.length === 1 ? "artigo" : "artigos"}`;
}

async function cancelUnpaidOrder(externalTransactionId: string, error: unknown, deps: CreateOrderDeps): Promise<void> {
  const reason = creationFailureReason(error);
  deps.log("warn", "order.creation_failed", { externalTransactionId, reason });
  await applyPaymentUpdate(deps.db, { externalTransactionId }, { status: "CAN", cancelReason: reason });
  const jobs = await jobsOfOrders(deps.db, jobsForTransition("CAN"), [externalTransactionId]);
  await deps.runJobsNow(jobs.map((job) => job.id));
}

/**
 * A cart that is already LOCKED belongs to a checkout in progress (or one whose popup is open).
 * Answer with that order, waiting briefly for its reference when the first submission is still
 * talking to the service: a double click yields one order and the same answer twice.
 */
async function answerForLockedCart(cartId: string, deps: CreateOrderDeps): Promise<CreateOrderResult> {
  const deadline = Date.now() + (deps.concurrentCheckoutWaitMs ?? 10_000);
  for (;;) {
    const order = await deps.db.order.findFirst({
      where: { cartId, status: "PEN" },
      orderBy: { createdAt: "desc" },
      select: storedOrderFields,
    });
    if (order?.referenceNumber) return { ok: true, replayed: true, ...storedAnswer(order, order.referenceNumber) };
    if (!order || Date.now() >= deadline)
      return {
        ok: false,
        status: 409,
        code: "checkout_in_progress",
        message: "this cart is being checked out; try again in a moment",
      };
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
      // Orders of the release before issue 25 have no parts: their amount is their subtotal.
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
