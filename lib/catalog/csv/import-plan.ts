import { legacyGallery, NO_IMAGE, type GalleryImage } from "../gallery";
import { Prisma } from "../../generated/prisma/client";
import { IMAGE_PATH_PREFIX, imagePath, type ImageContentType } from "../images/store";
import { readVariantOptions, type ProductOptionDefinition } from "../variants";
import { emptySummary, problem, type CsvProblem, type ImportSummary } from "./format";
import type { CsvProduct } from "./parse";
import { categoryResolver, NEW, type PlannedCategory } from "./import-categories";
import { planVariants, type ExistingVariant, type VariantWrite } from "./import-variants";
import { mergedPlainValues, PLAIN_COLUMNS, plainValuesChange, type PlainValues } from "./product-columns";

/**
 * What a catalog CSV import would change, against the database as a connection sees it: the
 * products to create and update, their categories, galleries, options and variants, the files to
 * store, and every problem that needs the database to be found. Products' own price and stock are
 * never planned: triggers keep them as their active variants' lowest price and total stock.
 */

export type Sql = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

export interface FileImage {
  sha256: string;
  contentType: ImageContentType;
}

/** Its plain columns (./product-columns.ts) as they are after the import. */
export interface ProductWrite extends PlainValues {
  /** Absent for a new product. */
  id?: string;
  slug: string;
  /** A new product's: its first variant's (the default variant the insert's trigger makes has them). */
  priceAoa: number;
  stock: number;
  imagePath: string;
  /** Category ids, when they change. */
  categories: string[] | null;
  /** The whole gallery, when it changes; a path "new:<sha256>" is a file to store (Plan.filesToStore). */
  gallery: GalleryImage[] | null;
  /** Its options, when they change ([] for none). */
  options: ProductOptionDefinition[] | null;
}

export interface Plan {
  problems: CsvProblem[];
  summary: ImportSummary;
  /** Top-level ones first. */
  newCategories: PlannedCategory[];
  creates: ProductWrite[];
  updates: ProductWrite[];
  /** Variants changed (matched by combination, or a product's default variant becoming its first combination). */
  variantUpdates: VariantWrite[];
  variantInserts: VariantWrite[];
  /** New products' default variants as their insert makes them: only their initial stock to record. */
  variantDefaults: VariantWrite[];
  /** Active variants the file no longer lists. */
  archive: string[];
  /** Variants whose SKU another variant of the file takes: cleared first. */
  clearSkus: string[];
  /** Files whose content the shop does not have yet, by sha256. */
  filesToStore: Map<string, { name: string; contentType: ImageContentType }>;
}

const sameGallery = (a: readonly GalleryImage[], b: readonly GalleryImage[]) =>
  a.length === b.length && a.every((image, i) => image.path === b[i]!.path && image.alt === b[i]!.alt);

/** The plain columns as the products' read names them (the table's constants, never input). */
const PLAIN_SELECT = Prisma.raw(PLAIN_COLUMNS.map((column) => `${column.sql} AS "${column.key}"`).join(", "));

interface ExistingProduct extends PlainValues {
  id: string;
  slug: string;
  priceAoa: number;
  stock: number;
  imagePath: string;
  archived: boolean;
}

/**
 * What the lines would change, against the database as `sql` sees it: with `lock`, the existing
 * products' rows are locked first (in id order, as every writer of several products does, and as
 * lib/catalog/stock.ts lockProducts would: a checkout's decrement waits, then applies to the
 * result). Idempotent: a product that would not change is left out (no updated_at, no stock
 * adjustment, no gallery rows). A product without images shows the shop's placeholder.
 */
export async function planImport(
  sql: Sql,
  products: CsvProduct[],
  fileImages: Map<string, FileImage>,
  { lock, optionColumns }: { lock: boolean; optionColumns: boolean },
): Promise<Plan> {
  const problems: CsvProblem[] = [];
  const summary = emptySummary();
  const slugs = products.flatMap((product) => (product.slug === null ? [] : [product.slug]));
  const existingRows = await sql.$queryRaw<ExistingProduct[]>(Prisma.sql`
SELECT id::text AS id, slug, ${PLAIN_SELECT}, price_aoa AS "priceAoa", stock, image_path AS "imagePath",
       archived_at IS NOT NULL AS archived
FROM products WHERE slug = ANY(${slugs}::text[]) ORDER BY id ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`);
  const existing = new Map(existingRows.map((row) => [row.slug, row]));
  const ids = existingRows.map((row) => row.id);

  // One after the other: inside the transaction they share its one connection anyway.
  const galleryRows =
    ids.length === 0
      ? []
      : await sql.$queryRaw<{ productId: string; path: string; alt: string }[]>(Prisma.sql`
SELECT product_id::text AS "productId", path, alt FROM gallery_images
WHERE product_id = ANY(${ids}::uuid[]) ORDER BY product_id, position`);
  const linkRows =
    ids.length === 0
      ? []
      : await sql.$queryRaw<{ productId: string; categoryId: string }[]>(Prisma.sql`
SELECT product_id::text AS "productId", category_id::text AS "categoryId" FROM product_categories
WHERE product_id = ANY(${ids}::uuid[])`);
  const categoryRows = await sql.$queryRaw<PlannedCategory[]>(Prisma.sql`
SELECT id::text AS id, parent_id::text AS "parentId", slug, name FROM categories ORDER BY position, name, id`);
  const galleries = groupBy(galleryRows, (row) => row.productId);
  const links = groupBy(linkRows, (row) => row.productId);

  // Their variants, archived ones too (a combination listed again is its archived variant back):
  // not locked one by one, the products' locks above are what every writer of a variant's stock
  // takes first (lib/catalog/stock.ts), so what is read here holds until the transaction ends. Their
  // options, and who has the file's SKUs.
  const variantRows =
    ids.length === 0
      ? []
      : await sql.$queryRaw<(Omit<ExistingVariant, "options"> & { options: string })[]>(Prisma.sql`
SELECT id::text AS id, product_id::text AS "productId", options::text AS options, sku, price_aoa AS "priceAoa",
       stock, position, archived_at IS NOT NULL AS archived
FROM product_variants WHERE product_id = ANY(${ids}::uuid[])
ORDER BY product_id, archived_at IS NOT NULL, archived_at DESC, position, created_at, id`);
  const variants = groupBy(
    variantRows.map((row) => ({ ...row, options: readVariantOptions(JSON.parse(row.options)) })),
    (row) => row.productId,
  );
  const optionRows =
    ids.length === 0
      ? []
      : await sql.$queryRaw<{ productId: string; name: string; values: string[] }[]>(Prisma.sql`
SELECT product_id::text AS "productId", name, values FROM product_options
WHERE product_id = ANY(${ids}::uuid[]) ORDER BY product_id, position`);
  const optionsOf = groupBy(optionRows, (row) => row.productId);
  const skus = products.flatMap((product) => product.variants.flatMap((variant) => variant.sku ?? []));
  const skuRows =
    skus.length === 0
      ? []
      : await sql.$queryRaw<{ id: string; sku: string; slug: string }[]>(Prisma.sql`
SELECT v.id::text AS id, v.sku, p.slug FROM product_variants v JOIN products p ON p.id = v.product_id
WHERE v.sku = ANY(${skus}::text[])`);
  const holderOfSku = new Map(skuRows.map((row) => [row.sku, row]));

  // The shop's stored images the lines name, and the files' contents the shop already has.
  const namedIds = new Set<string>();
  const shas = new Set<string>();
  for (const product of products)
    for (const { ref } of product.images ?? []) {
      if (ref.kind === "path" && ref.path.startsWith(IMAGE_PATH_PREFIX))
        namedIds.add(ref.path.slice(IMAGE_PATH_PREFIX.length));
      const file = ref.kind === "file" ? fileImages.get(ref.name) : undefined;
      if (file) shas.add(file.sha256);
    }
  const knownIds = new Set<string>();
  const pathOfSha = new Map<string, string>();
  if (namedIds.size > 0 || shas.size > 0) {
    const rows = await sql.$queryRaw<{ id: string; sha256: string }[]>(Prisma.sql`
SELECT id::text AS id, sha256 FROM product_images
WHERE id = ANY(${[...namedIds]}::uuid[]) OR sha256 = ANY(${[...shas]}::text[])`);
    for (const row of rows) {
      knownIds.add(row.id);
      if (shas.has(row.sha256) && !pathOfSha.has(row.sha256)) pathOfSha.set(row.sha256, imagePath(row.id));
    }
  }
  const filesToStore = new Map<string, { name: string; contentType: ImageContentType }>();

  const tree = categoryResolver(categoryRows);
  const creates: ProductWrite[] = [];
  const updates: ProductWrite[] = [];
  const variantUpdates: VariantWrite[] = [];
  const variantInserts: VariantWrite[] = [];
  const variantDefaults: VariantWrite[] = [];
  const archive: string[] = [];
  /** Each existing variant's SKU after the import, and the variant each line is. */
  const finalSku = new Map<string, string | null>();
  const archived = new Set<string>();
  const variantOfLine = new Map<number, string>();
  const plannedProducts = new Set<CsvProduct>();

  for (const product of products) {
    const before = problems.length;
    const current = product.slug === null ? undefined : existing.get(product.slug);

    let categories: string[] | null = null;
    if (product.categories) {
      categories = [];
      for (const path of product.categories) {
        const resolved = tree.resolve(path);
        if (typeof resolved === "string") categories.push(resolved);
        else problems.push(problem(product.line, "categories", resolved.code, resolved.value));
      }
      categories = [...new Set(categories)];
    }

    let gallery: GalleryImage[] | null = null;
    if (product.images) {
      gallery = [];
      for (const { ref, alt } of product.images) {
        let path: string;
        if (ref.kind === "path") {
          path = ref.path;
          if (path.startsWith(IMAGE_PATH_PREFIX) && !knownIds.has(path.slice(IMAGE_PATH_PREFIX.length))) {
            problems.push(problem(product.line, "images", "image_unknown", path));
            continue;
          }
        } else {
          // A file with a problem of its own (./import.ts readImageFiles) has been answered already.
          const file = fileImages.get(ref.name);
          if (!file) continue;
          const known = pathOfSha.get(file.sha256);
          if (!known) filesToStore.set(file.sha256, { name: ref.name, contentType: file.contentType });
          path = known ?? `${NEW}${file.sha256}`;
        }
        if (gallery.some((image) => image.path === path))
          problems.push(problem(product.line, "images", "image_duplicate", ref.kind === "path" ? ref.path : ref.name));
        gallery.push({ path, alt });
      }
    }

    const currentVariants = current ? (variants.get(current.id) ?? []) : [];
    const currentOptions = current ? (optionsOf.get(current.id) ?? []) : [];
    if (
      current &&
      !optionColumns &&
      (currentOptions.length > 0 ||
        currentVariants.filter((variant) => !variant.archived).some((v) => Object.keys(v.options).length > 0))
    )
      problems.push(problem(product.line, null, "product_has_options"));
    if (!product.valid || problems.length > before) continue;

    const first = product.variants[0]!;
    const plain = mergedPlainValues(current, product);
    const write: ProductWrite = {
      slug: product.slug!,
      ...plain,
      priceAoa: first.priceAoa,
      stock: first.stock,
      imagePath: gallery ? (gallery[0]?.path ?? NO_IMAGE) : (current?.imagePath ?? NO_IMAGE),
      categories,
      gallery,
      options: null,
    };
    const planned = planVariants(product, currentVariants, currentOptions);
    plannedProducts.add(product);
    write.options = planned.options;
    const variantsChange =
      planned.options !== null ||
      planned.updates.length > 0 ||
      planned.inserts.length > 0 ||
      planned.archive.length > 0;
    const keep = () => {
      variantUpdates.push(...planned.updates);
      variantInserts.push(...planned.inserts);
      variantDefaults.push(...planned.defaults);
      archive.push(...planned.archive);
      for (const [id, sku] of planned.finalSkus) finalSku.set(id, sku);
      for (const id of planned.archive) archived.add(id);
      for (const [line, id] of planned.variantOfLine) variantOfLine.set(line, id);
    };
    if (!current) {
      creates.push(write);
      keep();
      continue;
    }
    if (current.archived) summary.archived += 1;
    const shown = galleries.get(current.id) ?? legacyGallery(current);
    const currentCategories = new Set((links.get(current.id) ?? []).map((link) => link.categoryId));
    const categoriesChange =
      categories !== null &&
      (categories.length !== currentCategories.size || categories.some((id) => !currentCategories.has(id)));
    const galleryChange = gallery !== null && !sameGallery(gallery, shown);
    // Every variant is compared (the file's SKUs against the others' too), changed or not.
    for (const [id, sku] of planned.finalSkus) finalSku.set(id, sku);
    for (const [line, id] of planned.variantOfLine) variantOfLine.set(line, id);
    const changed = categoriesChange || galleryChange || variantsChange || plainValuesChange(current, plain);
    if (!changed) {
      summary.unchanged += 1;
      continue;
    }
    keep();
    updates.push({
      ...write,
      id: current.id,
      categories: categoriesChange ? categories : null,
      gallery: galleryChange ? gallery : null,
    });
  }

  // SKUs: one a line names may be another variant's only if that one gives it up (it is archived
  // by this file, or the file gives it another SKU); that one's is cleared first.
  // A product with problems of its own was not planned: its SKUs are only checked against the
  // products the file does not list.
  const clearSkus = new Set<string>();
  const listed = new Set(slugs);
  for (const product of products)
    for (const variant of product.variants) {
      const holder = variant.sku === null ? undefined : holderOfSku.get(variant.sku);
      if (!holder || holder.id === variantOfLine.get(variant.line)) continue;
      if (!plannedProducts.has(product)) {
        if (!listed.has(holder.slug)) problems.push(problem(variant.line, "sku", "sku_taken", holder.slug));
        continue;
      }
      const givenUp = archived.has(holder.id) || (finalSku.has(holder.id) && finalSku.get(holder.id) !== variant.sku);
      if (givenUp) clearSkus.add(holder.id);
      else problems.push(problem(variant.line, "sku", "sku_taken", holder.slug));
    }

  summary.created = creates.length;
  summary.updated = updates.length;
  summary.categoriesCreated = tree.created.length;
  summary.imagesStored = filesToStore.size;
  return {
    problems,
    summary,
    newCategories: tree.created,
    creates,
    updates,
    variantUpdates,
    variantInserts,
    variantDefaults,
    archive,
    clearSkus: [...clearSkus],
    filesToStore,
  };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
