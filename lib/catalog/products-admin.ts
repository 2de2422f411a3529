import "server-only";
import type { z } from "zod";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/known-error";
import { Prisma } from "../generated/prisma/client";
import { NO_IMAGE, replaceGallery } from "./gallery";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { lockProducts } from "./stock";
import type { ImageStore } from "./images/store";
import { prepareImage, type PreparedImage } from "./images/validate";
import { invalidInput } from "../text-input";
import { productSubject, recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields } from "../admin/event-changes";
import { lockCategories } from "./categories-admin";
import { lockedGallery, type ImageUpload } from "./gallery-admin";
import {
  adjustStockSchema,
  createProductSchema,
  PRODUCT_COLUMNS,
  PRODUCT_FIELDS,
  PRODUCT_LIMITS,
  productIdSchema,
  updateProductSchema,
  type ProductDone,
  type ProductError,
  type ProductField,
} from "./product-rules";

/**
 * The back office's products and stock (/admin/products), without the web: creating and editing a
 * product, archiving and restoring it (a product is never deleted: orders point at it), changing
 * its stock with a reason that is kept, and the list and detail its pages show. Stock is never
 * written from a number read earlier, since checkouts take units at any moment
 * (lib/checkout/create-order.ts decrements it in their own transactions). Every change is recorded
 * (lib/admin/staff-events.ts) by the person who made it, in its own transaction; a refusal, or a
 * save that changes nothing, records nothing.
 */

/** With the statuses the back office's actions answer with (lib/http/admin-action.ts ActionOutcome). */
export type ProductRefusal = Refusal<ProductError | "not_found", ProductField> & {
  status: 400 | 404 | 409 | 413 | 415;
};
export type ProductResult = { ok: true; done: ProductDone; product: AdminProduct } | ProductRefusal;

/** A product's own columns (./product-rules.ts PRODUCT_COLUMNS), whether it is archived, and when it last changed. */
export const productFields = {
  ...PRODUCT_COLUMNS,
  archivedAt: true,
  updatedAt: true,
} as const satisfies Prisma.ProductSelect;

export type AdminProduct = Prisma.ProductGetPayload<{ select: typeof productFields }>;

export interface StockAdjustmentRow {
  id: string;
  kind: "initial" | "edit" | "adjustment" | "return";
  delta: number;
  stockAfter: number;
  reason: string;
  createdAt: Date;
  /** The variant whose stock it moved (the page names it for a product with options). */
  variantId: string | null;
}

const invalid = (error: z.ZodError): ProductRefusal =>
  invalidInput(error, PRODUCT_FIELDS, { categoryIds: "categories" });

const notFound: ProductRefusal = { ok: false, status: 404, code: "not_found", message: "no such product" };
const slugTaken: ProductRefusal = {
  ok: false,
  status: 409,
  code: "slug_taken",
  message: "another product already has this slug",
  field: "slug",
};

const unknownCategories: ProductRefusal = {
  ok: false,
  status: 400,
  code: "invalid_input",
  message: "categoryIds names a category that does not exist",
  field: "categories",
};

/**
 * Makes `ids` the product's categories, in the caller's transaction; false (nothing written) when
 * one is not a category (lockCategories keeps them until the transaction ends).
 */
async function setCategories(tx: Prisma.TransactionClient, productId: string, ids: string[]): Promise<boolean> {
  if (!(await lockCategories(tx, ids))) return false;
  await tx.productCategory.deleteMany({ where: { productId } });
  if (ids.length > 0)
    await tx.productCategory.createMany({ data: ids.map((categoryId) => ({ productId, categoryId })) });
  return true;
}

/** The product's categories, by id in order, as the product.update event compares them. */
async function categoriesOf(tx: Prisma.TransactionClient, productId: string): Promise<string[]> {
  const rows = await tx.productCategory.findMany({ where: { productId }, select: { categoryId: true } });
  return rows.map((row) => row.categoryId).sort();
}

/**
 * Checks and re-encodes an uploaded image (lib/catalog/images/validate.ts), before any transaction: it
 * takes CPU time, which must not be spent holding locks. `image` is absent when none was sent.
 */
async function prepareUpload(
  image: ImageUpload | undefined,
): Promise<{ ok: true; image?: Extract<PreparedImage, { ok: true }> } | ProductRefusal> {
  if (!image || image.bytes.byteLength === 0) return { ok: true };
  const prepared = await prepareImage(image.bytes);
  if (!prepared.ok) return { ...prepared, field: "image" };
  return { ok: true, image: prepared };
}

export interface ProductDeps {
  db: Database;
  images: ImageStore;
}

/**
 * A new product, on sale at once, with its image when one is sent (without one it shows the
 * placeholder until the gallery gets one, as a product imported without images) and its first
 * stock in the history.
 */
export async function createProduct(
  input: unknown,
  image: ImageUpload | undefined,
  actor: Actor,
  deps: ProductDeps,
): Promise<ProductResult> {
  const parsed = createProductSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { imageAlt, categoryIds, ...data } = parsed.data;
  if (await deps.db.product.findUnique({ where: { slug: data.slug }, select: { id: true } })) return slugTaken;
  const upload = await prepareUpload(image);
  if (!upload.ok) return upload;
  try {
    const product = await deps.db.$transaction(async (tx) => {
      // In this transaction: a product refused below (a Rollback) leaves no image behind.
      const path = upload.image
        ? (await deps.images.put(upload.image.bytes, upload.image.contentType, tx)).path
        : NO_IMAGE;
      // A trigger gives the product its default variant, at this price and stock (lib/catalog/variants.ts).
      const created = await tx.product.create({
        data: { ...data, imagePath: path },
        select: { id: true, stock: true, variants: { select: { id: true } } },
      });
      if (upload.image) await replaceGallery(tx, created.id, [{ path, alt: imageAlt ?? data.name }]);
      if (!(await setCategories(tx, created.id, categoryIds ?? []))) throw new Rollback(unknownCategories);
      if (created.stock > 0)
        await tx.stockAdjustment.create({
          data: {
            productId: created.id,
            variantId: created.variants[0]!.id,
            kind: "initial",
            delta: created.stock,
            stockAfter: created.stock,
            reason: "",
          },
        });
      const product = await tx.product.findUniqueOrThrow({ where: { id: created.id }, select: productFields });
      const { id, name, slug, description, priceAoa, stock, imagePath } = product;
      await recordStaffEvent(tx, actor, {
        kind: "product.create",
        subject: productSubject(id),
        details: {
          name,
          slug,
          description,
          priceAoa,
          stock,
          categoryIds: categoryIds ?? [],
          ...(upload.image ? { image: imagePath } : {}),
        },
      });
      return product;
    });
    return { ok: true, done: "created", product };
  } catch (error) {
    const refused = rolledBack<ProductResult>(error);
    if (refused) return refused;
    if (isUniqueViolation(error)) return slugTaken;
    throw error;
  }
}

/**
 * The product form: name, slug, description, price, a new image when one is sent, and the stock
 * when it differs from the one the form showed (with a reason, kept as an `edit` adjustment). The
 * form sends the stock it showed beside the new one, and the change is made only if the stock is
 * still what it showed (compare-and-set under the row's lock), else 409. The product's categories
 * (`categoryIds`) are replaced as a set in the same transaction; its image is the first of its
 * gallery (./gallery.ts manages the others).
 */
export async function updateProduct(
  productId: string,
  input: unknown,
  image: ImageUpload | undefined,
  actor: Actor,
  deps: ProductDeps,
): Promise<ProductResult> {
  if (!productIdSchema.safeParse(productId).success) return notFound;
  const parsed = updateProductSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { stock, stockShown, stockReason, imageAlt, categoryIds, priceAoa, ...catalog } = parsed.data;
  if (!(await deps.db.product.findUnique({ where: { id: productId }, select: { id: true } }))) return notFound;
  const clash = await deps.db.product.findFirst({
    where: { slug: catalog.slug, id: { not: productId } },
    select: { id: true },
  });
  if (clash) return slugTaken;
  const upload = await prepareUpload(image);
  if (!upload.ok) return upload;

  try {
    return await deps.db.$transaction(async (tx): Promise<ProductResult> => {
      // The product's lock, then its variant's (lib/catalog/stock.ts): a checkout's decrement waits for
      // this transaction, then applies to its result.
      await lockProducts(tx, [productId]);
      const before = await tx.product.findUniqueOrThrow({ where: { id: productId }, select: productFields });
      const categoriesBefore = categoryIds ? await categoriesOf(tx, productId) : undefined;
      const variant = priceAoa !== undefined || stock !== undefined ? await singleVariant(tx, productId) : null;
      if (variant && !variant.ok) throw new Rollback(variant.refusal);
      const current = variant?.variant;
      const stockChange = current !== undefined && stock !== undefined && stock !== stockShown;
      if (stockChange && current.stock !== stockShown)
        throw new Rollback({
          ok: false,
          status: 409,
          code: "stock_changed",
          message: `the stock changed to ${current.stock} since the form showed ${stockShown}; nothing was saved`,
          field: "stock",
        });
      if (categoryIds && !(await setCategories(tx, productId, categoryIds))) throw new Rollback(unknownCategories);
      // A new image replaces the gallery's first, which is the product's image (or becomes it, for
      // a product without images); stored in this transaction, so that nothing is left of it if
      // the change fails.
      const gallery = upload.image ? await lockedGallery(tx, productId) : null;
      if (upload.image && gallery) {
        const [first, ...rest] = gallery;
        const { path } = await deps.images.put(upload.image.bytes, upload.image.contentType, tx);
        await replaceGallery(tx, productId, [
          first ? { ...first, path, alt: imageAlt ?? first.alt } : { path, alt: imageAlt ?? catalog.name },
          ...rest,
        ]);
      }
      if (current && (stockChange || (priceAoa !== undefined && priceAoa !== current.priceAoa)))
        await tx.productVariant.update({
          where: { id: current.id },
          data: { ...(priceAoa !== undefined ? { priceAoa } : {}), ...(stockChange ? { stock } : {}) },
        });
      const product = await tx.product.update({ where: { id: productId }, data: catalog, select: productFields });
      if (stockChange)
        await tx.stockAdjustment.create({
          data: {
            productId,
            variantId: current.id,
            kind: "edit",
            delta: stock - current.stock,
            stockAfter: stock,
            reason: stockReason!,
          },
        });
      const details = {
        ...changedFields(
          { ...before, image: before.imagePath, priceAoa: current?.priceAoa, categoryIds: categoriesBefore },
          { ...catalog, image: product.imagePath, priceAoa, categoryIds: categoryIds && [...categoryIds].sort() },
        ),
        ...(stockChange ? { stock: { from: current.stock, to: stock }, stockReason } : {}),
      };
      if (Object.keys(details).length > 0)
        await recordStaffEvent(tx, actor, { kind: "product.update", subject: productSubject(productId), details });
      return { ok: true, done: "saved", product };
    });
  } catch (error) {
    const refused = rolledBack<ProductResult>(error);
    if (refused) return refused;
    if (isUniqueViolation(error)) return slugTaken;
    throw error;
  }
}

const hasOptionsRefusal: ProductRefusal = {
  ok: false,
  status: 409,
  code: "has_options",
  message: "the product has options: set the price and stock of each of its variants",
  field: "priceAoa",
};

/** The one variant of a product without options, locked; a product with options has several (409). */
async function singleVariant(
  tx: Prisma.TransactionClient,
  productId: string,
): Promise<
  { ok: true; variant: { id: string; stock: number; priceAoa: number } } | { ok: false; refusal: ProductRefusal }
> {
  if ((await tx.productOption.count({ where: { productId } })) > 0) return { ok: false, refusal: hasOptionsRefusal };
  const [variant] = await tx.$queryRaw<{ id: string; stock: number; priceAoa: number }[]>(Prisma.sql`
SELECT id, stock, price_aoa AS "priceAoa" FROM product_variants
WHERE product_id = ${productId}::uuid AND archived_at IS NULL ORDER BY position, id LIMIT 1 FOR UPDATE`);
  return variant ? { ok: true, variant } : { ok: false, refusal: notFound };
}

/**
 * Adds `delta` units (negative: takes them) with a reason. One UPDATE adds to whatever the stock
 * is now, so units that checkouts take meanwhile are never given back; it refuses to end below
 * zero or above the limit (409) rather than clamp.
 */
export async function adjustStock(
  productId: string,
  input: unknown,
  actor: Actor,
  deps: { db: Database },
): Promise<ProductResult> {
  if (!productIdSchema.safeParse(productId).success) return notFound;
  const parsed = adjustStockSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { delta, reason, variantId } = parsed.data;
  return deps.db.$transaction(async (tx): Promise<ProductResult> => {
    await lockProducts(tx, [productId]);
    let id = variantId;
    if (!id) {
      const single = await singleVariant(tx, productId);
      if (!single.ok) return single.refusal;
      id = single.variant.id;
    }
    const [updated] = await tx.$queryRaw<{ stock: number }[]>(Prisma.sql`
UPDATE product_variants SET stock = stock + ${delta}, updated_at = CURRENT_TIMESTAMP
WHERE id = ${id}::uuid AND product_id = ${productId}::uuid AND stock + ${delta} BETWEEN 0 AND ${PRODUCT_LIMITS.stockMax}
RETURNING stock`);
    if (!updated) {
      const variant = await tx.productVariant.findFirst({ where: { id, productId }, select: { stock: true } });
      if (!variant) return notFound;
      return {
        ok: false,
        status: 409,
        code: "insufficient_stock",
        message: `the stock is ${variant.stock}; adding ${delta} would leave it outside 0..${PRODUCT_LIMITS.stockMax}`,
        field: "delta",
      };
    }
    await tx.stockAdjustment.create({
      data: { productId, variantId: id, kind: "adjustment", delta, stockAfter: updated.stock, reason },
    });
    await recordStaffEvent(tx, actor, {
      kind: "product.stock",
      subject: productSubject(productId),
      details: { variantId: id.toLowerCase(), from: updated.stock - delta, to: updated.stock, delta, reason },
    });
    await tx.product.update({ where: { id: productId }, data: { updatedAt: new Date() } });
    const product = await tx.product.findUniqueOrThrow({ where: { id: productId }, select: productFields });
    return { ok: true, done: "adjusted", product };
  });
}

/**
 * Archives (`archived: true`) or restores a product. An archived product leaves the catalogue,
 * /api/products and its page, and carts and checkout refuse it; its orders and history stay.
 * Doing it twice changes nothing (and records nothing the second time).
 */
export async function setArchived(
  productId: string,
  archived: boolean,
  actor: Actor,
  deps: { db: Database },
): Promise<ProductResult> {
  if (!productIdSchema.safeParse(productId).success) return notFound;
  return deps.db.$transaction(async (tx): Promise<ProductResult> => {
    const { count } = await tx.product.updateMany({
      where: { id: productId, archivedAt: archived ? null : { not: null } },
      data: { archivedAt: archived ? new Date() : null },
    });
    const product = await tx.product.findUnique({ where: { id: productId }, select: productFields });
    if (!product) return notFound;
    if (count > 0)
      await recordStaffEvent(tx, actor, {
        kind: archived ? "product.archive" : "product.restore",
        subject: productSubject(productId),
        details: { name: product.name },
      });
    return { ok: true, done: archived ? "archived" : "restored", product };
  });
}
