import { z } from "../browser-zod";
import { PROMO_CODE_INPUT_MAX } from "../promotions/promo-code-rules";
import { MAX_QUANTITY_INPUT, MAX_ORDER_LINES } from "../order-limits";
import { customerSchema } from "../orders/customer-rules";
import { hasNoNul, NO_NUL } from "../text-input";

/**
 * The body of endpoint A, `POST /api/pay/create-order`. Only product and variant ids and
 * quantities are read from the client: any total or price it sends is dropped here and the amount is
 * recomputed from database prices (contract 4.2 A.1).
 */

/** Create-order bodies are a few hundred bytes; this is generous. */
export const MAX_CREATE_ORDER_BYTES = 16 * 1024;

const item = z.object({
  productId: z.uuid({ error: "must be a product id (a UUID)" }),
  /** Which of the product's variants (lib/catalog/variants.ts); may be left out for a product with one. */
  variantId: z.uuid({ error: "must be a variant id (a UUID)" }).optional(),
  // z.int() refuses 1.5 and the string "2": no coercion of what a client sends. The shop's own
  // caps (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER) are checked on the resolved lines (422).
  quantity: z
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_QUANTITY_INPUT, { error: `must be at most ${MAX_QUANTITY_INPUT}` }),
});

/** How long each part of a delivery address may be (the checkout form's maxlength too). */
export const ADDRESS_LIMITS = {
  province: 60,
  municipality: 80,
  neighbourhood: 80,
  street: 160,
  reference: 200,
} as const;

// No NUL: the order keeps the address in a jsonb column, which cannot hold one (the database
// would refuse the order's insert, a 503, where the shopper is owed a 400 naming the part).
const addressPart = (max: number) =>
  z
    .string({ error: "is missing" })
    .trim()
    .min(1, { error: "is empty" })
    .max(max, { error: `is longer than ${max} characters` })
    .refine(hasNoNul, NO_NUL);

/**
 * Where to deliver, the Angolan way: province, municipality, bairro, street and house, and a
 * reference point ("ponto de referência"), which often finds a door better than a number.
 */
export const deliveryAddressSchema = z.object({
  province: addressPart(ADDRESS_LIMITS.province),
  municipality: addressPart(ADDRESS_LIMITS.municipality),
  neighbourhood: addressPart(ADDRESS_LIMITS.neighbourhood),
  street: addressPart(ADDRESS_LIMITS.street),
  reference: addressPart(ADDRESS_LIMITS.reference),
});
export type DeliveryAddress = z.output<typeof deliveryAddressSchema>;

/** How the goods reach the shopper: collected at a pickup point, or delivered in a zone. */
export const deliveryChoiceSchema = z.discriminatedUnion(
  "method",
  [
    z.object({
      method: z.literal("pickup"),
      pickupPointId: z.uuid({ error: "must be a pickup point id (a UUID)" }),
    }),
    z.object({
      method: z.literal("delivery"),
      // The zone is the one serving the address's municipality (lib/checkout/order-delivery.ts):
      // needed only for a zone that lists no municipality yet; one that disagrees is refused.
      zoneId: z.uuid({ error: "must be a delivery zone id (a UUID)" }).optional(),
      address: deliveryAddressSchema,
    }),
  ],
  { error: 'must be { method: "pickup", pickupPointId } or { method: "delivery", address }' },
);
export type DeliveryChoice = z.output<typeof deliveryChoiceSchema>;

/** A promo code as typed: checked against the codes on the server (lib/promotions/promo-codes.ts). */
export const promoCodeInputSchema = z
  .string()
  .trim()
  .min(1, { error: "is empty" })
  .max(PROMO_CODE_INPUT_MAX, { error: `is longer than ${PROMO_CODE_INPUT_MAX} characters` });

export const createOrderRequestSchema = z.object({
  items: z
    .array(item)
    .min(1, { error: "is empty; leave it out to check out the cart" })
    .max(MAX_ORDER_LINES, { error: `has more than ${MAX_ORDER_LINES} lines` })
    .refine(
      (items) => new Set(items.map((line) => `${line.productId}/${line.variantId ?? ""}`)).size === items.length,
      {
        error: "lists a product more than once",
      },
    )
    .optional(),
  customer: customerSchema.optional(),
  /** Required when the shop offers any pickup point or delivery zone (lib/checkout/order-delivery.ts). */
  delivery: deliveryChoiceSchema.optional(),
  promoCode: promoCodeInputSchema.optional(),
  /**
   * "Guardar este endereço": a signed-in shopper's delivery address is kept on their account once
   * the order is created. Ignored for a guest and for a pickup.
   */
  saveAddress: z.boolean({ error: "must be true or false" }).optional(),
});

export type CreateOrderRequest = z.output<typeof createOrderRequestSchema>;
export type OrderItem = NonNullable<CreateOrderRequest["items"]>[number];
