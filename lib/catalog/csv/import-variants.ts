import { optionsKey, sameOptions, type ProductOptionDefinition, type VariantOptions } from "../variants";
import type { CsvProduct } from "./parse";

/**
 * A product's CSV lines against its variants: which line is which variant (by combination), what
 * each variant becomes, which are archived, and the product's options as they will be.
 */

/** A variant inserted or changed. */
export interface VariantWrite {
  /** Its product's. */
  slug: string;
  /** The variant changed: an id, "default" for a new product's default variant (known once it is inserted), null for a new one. */
  id: string | null;
  options: VariantOptions;
  sku: string | null;
  priceAoa: number;
  stock: number;
  /** The stock as it is now (0 for a new variant): the adjustment is the difference. */
  stockBefore: number;
  position: number;
}

export interface ExistingVariant {
  id: string;
  productId: string;
  options: VariantOptions;
  sku: string | null;
  priceAoa: number;
  stock: number;
  position: number;
  archived: boolean;
}

const sameDefinitions = (a: readonly ProductOptionDefinition[], b: readonly ProductOptionDefinition[]) =>
  a.length === b.length &&
  a.every(
    (option, i) =>
      option.name === b[i]!.name &&
      option.values.length === b[i]!.values.length &&
      option.values.every((value, j) => value === b[i]!.values[j]),
  );

/**
 * A product's lines against its variants (none for a new product): a file that lists a product
 * describes all its variants. Each line is the active variant of its combination, else its latest
 * archived one (made active again), else a new variant; a product's default variant (`{}`) that
 * the file no longer lists becomes its first new combination (keeping its id, its orders and
 * adjustments), and a new product's default variant (made by the insert's trigger) its first line;
 * the active variants left are archived, never deleted. Only what changes is written.
 */
export function planVariants(
  product: CsvProduct,
  current: ExistingVariant[],
  currentOptions: { name: string; values: string[] }[],
) {
  const slug = product.slug!;
  const isNew = current.length === 0;
  const active = new Map<string, ExistingVariant>();
  const archivedByKey = new Map<string, ExistingVariant>();
  // Active ones first, then archived ones latest first (the query's order).
  for (const variant of current) {
    const key = optionsKey(variant.options);
    if (!variant.archived) active.set(key, variant);
    else if (!archivedByKey.has(key)) archivedByKey.set(key, variant);
  }
  const matched: (ExistingVariant | "default" | null)[] = product.variants.map((line) => {
    const key = optionsKey(line.options);
    const found = active.get(key) ?? archivedByKey.get(key) ?? null;
    if (found?.archived) archivedByKey.delete(key);
    else if (found) active.delete(key);
    return found;
  });
  const firstNew = matched.indexOf(null);
  if (isNew) matched[0] = "default";
  else if (firstNew !== -1) {
    const unlisted = [...active.values()].find((variant) => Object.keys(variant.options).length === 0);
    if (unlisted) {
      matched[firstNew] = unlisted;
      active.delete(optionsKey(unlisted.options));
    }
  }

  // Positions: kept while the file lists the variants in their order (new ones last), else the file's.
  const isExisting = (match: ExistingVariant | "default" | null): match is ExistingVariant =>
    match !== null && match !== "default";
  const existing = matched.filter(isExisting);
  const lastExisting = matched.findLastIndex(isExisting);
  const renumber =
    isNew ||
    matched.slice(0, lastExisting).some((match) => match === null) ||
    existing.some((variant, i) => variant.archived || (i > 0 && existing[i - 1]!.position >= variant.position));
  let next = Math.max(-1, ...existing.map((variant) => variant.position)) + 1;

  const updates: VariantWrite[] = [];
  const inserts: VariantWrite[] = [];
  const defaults: VariantWrite[] = [];
  const finalSkus = new Map<string, string | null>();
  const variantOfLine = new Map<number, string>();
  product.variants.forEach((line, i) => {
    const match = matched[i]!;
    const base = { slug, options: line.options, priceAoa: line.priceAoa, stock: line.stock };
    if (match === null) {
      inserts.push({ ...base, id: null, sku: line.sku, stockBefore: 0, position: renumber ? i : next++ });
      return;
    }
    if (match === "default") {
      const write = { ...base, id: "default", sku: line.sku, stockBefore: 0, position: 0 };
      // Made at the product's price and stock: written again only for what the insert cannot give it.
      if (line.sku !== null || Object.keys(line.options).length > 0) updates.push(write);
      else defaults.push(write);
      return;
    }
    const sku = line.sku ?? match.sku;
    const position = renumber ? i : match.position;
    finalSkus.set(match.id, sku);
    variantOfLine.set(line.line, match.id);
    const changed =
      match.archived ||
      !sameOptions(match.options, line.options) ||
      match.sku !== sku ||
      match.priceAoa !== line.priceAoa ||
      match.stock !== line.stock ||
      match.position !== position;
    if (changed) updates.push({ ...base, id: match.id, sku, stockBefore: match.stock, position });
  });
  const archive = [...active.values()].map((variant) => variant.id);

  // Options: the file's. An option the shop has (same name, same place) keeps its values' order
  // for those the file still lists, the file's new ones after them; a value no line has is dropped.
  const options = product.options.map((option, i) => {
    const now = currentOptions[i];
    if (now?.name !== option.name) return option;
    const kept = now.values.filter((value) => option.values.includes(value));
    return { name: option.name, values: [...kept, ...option.values.filter((value) => !kept.includes(value))] };
  });
  return {
    options: sameDefinitions(options, currentOptions) ? null : options,
    updates,
    inserts,
    defaults,
    archive,
    finalSkus,
    variantOfLine,
  };
}
