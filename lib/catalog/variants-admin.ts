import "server-only";
import type { z } from "zod";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { lockProducts } from "./stock";
import { invalidInput } from "../text-input";
import { productSubject, recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields } from "../admin/event-changes";
import { isUuid } from "../uuid";
import {
  updateVariantsSchema,
  VARIANT_FIELDS,
  type VariantDone,
  type VariantError,
  type VariantField,
} from "./variant-rules";
import {
  combinations,
  readVariantOptions,
  sameOptions,
  variantTitle,
  type ProductOptionDefinition,
  type VariantOptions,
} from "./variants";

/**
 * A product's variants in the back office (the "Variants" part of /admin/products/<id>), without
 * the web: the page's view of its options and variants, saving the variants' table, archiving and
 * restoring a variant (./options-admin.ts changes the options). Every change is one transaction
 * that locks the product's row first (lib/catalog/stock.ts lockProducts), then reads and writes
 * its variants: checkouts take the same locks in the same order. Each change is recorded
 * (lib/admin/staff-events.ts) on the product's subject, in that transaction.
 */

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

export type VariantRefusal = Refusal<VariantError | "not_found", VariantField> & { status: 400 | 404 | 409 };
export type VariantResult = { ok: true; done: VariantDone; product: AdminVariants } | VariantRefusal;

export const noProduct: VariantRefusal = { ok: false, status: 404, code: "not_found", message: "no such product" };
const noVariant: VariantRefusal = {
  ok: false,
  status: 404,
  code: "not_found",
  message: "no such variant of this product",
};

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

/** A product's options in order, each as `{ name, values }`. */
export async function readOptions(db: Pick<Database, "productOption">, productId: string) {
  const rows = await db.productOption.findMany({
    where: { productId },
    orderBy: { position: "asc" },
    select: { name: true, values: true },
  });
  return rows.map((row) => ({ name: row.name, values: row.values }));
}

/** The options and every variant of a product, as its page and every change's answer show them. */
export async function readAdminVariants(db: Pick<Database, "productOption" | "productVariant">, productId: string) {
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
  return readAdminVariants(db, productId);
}

// ---------------------------------------------------------------------------------------------
// The variants' table

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

function invalidTable(error: z.ZodError): VariantRefusal {
  const refusal = invalidInput(error, VARIANT_FIELDS);
  const [first, , column] = error.issues[0]?.path ?? [];
  const named = column === "stockShown" ? "stock" : column === "id" ? "variants" : column;
  const field =
    first === "variants" && VARIANT_FIELDS.some((name) => name === named) ? (named as VariantField) : refusal.field;
  return { ...refusal, ...(field ? { field } : {}) };
}

const skuTaken = (title: string): VariantRefusal => ({
  ok: false,
  status: 409,
  code: "sku_taken",
  message: `another variant already has the SKU given to ${title || "the product"}; nothing was saved`,
  field: "sku",
});

/**
 * Saves the variants' table: each row's SKU, price, stock and image, one reason for the stock
 * changes. Stock is compare-and-set against what the table showed (409 stock_changed), each change
 * kept as an `edit` adjustment of its variant.
 */
export async function updateVariants(
  productId: string,
  input: unknown,
  actor: Actor,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return noProduct;
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const parsed = updateVariantsSchema.safeParse(tableInput(fields));
  if (!parsed.success) return invalidTable(parsed.error);
  const { variants: rows, stockReason } = parsed.data;

  try {
    return await db.$transaction(async (tx): Promise<VariantResult> => {
      await lockProducts(tx, [productId]);
      const product = await tx.product.findUnique({ where: { id: productId }, select: { imagePath: true } });
      if (!product) return noProduct;
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

      const changed = [];
      for (const { row, variant, title, stockChange } of changes) {
        const data = {
          ...(row.sku !== variant.sku ? { sku: row.sku } : {}),
          ...(row.priceAoa !== variant.priceAoa ? { priceAoa: row.priceAoa } : {}),
          ...(stockChange ? { stock: row.stock } : {}),
          ...(row.imagePath !== variant.imagePath ? { imagePath: row.imagePath } : {}),
        };
        if (Object.keys(data).length === 0) continue;
        changed.push({ id: variant.id, title, ...changedFields(variant, data) });
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
      if (changed.length > 0)
        await recordStaffEvent(tx, actor, {
          kind: "variant.update",
          subject: productSubject(productId),
          details: {
            variants: changed,
            ...(changes.some((change) => change.stockChange) ? { stockReason } : {}),
          },
        });
      await tx.product.update({ where: { id: productId }, data: { updatedAt: new Date() } });
      return { ok: true, done: "variants_saved", product: await readAdminVariants(tx, productId) };
    });
  } catch (error) {
    const refused = rolledBack<VariantRefusal>(error);
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
  actor: Actor,
  { db }: { db: Database },
): Promise<VariantResult> {
  if (!isUuid(productId)) return noProduct;
  return db.$transaction(async (tx): Promise<VariantResult> => {
    await lockProducts(tx, [productId]);
    if (!(await tx.product.findUnique({ where: { id: productId }, select: { id: true } }))) return noProduct;
    if (!isUuid(variantId)) return noVariant;
    const variant = await tx.productVariant.findFirst({
      where: { id: variantId, productId },
      select: { id: true, options: true, archivedAt: true },
    });
    if (!variant) return noVariant;
    const done: VariantDone = archived ? "archived" : "restored";
    if ((variant.archivedAt !== null) === archived)
      return { ok: true, done, product: await readAdminVariants(tx, productId) };
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
    await recordStaffEvent(tx, actor, {
      kind: archived ? "variant.archive" : "variant.restore",
      subject: productSubject(productId),
      details: {
        variantId: variant.id,
        title: variantTitle(await readOptions(tx, productId), readVariantOptions(variant.options)),
      },
    });
    await tx.product.update({ where: { id: productId }, data: { updatedAt: new Date() } });
    return { ok: true, done, product: await readAdminVariants(tx, productId) };
  });
}
