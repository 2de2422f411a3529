import { z } from "zod";
import { hasNoNul, NO_NUL } from "../text-input";
import { PRODUCT_LIMITS, priceValue, stockValue } from "./product-rules";
import { VARIANT_LIMITS } from "./variants";

/**
 * What the back office and the CSV import accept as a product's options, a variant's SKU and the
 * variants' table, and what the back office's options and variants answer (lib/catalog/variants.ts
 * has the model). Apart from lib/catalog/variants.ts so that the browser's option picker, which
 * imports that one, never bundles zod.
 */

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, { error: "is empty" })
    .max(max, { error: `is longer than ${max} characters` })
    // A comma would make "M, Azul" ambiguous; control characters have no place in a label.
    .refine((value) => !/[\u0000-\u001f\u007f,]/.test(value), { error: `must be a ${what} without commas` });

/** The back office's and the CSV's options: unique names, each with unique values. */
export const optionDefinitionsSchema = z
  .array(
    z.object({
      name: text(VARIANT_LIMITS.nameMax, "name"),
      values: z
        .array(text(VARIANT_LIMITS.valueMax, "value"))
        .min(1, { error: "needs at least one value" })
        .max(VARIANT_LIMITS.valuesPerOption, { error: `has more than ${VARIANT_LIMITS.valuesPerOption} values` })
        .refine((values) => new Set(values).size === values.length, { error: "lists a value twice" }),
    }),
  )
  .max(VARIANT_LIMITS.options, { error: `has more than ${VARIANT_LIMITS.options} options` })
  .refine((options) => new Set(options.map((option) => option.name.toLowerCase())).size === options.length, {
    error: "names an option twice",
  })
  .refine(
    (options) => options.reduce((count, option) => count * option.values.length, 1) <= VARIANT_LIMITS.variantsMax,
    { error: `makes more than ${VARIANT_LIMITS.variantsMax} combinations` },
  );

/** A SKU: letters, digits and `-_./`, or nothing. */
export const skuSchema = z
  .string()
  .trim()
  .max(VARIANT_LIMITS.skuMax, { error: `is longer than ${VARIANT_LIMITS.skuMax} characters` })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$|^$/, { error: "may hold letters, digits and - _ . / only" })
  .transform((sku) => (sku === "" ? null : sku));

export const VARIANT_DONE = ["options_saved", "variants_saved", "archived", "restored"] as const;
export type VariantDone = (typeof VARIANT_DONE)[number];
export const VARIANT_ERRORS = [
  "invalid_input",
  "stock_changed",
  "sku_taken",
  "variant_gone",
  "last_variant",
  "combination_taken",
  "not_a_combination",
] as const;
export type VariantError = (typeof VARIANT_ERRORS)[number];
/** The form fields an error may name (?variantsField=). */
export const VARIANT_FIELDS = [
  "options",
  "option1Name",
  "option1Values",
  "option2Name",
  "option2Values",
  "option3Name",
  "option3Values",
  "variants",
  "sku",
  "priceAoa",
  "stock",
  "stockReason",
  "imagePath",
] as const;
export type VariantField = (typeof VARIANT_FIELDS)[number];

/** The query parameters of this part's flash on the product's page, and the section forms go back to. */
export const VARIANTS_FLASH = {
  done: "variants",
  error: "variantsError",
  field: "variantsField",
  hash: "#variants",
} as const;

/** A form sends "" for an empty optional field. */
const emptyIsNull = (value: unknown) => (value === "" || value === undefined ? null : value);

const variantRow = z.object({
  id: z.uuid({ error: "must be a variant id (a UUID)" }),
  sku: z.preprocess((value) => value ?? "", skuSchema),
  priceAoa: priceValue,
  stock: stockValue,
  stockShown: stockValue,
  imagePath: z.preprocess(emptyIsNull, z.string().max(2000).refine(hasNoNul, NO_NUL).nullable()),
});

export const updateVariantsSchema = z
  .object({
    variants: z
      .array(variantRow, { error: "must list the variants" })
      .min(1, { error: "must list at least one variant" })
      .max(VARIANT_LIMITS.variantsMax, { error: `must list at most ${VARIANT_LIMITS.variantsMax} variants` }),
    stockReason: z.preprocess(
      emptyIsNull,
      z.string().trim().max(PRODUCT_LIMITS.reasonMax).refine(hasNoNul, NO_NUL).nullable(),
    ),
  })
  .superRefine((input, context) => {
    const ids = input.variants.map((row) => row.id.toLowerCase());
    if (new Set(ids).size !== ids.length)
      context.addIssue({ code: "custom", path: ["variants"], message: "lists a variant twice" });
    const skus = input.variants.map((row) => row.sku).filter((sku) => sku !== null);
    if (new Set(skus).size !== skus.length)
      context.addIssue({ code: "custom", path: ["variants", 0, "sku"], message: "gives two variants the same SKU" });
    if (input.variants.some((row) => row.stock !== row.stockShown) && !input.stockReason)
      context.addIssue({ code: "custom", path: ["stockReason"], message: "is required when a stock changes" });
  });
