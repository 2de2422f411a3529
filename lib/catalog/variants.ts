/**
 * Products with options. A product has up to VARIANT_LIMITS.options options (Tamanho, Cor…), each
 * with its values in the shop's order; a shopper buys a variant, one combination of values
 * (`{ "Tamanho": "M", "Cor": "Azul" }`) with its own SKU, price, stock and image. A product without
 * options has one variant, its default (`{}`): carts, orders, holds and stock always deal in
 * variants. Pure functions only: the product page's option picker runs them in the browser
 * (./variant-rules.ts has the input schemas, with zod).
 */

export const VARIANT_LIMITS = {
  options: 3,
  valuesPerOption: 100,
  nameMax: 40,
  valueMax: 40,
  skuMax: 64,
  /** Active variants of one product (every combination of its options' values). */
  variantsMax: 250,
} as const;

/** The product page's option radios are named `option:<name>` (`option:Tamanho` = "M"). */
export const OPTION_FIELD_PREFIX = "option:";

/** A variant's option values by option name; `{}` for a product without options. */
export type VariantOptions = Readonly<Record<string, string>>;

export interface ProductOptionDefinition {
  name: string;
  values: readonly string[];
}

/** Reads a variant's `options` column (JSON) into an object of strings; anything else is `{}`. */
export function readVariantOptions(json: unknown): VariantOptions {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  const entries = Object.entries(json as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return Object.fromEntries(entries);
}

/** The values of a variant in its product's option order, e.g. ["M", "Azul"]. */
export function variantValues(options: readonly ProductOptionDefinition[], values: VariantOptions): string[] {
  return options.map((option) => values[option.name]).filter((value): value is string => value !== undefined);
}

/** "M, Azul": what a cart line, an order line and the back office show beside the product's name. */
export function variantTitle(options: readonly ProductOptionDefinition[], values: VariantOptions): string {
  return variantValues(options, values).join(", ");
}

/** "T-shirt Kianda, M, Azul", or the product's name alone for a product without options. */
export function lineName(productName: string, title: string): string {
  return title ? `${productName}, ${title}` : productName;
}

/** Every combination of the options' values, first option slowest ("P, Azul", "P, Branco", "M, Azul"…). */
export function combinations(options: readonly ProductOptionDefinition[]): VariantOptions[] {
  return options.reduce<Record<string, string>[]>(
    (partial, option) =>
      partial.flatMap((values) => option.values.map((value) => ({ ...values, [option.name]: value }))),
    [{}],
  );
}

/** Whether two variants' options are the same combination (key order does not matter). */
export function sameOptions(a: VariantOptions, b: VariantOptions): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** A key that is equal for equal combinations: the values in option-name order. */
export function optionsKey(values: VariantOptions): string {
  return JSON.stringify(
    Object.keys(values)
      .sort()
      .map((key) => [key, values[key]]),
  );
}

/** Whether `values` names one value of every option and nothing else. */
export function isCombinationOf(options: readonly ProductOptionDefinition[], values: VariantOptions): boolean {
  return (
    Object.keys(values).length === options.length &&
    options.every((option) => option.values.includes(values[option.name] ?? "\u0000"))
  );
}

/** A variant as the storefront and `GET /api/products/<slug>` show it. */
export interface ShopVariant {
  id: string;
  sku: string | null;
  options: VariantOptions;
  /** "M, Azul"; "" for a product without options. */
  title: string;
  priceAoa: number;
  /** Units a shopper can buy now (expired holds counted back, as for the product). */
  stock: number;
  /** Its own image, or the product's; null for none. */
  image: string | null;
}

/**
 * The variant a selection names: by id (`?variant=`), else by values of every option; null when
 * the selection is incomplete or names a combination the product does not sell.
 */
export function findVariant<V extends { id: string; options: VariantOptions }>(
  variants: readonly V[],
  selection: { variantId?: string | null; options?: VariantOptions },
): V | null {
  if (selection.variantId) return variants.find((variant) => variant.id === selection.variantId) ?? null;
  const chosen = selection.options ?? {};
  return variants.find((variant) => sameOptions(variant.options, chosen)) ?? null;
}

/**
 * For the option picker: what choosing `value` for `option` would give, keeping the other
 * choices: "sold_out" when that combination exists with no stock, "missing" when the product does
 * not sell it, else "available". Values of a product with one option depend on nothing else.
 */
export function valueAvailability(
  variants: readonly Pick<ShopVariant, "options" | "stock">[],
  options: readonly ProductOptionDefinition[],
  chosen: VariantOptions,
  option: string,
  value: string,
): "available" | "sold_out" | "missing" {
  const wanted: Record<string, string> = {};
  for (const other of options)
    if (other.name === option) wanted[other.name] = value;
    else if (chosen[other.name] !== undefined) wanted[other.name] = chosen[other.name]!;
  const matching = variants.filter((variant) =>
    Object.entries(wanted).every(([name, wantedValue]) => variant.options[name] === wantedValue),
  );
  if (matching.length === 0) return "missing";
  return matching.some((variant) => variant.stock > 0) ? "available" : "sold_out";
}
