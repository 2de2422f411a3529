import "server-only";
import { z } from "zod";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Rollback, rolledBack } from "../refusal";
import { Prisma } from "../generated/prisma/client";
import { lockProducts } from "./stock";
import { hasNoNul, invalidInput, NO_NUL } from "../text-input";
import { isUuid } from "../uuid";
import { optionDefinitionsSchema, skuSchema } from "./variant-rules";
import {
  combinations,
  optionsKey,
  readVariantOptions,
  sameOptions,
  VARIANT_LIMITS,
  variantTitle,
  type ProductOptionDefinition,
  type VariantOptions,
} from "./variants";
import { PRODUCT_LIMITS, priceValue, stockValue } from "./products-admin";

/**
 * A product's options and variants in the back office (the "Options" and "Variants" parts of
 * /admin/products/<id>), without the web (lib/catalog/variants.ts has the pure rules).
 *
 * - setProductOptions replaces the product's options (up to 3, each with its values) and makes its
 *   active variants exactly the combinations of their values. A variant whose combination is still
 *   one stays as it is (id, SKU, price, stock, image). A new combination brings back the archived
 *   variant that had it (with its SKU, price and stock), else is a new variant at the product's
 *   current lowest price with no stock. A variant that is no longer a combination is archived,
 *   never deleted (order lines name it), and leaves the open carts (a LOCKED cart is being paid
 *   and keeps it); its units leave the product's total (a trigger keeps the totals).
 *   When none of the active variants is a combination of the new options (a product without
 *   options getting its first ones, every option renamed, or all options removed), the first
 *   active variant becomes the first combination, keeping its id, stock and price: so the default
 *   variant of a product without options becomes "P, Azul", and removing every option makes the
 *   first variant the product's one default variant again (`{}`), the others archived.
 * - updateVariants saves the variants' table: SKU, price, stock and image of each, one reason for
 *   the stock changes. Stock is compare-and-set against what the table showed (409 stock_changed),
 *   each change kept as an `edit` adjustment of its variant.
 * - setVariantArchived archives or restores one variant; orders and their lines are untouched.
 *
 * Every change is one transaction that locks the product's row first (lib/catalog/stock.ts lockProducts),
 * then reads and writes its variants: checkouts take the same locks in the same order.
 */

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

export interface AdminVariant {
  id: string;
  options: VariantOptions;
  /** "M, Azul"; "" for the default variant of a product without options. */
  title: string;
  sku: string | null;
  priceAoa: number;
  stock: number;
  /** Its own image; null: the product's. */
  imagePath: string | null;
  position: number;
  archivedAt: Date | null;
}

export interface AdminVariants {
  options: ProductOptionDefinition[];
  /** Active ones first, in position order, then the archived ones, newest archived first. */
  variants: AdminVariant[];
}

export type VariantResult =
  | { ok: true; done: VariantDone; product: AdminVariants }
  | {
      ok: false;
      status: 400 | 404 | 409;
      code: VariantError | "not_found";
      message: string;
      field?: VariantField;
    };
type Refusal = Extract<VariantResult, { ok: false }>;

/** The query parameters of this part's flash on the product's page, and the section forms go back to. */
export const VARIANTS_FLASH = {
  done: "variants",
  error: "variantsError",
  field: "variantsField",
  hash: "#variants",
} as const;

const notFound: Refusal = { ok: false, status: 404, code: "not_found", message: "no such product" };
const noVariant: Refusal = { ok: false, status: 404, code: "not_found", message: "no such variant of this product" };

type Tx = Prisma.TransactionClient;

const variantFields = {
  id: true,
  options: true,
  sku: true,
  priceAoa: true,
  stock: true,
  imagePath: true,
  position: true,
  archivedAt: true,
} as const;

async function readOptions(db: Pick<Database, "productOption">, productId: string) {
  const rows = await db.productOption.findMany({
    where: { productId },
    orderBy: { position: "asc" },
    select: { name: true, values: true },
  });
  return rows.map((row) => ({ name: row.name, values: row.values }));
}

async function readView(db: Pick<Database, "productOption" | "productVariant">, productId: string) {
  const [options, rows] = await Promise.all([
    readOptions(db, productId),
    db.productVariant.findMany({
      where: { productId },
      orderBy: [{ archivedAt: { sort: "desc", nulls: "first" } }, { position: "asc" }, { id: "asc" }],
      select: variantFields,
    }),
  ]);
  const variants = rows.map((row) => {
    const values = readVariantOptions(row.options);
    return { ...row, options: values, title: variantTitle(options, values) };
  });
  return { options, variants };
}

/** The options and every variant of a product (active first) for its page; null for an unknown product. */
export async function adminVariants(db: Database, productId: string): Promise<AdminVariants | null> {
  if (!isUuid(productId)) return null;
  if (!(await db.product.findUnique({ where: { id: productId }, select: { id: true } }))) return null;
  return readView(db, productId);
}

// ---------------------------------------------------------------------------------------------
// Options

/** "P, M" or one value a line: the values of a form's option field. */
const splitValues = (text: string) =>
  text
    .split(/[,\n\r]+/)
    .map((value) => value.trim())
    .filter((value) => value !== "");

/**
 * The options as a JSON client sends them (`options: [{ name, values }]`) or as the form does
 * (`option1Name`, `option1Values`… up to 3, the values separated by commas or lines; an option
 * whose name and values are both empty is left out). `slots` is each option's field number.
 */
function optionsInput(fields: Record<string, unknown>): { options: unknown; slots: number[] } {
  if ("options" in fields) {
    const options = fields.options;
    return { options, slots: Array.isArray(options) ? options.map((_, index) => index + 1) : [] };
  }
  const options: { name: unknown; values: unknown }[] = [];
  const slots: number[] = [];
  for (let slot = 1; slot <= VARIANT_LIMITS.options; slot++) {
    const name = fields[`option${slot}Name`] ?? "";
    const values = fields[`option${slot}Values`] ?? "";
    if (typeof name === "string" && typeof values === "string" && name.trim() === "" && values.trim() === "") continue;
    options.push({ name, values: typeof values === "string" ? splitValues(values) : values });
    slots.push(slot);
  }
  return { options, slots };
}

function invalidOptions(error: z.ZodError, slots: number[]): Refusal {
  const refusal = invalidInput(error, VARIANT_FIELDS);
  const [index, key] = error.issues[0]?.path ?? [];
  const slot = typeof index === "number" ? slots[index] : undefined;
  const field: VariantField =
    slot !== undefined && (key === "name" || key === "values")
      ? (`option${slot}${key === "name" ? "Name" : "Values"}` as VariantField)
      : "options";
  return { ...refusal, field };
}

/** Replaces the product's options and makes its active variants their combinations (see the top). */
export async function setProductOptions(
  productId: string,
  input: unknown,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return notFound;
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const { options: raw, slots } = optionsInput(fields);
  const parsed = optionDefinitionsSchema.safeParse(raw);
  if (!parsed.success) return invalidOptions(parsed.error, slots);
  const options = parsed.data;

  return db.$transaction(async (tx): Promise<VariantResult> => {
    await lockProducts(tx, [productId]);
    const product = await tx.product.findUnique({ where: { id: productId }, select: { priceAoa: true } });
    if (!product) return notFound;
    const all = await tx.productVariant.findMany({
      where: { productId },
      orderBy: [{ position: "asc" }, { id: "asc" }],
      select: { id: true, options: true, archivedAt: true },
    });
    const active = all.filter((variant) => variant.archivedAt === null);
    const targets = options.length > 0 ? combinations(options) : [{}];
    const kept = new Map<string, string>();
    for (const variant of active) {
      const key = optionsKey(readVariantOptions(variant.options));
      if (!kept.has(key) && targets.some((target) => optionsKey(target) === key)) kept.set(key, variant.id);
    }
    const leftovers = active.filter((variant) => ![...kept.values()].includes(variant.id));
    // Nothing survives: the first variant carries its stock and price over to the first combination.
    const carried = kept.size === 0 ? leftovers.shift() : undefined;
    const now = new Date();

    if (leftovers.length > 0) {
      const ids = leftovers.map((variant) => variant.id);
      await tx.productVariant.updateMany({ where: { id: { in: ids } }, data: { archivedAt: now } });
      await tx.cartLine.deleteMany({ where: { variantId: { in: ids }, cart: { status: "OPEN" } } });
    }
    await tx.productOption.deleteMany({ where: { productId } });
    if (options.length > 0)
      await tx.productOption.createMany({
        data: options.map((option, index) => ({ productId, position: index + 1, ...option })),
      });

    for (const [position, target] of targets.entries()) {
      const key = optionsKey(target);
      const json = target as Prisma.InputJsonObject;
      const keptId = kept.get(key) ?? (carried && position === 0 ? carried.id : undefined);
      if (keptId) {
        await tx.productVariant.update({ where: { id: keptId }, data: { options: json, position } });
        continue;
      }
      // The most recently archived variant of this combination comes back, with its SKU, price and stock.
      const archived = all
        .filter((variant) => variant.archivedAt !== null && optionsKey(readVariantOptions(variant.options)) === key)
        .sort((a, b) => b.archivedAt!.getTime() - a.archivedAt!.getTime())[0];
      if (archived)
        await tx.productVariant.update({ where: { id: archived.id }, data: { archivedAt: null, position } });
      else
        await tx.productVariant.create({
          data: { productId, options: json, priceAoa: product.priceAoa, stock: 0, position },
        });
    }
    await tx.product.update({ where: { id: productId }, data: { updatedAt: now } });
    return { ok: true, done: "options_saved", product: await readView(tx, productId) };
  });
}

// ---------------------------------------------------------------------------------------------
// The variants' table

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

const ROW_KEYS = ["sku", "priceAoa", "stock", "stockShown", "imagePath"] as const;

/**
 * The table as a JSON client sends it (`variants: [{ id, sku, priceAoa, stock, stockShown,
 * imagePath }]`) or as the form does: each column a field sent once a row, in the rows' order
 * (`variantId`, `sku`, `priceAoa`, `stock`, `stockShown`, `imagePath`).
 */
function tableInput(fields: Record<string, unknown>): unknown {
  if ("variants" in fields) return fields;
  const column = (name: string): unknown[] =>
    fields[name] === undefined ? [] : Array.isArray(fields[name]) ? fields[name] : [fields[name]];
  const ids = column("variantId");
  const columns = ROW_KEYS.map((key) => column(key));
  if (columns.some((values) => values.length !== ids.length)) return { ...fields, variants: "uneven" };
  return {
    stockReason: fields.stockReason,
    variants: ids.map((id, row) => ({
      id,
      ...Object.fromEntries(ROW_KEYS.map((key, index) => [key, columns[index]![row]])),
    })),
  };
}

function invalidTable(error: z.ZodError): Refusal {
  const refusal = invalidInput(error, VARIANT_FIELDS);
  const [first, , column] = error.issues[0]?.path ?? [];
  const named = column === "stockShown" ? "stock" : column === "id" ? "variants" : column;
  const field =
    first === "variants" && VARIANT_FIELDS.some((name) => name === named) ? (named as VariantField) : refusal.field;
  return { ...refusal, ...(field ? { field } : {}) };
}

const skuTaken = (title: string): Refusal => ({
  ok: false,
  status: 409,
  code: "sku_taken",
  message: `another variant already has the SKU given to ${title || "the product"}; nothing was saved`,
  field: "sku",
});

/** Saves the variants' table: each row's SKU, price, stock (compare-and-set) and image. */
export async function updateVariants(
  productId: string,
  input: unknown,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return notFound;
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const parsed = updateVariantsSchema.safeParse(tableInput(fields));
  if (!parsed.success) return invalidTable(parsed.error);
  const { variants: rows, stockReason } = parsed.data;

  try {
    return await db.$transaction(async (tx): Promise<VariantResult> => {
      await lockProducts(tx, [productId]);
      const product = await tx.product.findUnique({ where: { id: productId }, select: { imagePath: true } });
      if (!product) return notFound;
      const options = await readOptions(tx, productId);
      const current = await tx.productVariant.findMany({
        where: { productId, id: { in: rows.map((row) => row.id) }, archivedAt: null },
        select: variantFields,
      });
      const byId = new Map(current.map((variant) => [variant.id.toLowerCase(), variant]));
      const titleOf = (variant: { options: unknown }) => variantTitle(options, readVariantOptions(variant.options));
      const gallery = await tx.galleryImage.findMany({ where: { productId }, select: { path: true } });
      const images = new Set([product.imagePath, ...gallery.map((image) => image.path)]);

      const changes = [];
      for (const row of rows) {
        const variant = byId.get(row.id.toLowerCase());
        if (!variant)
          return {
            ok: false,
            status: 409,
            code: "variant_gone",
            message: `variant ${row.id} is not an active variant of this product (archived meanwhile?); nothing was saved`,
            field: "variants",
          };
        const title = titleOf(variant);
        if (row.imagePath !== null && !images.has(row.imagePath))
          return {
            ok: false,
            status: 400,
            code: "invalid_input",
            message: `the image of ${title || "the product"} must be one of the product's gallery images`,
            field: "imagePath",
          };
        const stockChange = row.stock !== row.stockShown;
        if (stockChange && variant.stock !== row.stockShown)
          return {
            ok: false,
            status: 409,
            code: "stock_changed",
            message: `the stock of ${title || "the product"} changed to ${variant.stock} since the table showed ${row.stockShown}; nothing was saved`,
            field: "stock",
          };
        changes.push({ row, variant, title, stockChange });
      }

      // SKUs: another variant (of any product, or of this one outside the table) holding one is a clash.
      const skus = rows.map((row) => row.sku).filter((sku) => sku !== null);
      if (skus.length > 0) {
        const holders = await tx.productVariant.findMany({
          where: { sku: { in: skus }, id: { notIn: current.map((variant) => variant.id) } },
          select: { sku: true },
        });
        const clash = changes.find((change) => holders.some((holder) => holder.sku === change.row.sku));
        if (clash) return skuTaken(clash.title);
      }
      // SKUs moving between rows: freed first, so that a swap is not a clash with itself.
      const skuMoves = changes.filter((change) => change.row.sku !== change.variant.sku);
      if (skuMoves.length > 0)
        await tx.productVariant.updateMany({
          where: { id: { in: skuMoves.map((change) => change.variant.id) } },
          data: { sku: null },
        });

      for (const { row, variant, stockChange } of changes) {
        const data = {
          ...(row.sku !== variant.sku ? { sku: row.sku } : {}),
          ...(row.priceAoa !== variant.priceAoa ? { priceAoa: row.priceAoa } : {}),
          ...(stockChange ? { stock: row.stock } : {}),
          ...(row.imagePath !== variant.imagePath ? { imagePath: row.imagePath } : {}),
        };
        if (Object.keys(data).length === 0) continue;
        try {
          await tx.productVariant.update({ where: { id: variant.id }, data });
        } catch (error) {
          if (isUniqueViolation(error)) throw new Rollback(skuTaken(titleOf(variant)));
          throw error;
        }
        if (stockChange)
          await tx.stockAdjustment.create({
            data: {
              productId,
              variantId: variant.id,
              kind: "edit",
              delta: row.stock - variant.stock,
              stockAfter: row.stock,
              reason: stockReason!,
            },
          });
      }
      await tx.product.update({ where: { id: productId }, data: { updatedAt: new Date() } });
      return { ok: true, done: "variants_saved", product: await readView(tx, productId) };
    });
  } catch (error) {
    const refused = rolledBack<Refusal>(error);
    if (refused) return refused;
    // Another transaction took the SKU between the check and the write.
    if (isUniqueViolation(error)) return skuTaken("");
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Archive and restore

/**
 * Archives a variant (it leaves the shop, the open carts and the product's total stock; its
 * orders keep naming it) or restores one. The last active variant stays (409 last_variant); a
 * variant comes back only as a combination of the product's current options that no active
 * variant has (409 not_a_combination, combination_taken). Doing it twice changes nothing.
 */
export async function setVariantArchived(
  productId: string,
  variantId: string,
  archived: boolean,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return notFound;
  return db.$transaction(async (tx): Promise<VariantResult> => {
    await lockProducts(tx, [productId]);
    if (!(await tx.product.findUnique({ where: { id: productId }, select: { id: true } }))) return notFound;
    if (!isUuid(variantId)) return noVariant;
    const variant = await tx.productVariant.findFirst({
      where: { id: variantId, productId },
      select: { id: true, options: true, archivedAt: true },
    });
    if (!variant) return noVariant;
    const done: VariantDone = archived ? "archived" : "restored";
    if ((variant.archivedAt !== null) === archived) return { ok: true, done, product: await readView(tx, productId) };
    const active = await tx.productVariant.findMany({
      where: { productId, archivedAt: null },
      select: { id: true, options: true },
    });
    if (archived) {
      if (active.length <= 1)
        return {
          ok: false,
          status: 409,
          code: "last_variant",
          message: "a product keeps at least one active variant: archive the product instead",
        };
      await tx.productVariant.update({ where: { id: variant.id }, data: { archivedAt: new Date() } });
      await tx.cartLine.deleteMany({ where: { variantId: variant.id, cart: { status: "OPEN" } } });
    } else {
      const options = await readOptions(tx, productId);
      const values = readVariantOptions(variant.options);
      const isCombination = combinations(options).some((combination) => sameOptions(combination, values));
      if (!isCombination)
        return {
          ok: false,
          status: 409,
          code: "not_a_combination",
          message: "this variant's values are not a combination of the product's options now",
        };
      if (active.some((other) => sameOptions(readVariantOptions(other.options), values)))
        return {
          ok: false,
          status: 409,
          code: "combination_taken",
          message: "an active variant already has this combination: archive it first",
        };
      await tx.productVariant.update({ where: { id: variant.id }, data: { archivedAt: null } });
    }
    await tx.product.update({ where: { id: productId }, data: { updatedAt: new Date() } });
    return { ok: true, done, product: await readView(tx, productId) };
  });
}
