import { z } from "zod";
import { SLUG_PATTERN } from "../slug";
import { formInteger, formOptional, formUuidList, hasNoNul, NO_NUL, requiredText } from "../text-input";
import { altSchema } from "./gallery-rules";

/**
 * What a product may be: its own columns, its limits, the product form's and the stock
 * adjustment's schemas, and the answers the back office has a sentence for. No database and no
 * server-only import, so the shop's routes, the search and the browser read the same limits as the
 * back office. A new column of products is added here: PRODUCT_COLUMNS, catalogFields, PRODUCT_FIELDS.
 */

/**
 * A product's own columns, as a Prisma select: what the shop's product page and the back office
 * read of a product (./products.ts and ./products-admin.ts derive their types from it). Its price
 * and stock are its variants' lowest price and total stock, which triggers keep.
 */
export const PRODUCT_COLUMNS = {
  id: true,
  slug: true,
  name: true,
  description: true,
  priceAoa: true,
  stock: true,
  imagePath: true,
} as const;

export const PRODUCT_LIMITS = {
  nameMax: 120,
  /** The storefront's product route accepts slugs of up to 120 characters. */
  slugMax: 120,
  descriptionMax: 2000,
  /** 100 million kwanza a unit; an order's total must also fit the database's integer. */
  priceMax: 100_000_000,
  stockMax: 1_000_000,
  reasonMax: 500,
  /** Categories one product may be in. */
  categoriesMax: 100,
} as const;

/** What an action did, and why it did nothing: the admin pages have a sentence for each (?done=, ?error=). */
export const PRODUCT_DONE = ["created", "saved", "archived", "restored", "adjusted"] as const;
export type ProductDone = (typeof PRODUCT_DONE)[number];
export const PRODUCT_ERRORS = [
  "invalid_input",
  "slug_taken",
  "stock_changed",
  "insufficient_stock",
  "has_options",
  "image_empty",
  "image_too_large",
  "image_too_many_pixels",
  "unsupported_image",
  "image_unreadable",
] as const;
export type ProductError = (typeof PRODUCT_ERRORS)[number];
/** The form fields an `invalid_input` may name (?field=). */
export const PRODUCT_FIELDS = [
  "name",
  "slug",
  "description",
  "priceAoa",
  "stock",
  "stockReason",
  "delta",
  "reason",
  "image",
  "imageAlt",
  "categories",
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];

export const stockValue = formInteger.pipe(
  z
    .number()
    .min(0, { error: "must not be negative" })
    .max(PRODUCT_LIMITS.stockMax, { error: `must be at most ${PRODUCT_LIMITS.stockMax}` }),
);

export const priceValue = formInteger.pipe(
  z
    .number()
    .min(1, { error: "must be at least 1 kwanza" })
    .max(PRODUCT_LIMITS.priceMax, { error: `must be at most ${PRODUCT_LIMITS.priceMax}` }),
);

const catalogFields = z.object({
  name: requiredText(PRODUCT_LIMITS.nameMax),
  slug: z
    .string({ error: "is required" })
    .trim()
    .max(PRODUCT_LIMITS.slugMax, { error: `must have at most ${PRODUCT_LIMITS.slugMax} characters` })
    .regex(SLUG_PATTERN, { error: "must be lower-case letters and digits joined by single hyphens" }),
  description: requiredText(PRODUCT_LIMITS.descriptionMax),
  priceAoa: priceValue,
});

/**
 * The product's categories, replacing the ones it had; absent leaves them as they are. The form
 * sends one `categoryIds` per ticked box and always an empty one, so that ticking none clears them.
 */
const categoryIds = formUuidList(PRODUCT_LIMITS.categoriesMax, "category", "categories");

/** A new product: its image's text alternative is `imageAlt`, or its name when a client sends none. */
export const createProductSchema = catalogFields.extend({
  stock: stockValue,
  imageAlt: altSchema.optional(),
  categoryIds,
});

/**
 * The product form. `stock` is the new stock and `stockShown` the one the form showed; both or
 * neither (a JSON client may leave the stock alone). A change needs `stockReason`.
 */
export const updateProductSchema = catalogFields
  .extend({
    /** The price of its one variant; a product with options prices each variant (./variants.ts). */
    priceAoa: formOptional(priceValue),
    stock: formOptional(stockValue),
    stockShown: formOptional(stockValue),
    stockReason: formOptional(z.string().trim().max(PRODUCT_LIMITS.reasonMax).refine(hasNoNul, NO_NUL)),
    /** The new image's text alternative; without it the first image keeps its own. */
    imageAlt: formOptional(altSchema),
    categoryIds,
  })
  .superRefine((input, context) => {
    if ((input.stock === undefined) !== (input.stockShown === undefined))
      context.addIssue({ code: "custom", path: ["stock"], message: "needs stockShown, the stock the form showed" });
    else if (input.stock !== input.stockShown && !input.stockReason)
      context.addIssue({ code: "custom", path: ["stockReason"], message: "is required when the stock changes" });
  });

export const adjustStockSchema = z.object({
  /** Which variant; may be left out for a product with one. */
  variantId: formOptional(z.uuid({ error: "must be a variant id (a UUID)" })),
  delta: formInteger.pipe(
    z
      .number()
      .min(-PRODUCT_LIMITS.stockMax, { error: `must be at least -${PRODUCT_LIMITS.stockMax}` })
      .max(PRODUCT_LIMITS.stockMax, { error: `must be at most ${PRODUCT_LIMITS.stockMax}` })
      .refine((delta) => delta !== 0, { error: "must not be 0" }),
  ),
  reason: requiredText(PRODUCT_LIMITS.reasonMax),
});

export const productIdSchema = z.uuid();
