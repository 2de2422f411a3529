import { Prisma } from "../../generated/prisma/client";
import { optionsKey, readVariantOptions, type VariantOptions } from "../variants";
import { IMPORT_REASON } from "./format";
import { NEW } from "./import-categories";
import type { Plan, Sql } from "./import-plan";
import type { VariantWrite } from "./import-variants";
import { PLAIN_COLUMNS, type PlainValues } from "./product-columns";

/**
 * A catalog CSV import's plan written, in the import's transaction: a few set-based statements
 * per table and kind of change, whatever the number of lines (10 000 lines in seconds). Each
 * variant's stock change is an adjustment, `edit` with the reason "CSV import", `initial` for a
 * new variant.
 */

/** The plain columns' names, for a column list (the table's constants, never input). */
const PLAIN_NAMES = Prisma.raw(PLAIN_COLUMNS.map((column) => column.sql).join(", "));
/** An UPDATE's assignments of the plain columns from the unnest `v`. */
const PLAIN_SET = Prisma.raw(PLAIN_COLUMNS.map((column) => `${column.sql} = v.${column.sql}`).join(", "));
/** The rows' plain values as unnest arrays, one per column in the table's order. */
const plainArrays = (rows: PlainValues[]) =>
  Prisma.join(
    PLAIN_COLUMNS.map((column) => Prisma.sql`${rows.map((row) => row[column.key])}::${Prisma.raw(column.sqlType)}[]`),
    ", ",
  );

/** The plan's writes, a few set-based statements per table; `stored` has the paths of the files stored for it. */
export async function writePlan(tx: Sql, plan: Plan, stored: Map<string, string>): Promise<void> {
  const categoryIds = new Map<string, string>();
  const realCategory = (id: string) => (id.startsWith(NEW) ? categoryIds.get(id)! : id);
  // Top-level categories first: a sub-category's trigger looks its parent up.
  for (const level of [false, true]) {
    const categories = plan.newCategories.filter((category) => (category.parentId !== null) === level);
    if (categories.length === 0) continue;
    const inserted = await tx.$queryRaw<{ id: string; slug: string }[]>(Prisma.sql`
INSERT INTO categories (slug, name, parent_id)
SELECT * FROM unnest(${categories.map((c) => c.slug)}::text[], ${categories.map((c) => c.name)}::text[],
                     ${categories.map((c) => (c.parentId ? realCategory(c.parentId) : null))}::uuid[])
RETURNING id::text AS id, slug`);
    const idOfSlug = new Map(inserted.map((row) => [row.slug, row.id]));
    for (const category of categories) categoryIds.set(category.id, idOfSlug.get(category.slug)!);
  }

  const path = (value: string) => {
    if (!value.startsWith(NEW)) return value;
    const storedPath = stored.get(value.slice(NEW.length));
    if (!storedPath) throw new Error(`the file ${value} was not stored`);
    return storedPath;
  };

  const productIds = new Map<string, string>();
  /** A new product's default variant, made by the insert's trigger, by slug. */
  const defaultVariants = new Map<string, string>();
  if (plan.creates.length > 0) {
    const rows = plan.creates;
    const inserted = await tx.$queryRaw<{ id: string; slug: string }[]>(Prisma.sql`
INSERT INTO products (slug, ${PLAIN_NAMES}, image_path, price_aoa, stock)
SELECT * FROM unnest(${rows.map((r) => r.slug)}::text[], ${plainArrays(rows)},
                     ${rows.map((r) => path(r.imagePath))}::text[],
                     ${rows.map((r) => r.priceAoa)}::int[], ${rows.map((r) => r.stock)}::int[])
RETURNING id::text AS id, slug`);
    for (const row of inserted) productIds.set(row.slug, row.id);
    const defaults = await tx.$queryRaw<{ id: string; slug: string }[]>(Prisma.sql`
SELECT v.id::text AS id, p.slug FROM product_variants v JOIN products p ON p.id = v.product_id
WHERE v.product_id = ANY(${inserted.map((row) => row.id)}::uuid[])`);
    for (const row of defaults) defaultVariants.set(row.slug, row.id);
  }
  // Products' own columns; their price and stock are their variants' (the triggers keep them).
  if (plan.updates.length > 0) {
    const rows = plan.updates;
    await tx.$executeRaw(Prisma.sql`
UPDATE products AS p
SET ${PLAIN_SET}, image_path = v.image_path, updated_at = CURRENT_TIMESTAMP
FROM unnest(${rows.map((r) => r.id!)}::uuid[], ${plainArrays(rows)},
            ${rows.map((r) => path(r.imagePath))}::text[])
     AS v(id, ${PLAIN_NAMES}, image_path)
WHERE p.id = v.id`);
    for (const row of rows) productIds.set(row.slug, row.id!);
  }
  const all = [...plan.creates, ...plan.updates];
  const idOf = (row: { slug: string }) => productIds.get(row.slug)!;

  const reoptioned = all.filter((row) => row.options !== null);
  if (reoptioned.length > 0) {
    await tx.$executeRaw(
      Prisma.sql`DELETE FROM product_options WHERE product_id = ANY(${reoptioned.map(idOf)}::uuid[])`,
    );
    const options = reoptioned.flatMap((row) =>
      row.options!.map((option, i) => ({ productId: idOf(row), position: i + 1, ...option })),
    );
    // An array per row through unnest: the values joined by a control character no value may hold.
    if (options.length > 0)
      await tx.$executeRaw(Prisma.sql`
INSERT INTO product_options (product_id, position, name, values)
SELECT u.product_id, u.position, u.name, string_to_array(u.joined, chr(31))
FROM unnest(${options.map((o) => o.productId)}::uuid[], ${options.map((o) => o.position)}::int[],
            ${options.map((o) => o.name)}::text[], ${options.map((o) => o.values.join("\u001f"))}::text[])
     AS u(product_id, position, name, joined)`);
  }

  // Variants: SKUs given up first, then the archived, changed and new ones (the one active
  // variant per combination holds at every step). Each row's trigger adds its change to its product.
  if (plan.clearSkus.length > 0)
    await tx.$executeRaw(Prisma.sql`UPDATE product_variants SET sku = NULL WHERE id = ANY(${plan.clearSkus}::uuid[])`);
  if (plan.archive.length > 0)
    await tx.$executeRaw(Prisma.sql`
UPDATE product_variants SET archived_at = CURRENT_TIMESTAMP, updated_at = CURRENT_TIMESTAMP
WHERE id = ANY(${plan.archive}::uuid[])`);
  const variantId = (row: VariantWrite) => (row.id === "default" ? defaultVariants.get(row.slug)! : row.id!);
  if (plan.variantUpdates.length > 0) {
    const rows = plan.variantUpdates;
    await tx.$executeRaw(Prisma.sql`
UPDATE product_variants AS v
SET options = u.options::jsonb, sku = u.sku, price_aoa = u.price_aoa, stock = u.stock, position = u.position,
    archived_at = NULL, updated_at = CURRENT_TIMESTAMP
FROM unnest(${rows.map(variantId)}::uuid[], ${rows.map((r) => JSON.stringify(r.options))}::text[],
            ${rows.map((r) => r.sku)}::text[], ${rows.map((r) => r.priceAoa)}::int[],
            ${rows.map((r) => r.stock)}::int[], ${rows.map((r) => r.position)}::int[])
     AS u(id, options, sku, price_aoa, stock, position)
WHERE v.id = u.id`);
  }
  const insertedIds = new Map<string, string>();
  const insertedKey = (productId: string, options: VariantOptions) => `${productId} ${optionsKey(options)}`;
  if (plan.variantInserts.length > 0) {
    const rows = plan.variantInserts;
    const inserted = await tx.$queryRaw<{ id: string; productId: string; options: string }[]>(Prisma.sql`
INSERT INTO product_variants (product_id, options, sku, price_aoa, stock, position)
SELECT u.product_id, u.options::jsonb, u.sku, u.price_aoa, u.stock, u.position
FROM unnest(${rows.map(idOf)}::uuid[], ${rows.map((r) => JSON.stringify(r.options))}::text[],
            ${rows.map((r) => r.sku)}::text[], ${rows.map((r) => r.priceAoa)}::int[],
            ${rows.map((r) => r.stock)}::int[], ${rows.map((r) => r.position)}::int[])
     AS u(product_id, options, sku, price_aoa, stock, position)
RETURNING id::text AS id, product_id::text AS "productId", options::text AS options`);
    for (const row of inserted)
      insertedIds.set(insertedKey(row.productId, readVariantOptions(JSON.parse(row.options))), row.id);
  }

  // Each variant's stock change, under the products' locks: `initial` for a new variant.
  const adjusted = [...plan.variantUpdates, ...plan.variantInserts, ...plan.variantDefaults].filter(
    (row) => row.stock !== row.stockBefore,
  );
  if (adjusted.length > 0) {
    const ofRow = (row: VariantWrite) =>
      row.id === null ? insertedIds.get(insertedKey(idOf(row), row.options))! : variantId(row);
    await tx.$executeRaw(Prisma.sql`
INSERT INTO stock_adjustments (product_id, variant_id, kind, delta, stock_after, reason)
SELECT * FROM unnest(${adjusted.map(idOf)}::uuid[], ${adjusted.map(ofRow)}::uuid[],
                     ${adjusted.map((r) => (r.id === null || r.id === "default" ? "initial" : "edit"))}::text[],
                     ${adjusted.map((r) => r.stock - r.stockBefore)}::int[], ${adjusted.map((r) => r.stock)}::int[],
                     ${adjusted.map(() => IMPORT_REASON)}::text[])`);
  }

  const recategorised = all.filter((row) => row.categories !== null);
  if (recategorised.length > 0) {
    await tx.$executeRaw(
      Prisma.sql`DELETE FROM product_categories WHERE product_id = ANY(${recategorised.map(idOf)}::uuid[])`,
    );
    const pairs = recategorised.flatMap((row) => row.categories!.map((id) => [idOf(row), realCategory(id)] as const));
    if (pairs.length > 0)
      await tx.$executeRaw(Prisma.sql`
INSERT INTO product_categories (product_id, category_id)
SELECT * FROM unnest(${pairs.map((pair) => pair[0])}::uuid[], ${pairs.map((pair) => pair[1])}::uuid[])`);
  }

  const regalleried = all.filter((row) => row.gallery !== null);
  if (regalleried.length > 0) {
    await tx.$executeRaw(
      Prisma.sql`DELETE FROM gallery_images WHERE product_id = ANY(${regalleried.map(idOf)}::uuid[])`,
    );
    const images = regalleried.flatMap((row) =>
      row.gallery!.map((image, position) => ({
        productId: idOf(row),
        position,
        path: path(image.path),
        alt: image.alt,
      })),
    );
    await tx.$executeRaw(Prisma.sql`
INSERT INTO gallery_images (product_id, position, path, alt)
SELECT * FROM unnest(${images.map((i) => i.productId)}::uuid[], ${images.map((i) => i.position)}::int[],
                     ${images.map((i) => i.path)}::text[], ${images.map((i) => i.alt)}::text[])`);
  }
}
