import { z } from "zod";
import { VARIANT_LIMITS } from "./variants";

/**
 * What the back office and the CSV import accept as a product's options and a variant's SKU
 * (lib/catalog/variants.ts has the model). Apart from lib/catalog/variants.ts so that the browser's option
 * picker, which imports that one, never bundles zod.
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
