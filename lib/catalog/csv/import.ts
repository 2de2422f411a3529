import "server-only";
import { createHash } from "node:crypto";
import { CATEGORY_LIMITS, slugify } from "../categories";
import type { Database } from "../../db/client";
import { Rollback, rolledBack } from "../../refusal";
import { NO_IMAGE, legacyGallery, type GalleryImage } from "../gallery";
import { Prisma } from "../../generated/prisma/client";
import { IMAGE_PATH_PREFIX, imagePath, type ImageContentType, type ImageStore } from "../images/store";
import { prepareImage } from "../images/validate";
import type { ImageFiles } from "./files";
import {
  IMPORT_REASON,
  emptySummary,
  problem,
  sortProblems,
  type CsvProblem,
  type ImportSummary,
  type ProblemCode,
} from "./format";
import { parseCatalogueCsv, type CategoryPath, type CsvProduct } from "./parse";
import {
  optionsKey,
  readVariantOptions,
  sameOptions,
  type ProductOptionDefinition,
  type VariantOptions,
} from "../variants";

/**
 * The catalogue CSV into the database (README, "Catalogue CSV"): products matched by slug,
 * created or updated; their categories by name, missing ones created; their galleries; their
 * options and variants (one line each, matched by combination: see planVariants), each variant's
 * stock as the stock the file asks for, each change kept as a stock adjustment of that variant.
 * Products' own price and stock are never written: the triggers of migration 20261129000000 keep
 * them as their active variants' lowest price and total stock.
 *
 * - A dry run and an import check the same things and answer every problem by line and column;
 *   an import with a problem writes nothing. The checks that need the database (which slugs exist,
 *   categories by name, the shop's images) are made once before anything is written, and again
 *   inside the transaction, on rows it has locked: what changed in between is still caught there.
 * - One transaction, with set-based statements (one per table and kind of change, whatever the
 *   number of lines): 10 000 lines in seconds (bench/README.md, "CSV import").
 * - Idempotent: each product is compared with what it is before anything is written, and one
 *   that would not change is not touched (no updated_at, no stock adjustment, no gallery rows).
 * - Stock: the file's stock is the one wanted. Under the products' row locks, taken first as
 *   lib/catalog/stock.ts' lockProducts would (a checkout's decrement waits, then applies to the result),
 *   the difference with the variant's stock as it is then is written with an adjustment: kind
 *   `edit` and reason "CSV import", `initial` for a new variant.
 * - Images are optional, for a new product too: a product without any shows the shop's
 *   placeholder (components/catalog/product-image.tsx), and its products.image_path is "" (lib/catalog/gallery.ts).
 * - Image files (the CLI's) are checked and re-encoded like an upload (lib/catalog/images/validate.ts),
 *   and stored in the import's transaction (an import that fails leaves none behind), before it
 *   locks any product's row: re-encoding and storing thousands of files takes seconds, and a
 *   checkout waits for the rows it needs, not for them. The store keeps one copy per content (the
 *   sha256 of the re-encoded bytes, the same for the same file), so a file named on many lines,
 *   or imported again, is stored once. A file the shop already has is found by that sha256 in
 *   product_images (the PostgreSQL store's table), which lets a dry run say exactly what changes.
 */
/** Long enough for 20 000 lines on a slow machine; Prisma's default (5 s) is for a form's transaction. */
const TRANSACTION_TIMEOUT_MS = 10 * 60_000;

export interface ImportOptions {
  dryRun: boolean;
  /** Where relative image names are read (the CLI: the CSV's folder); absent, they are problems. */
  files?: ImageFiles;
}

export interface ImportDeps {
  db: Database;
  images: ImageStore;
}

export type ImportResult =
  | { ok: true; dryRun: boolean; summary: ImportSummary; problems: [] }
  | { ok: false; dryRun: boolean; summary: ImportSummary; problems: CsvProblem[] }
  /** Another change of the catalogue collided with this import (a slug or category created meanwhile): nothing was written. */
  | { ok: false; conflict: true; message: string };

type Sql = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

interface FileImage {
  sha256: string;
  contentType: ImageContentType;
}

/** A category as the tree has it, or one this import creates (`id` "new:<n>" until written). */
interface PlannedCategory {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
}

interface ProductWrite {
  /** Absent for a new product. */
  id?: string;
  slug: string;
  name: string;
  description: string;
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

/** A variant inserted or changed. */
interface VariantWrite {
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

interface Plan {
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

const NEW = "new:";

/** Case, accents and repeated spaces aside: "Café  Moído" and "cafe moido" are one name. */
const categoryKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");

const sameGallery = (a: readonly GalleryImage[], b: readonly GalleryImage[]) =>
  a.length === b.length && a.every((image, i) => image.path === b[i]!.path && image.alt === b[i]!.alt);

export async function importCatalogueCsv(
  bytes: Uint8Array,
  options: ImportOptions,
  deps: ImportDeps,
): Promise<ImportResult> {
  const parsed = parseCatalogueCsv(bytes);
  const files = await readImageFiles(parsed.products, options.files);
  const lines = parsed.products.map((product) =>
    files.badLines.has(product.line) ? { ...product, valid: false } : product,
  );
  const { optionColumns } = parsed;
  const before = await plan(deps.db, lines, files.images, { lock: false, optionColumns });
  const problems = sortProblems([...parsed.problems, ...files.problems, ...before.problems]);
  const summary = { ...before.summary, rows: parsed.rows };
  if (problems.length > 0) return { ok: false, dryRun: options.dryRun, summary, problems };
  if (options.dryRun) return { ok: true, dryRun: true, summary, problems: [] };

  try {
    return await deps.db.$transaction(
      async (tx): Promise<ImportResult> => {
        // The slow part first, no product's row locked yet; the locked plan below finds these
        // files in product_images (this transaction's rows) and names them by their paths.
        const stored = await storeFiles(before.filesToStore, options.files, deps.images, tx);
        const locked = await plan(tx, lines, files.images, { lock: true, optionColumns });
        const summary = { ...locked.summary, rows: parsed.rows, imagesStored: stored.size };
        // Thrown, not returned: returning would commit the images stored above.
        if (locked.problems.length > 0)
          throw new Rollback<ImportResult>({
            ok: false,
            dryRun: false,
            summary,
            problems: sortProblems(locked.problems),
          });
        // Empty unless a stored image the first plan counted on was deleted since (none ever is).
        for (const [sha256, path] of await storeFiles(locked.filesToStore, options.files, deps.images, tx))
          stored.set(sha256, path);
        await write(tx, locked, stored);
        return { ok: true, dryRun: false, summary: { ...summary, imagesStored: stored.size }, problems: [] };
      },
      { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
    );
  } catch (error) {
    const refused = rolledBack<ImportResult>(error);
    if (refused) return refused;
    if (isCollision(error))
      return {
        ok: false,
        conflict: true,
        message:
          "another change of the catalogue (a product or category created, a category moved) collided with this import; nothing was written: import again",
      };
    throw error;
  }
}

/**
 * A unique slug taken, or the tree's two levels broken (the categories_two_levels trigger), by
 * someone else meanwhile; or a deadlock or serialization failure with them; or a row another
 * transaction kept locked past the session's lock_timeout (DATABASE_LOCK_TIMEOUT_MS). Prisma
 * reports a raw statement's error as P2010 with the driver's SQLSTATE.
 */
function isCollision(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002" || error.code === "P2034") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string; originalMessage?: string } })
    ?.cause;
  const code = cause?.originalCode ?? "";
  return (
    ["23505", "40P01", "40001", "55P03"].includes(code) ||
    (code === "23514" && /third level|cannot have a parent/.test(cause?.originalMessage ?? ""))
  );
}

/**
 * Stores the files the shop does not have, in the import's transaction, one after the other (they
 * share its one connection); answers each one's path by the sha256 its check gave. Each file is
 * read and re-encoded again rather than kept in memory since its check: the same file gives the
 * same bytes, so what was checked is what is stored, and a file changed meanwhile is an error.
 */
async function storeFiles(
  filesToStore: Plan["filesToStore"],
  files: ImageFiles | undefined,
  images: ImageStore,
  tx: Prisma.TransactionClient,
): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for (const [sha256, file] of filesToStore) {
    const bytes = await files?.read(file.name);
    const prepared = bytes ? await prepareImage(bytes) : null;
    if (!prepared?.ok || sha256Of(prepared.bytes) !== sha256)
      throw new Error(`${file.name} changed or disappeared during the import; nothing was written`);
    stored.set(sha256, (await images.put(prepared.bytes, prepared.contentType, tx)).path);
  }
  return stored;
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Reads, checks, re-encodes and hashes every file the lines name, once each; the bytes are not kept. */
async function readImageFiles(
  products: CsvProduct[],
  files: ImageFiles | undefined,
): Promise<{ images: Map<string, FileImage>; problems: CsvProblem[]; badLines: Set<number> }> {
  const images = new Map<string, FileImage>();
  const refused = new Map<string, ProblemCode>();
  const problems: CsvProblem[] = [];
  const badLines = new Set<number>();
  for (const product of products) {
    for (const { ref } of product.images ?? []) {
      if (ref.kind !== "file") continue;
      let code: ProblemCode | undefined = refused.get(ref.name);
      if (!code && !images.has(ref.name)) {
        if (!files) code = "image_file_not_allowed";
        else {
          const bytes = await files.read(ref.name);
          const prepared = bytes ? await prepareImage(bytes) : null;
          if (!prepared) code = "image_not_found";
          else if (!prepared.ok) code = prepared.code;
          else images.set(ref.name, { sha256: sha256Of(prepared.bytes), contentType: prepared.contentType });
        }
        if (code) refused.set(ref.name, code);
      }
      if (code) {
        problems.push(problem(product.line, "images", code, ref.name));
        badLines.add(product.line);
      }
    }
  }
  return { images, problems, badLines };
}

interface ExistingProduct {
  id: string;
  slug: string;
  name: string;
  description: string;
  priceAoa: number;
  stock: number;
  imagePath: string;
  archived: boolean;
}

/**
 * What the lines would change, against the database as `sql` sees it: with `lock`, the existing
 * products' rows are locked first (in id order, as every writer of several products does).
 */
async function plan(
  sql: Sql,
  products: CsvProduct[],
  fileImages: Map<string, FileImage>,
  { lock, optionColumns }: { lock: boolean; optionColumns: boolean },
): Promise<Plan> {
  const problems: CsvProblem[] = [];
  const summary = emptySummary();
  const slugs = products.flatMap((product) => (product.slug === null ? [] : [product.slug]));
  const existingRows = await sql.$queryRaw<ExistingProduct[]>(Prisma.sql`
SELECT id::text AS id, slug, name, description, price_aoa AS "priceAoa", stock, image_path AS "imagePath",
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
          // A file with a problem of its own (./readImageFiles) has been answered already.
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
    const write: ProductWrite = {
      slug: product.slug!,
      name: product.name,
      description: product.description,
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
    const changed =
      categoriesChange ||
      galleryChange ||
      variantsChange ||
      current.name !== product.name ||
      !sameText(current.description, product.description);
    if (!changed) {
      summary.unchanged += 1;
      continue;
    }
    keep();
    updates.push({
      ...write,
      id: current.id,
      // Unchanged but for its line breaks (a spreadsheet's \n for the form's \r\n): kept as it is.
      description: sameText(current.description, product.description) ? current.description : product.description,
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

interface ExistingVariant {
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
function planVariants(
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

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

type Unresolved = { code: ProblemCode; value: string };
type Resolution = string | Unresolved;

/**
 * Categories by name within their parent, ignoring case and accents; a name the tree does not
 * have becomes a new category (its slug from lib/catalog/categories.ts slugify: for a sub-category whose
 * slug is taken, `<parent-slug>-<slug>`; then `-2`, `-3`…). A name only a sub-category has is not
 * made a second, top-level category: that is a problem of the line (a third level, or a missing parent).
 */
function categoryResolver(rows: PlannedCategory[]) {
  const slugs = new Set(rows.map((row) => row.slug));
  const byId = new Map(rows.map((row) => [row.id, row]));
  /** parent id ("" for the top level) → name key → categories. */
  const named = new Map<string, Map<string, PlannedCategory[]>>();
  const add = (category: PlannedCategory) => {
    const siblings = named.get(category.parentId ?? "") ?? new Map<string, PlannedCategory[]>();
    named.set(category.parentId ?? "", siblings);
    const key = categoryKey(category.name);
    siblings.set(key, [...(siblings.get(key) ?? []), category]);
  };
  rows.forEach(add);
  const subsNamed = (key: string) => rows.filter((row) => row.parentId !== null && categoryKey(row.name) === key);
  const created: PlannedCategory[] = [];

  const freeSlug = (candidates: string[]): string => {
    for (const candidate of candidates) if (!slugs.has(candidate)) return candidate;
    const base = candidates.at(-1)!;
    for (let n = 2; ; n++) {
      const suffix = `-${n}`;
      const candidate = `${base.slice(0, CATEGORY_LIMITS.slugMax - suffix.length).replace(/-+$/, "")}${suffix}`;
      if (!slugs.has(candidate)) return candidate;
    }
  };
  const fit = (slug: string) => slug.slice(0, CATEGORY_LIMITS.slugMax).replace(/-+$/, "");

  /** The category called `name` under `parent` (null: top level), created if there is none. */
  const find = (name: string, parent: PlannedCategory | null): PlannedCategory | Unresolved => {
    const found = named.get(parent?.id ?? "")?.get(categoryKey(name)) ?? [];
    if (found.length > 1) return { code: "category_ambiguous", value: parent ? `${parent.name} > ${name}` : name };
    if (found[0]) return found[0];
    const slug = slugify(name);
    if (slug === "") return { code: "category_unusable_name", value: name };
    const category: PlannedCategory = {
      id: `${NEW}${created.length}`,
      parentId: parent?.id ?? null,
      slug: parent ? freeSlug([slug, fit(`${parent.slug}-${slug}`)]) : freeSlug([slug]),
      name,
    };
    slugs.add(category.slug);
    created.push(category);
    add(category);
    return category;
  };

  return {
    created,
    resolve({ parent, name }: CategoryPath): Resolution {
      const topName = parent ?? name;
      const topKey = categoryKey(topName);
      if (!named.get("")?.has(topKey)) {
        const subs = subsNamed(topKey);
        if (subs.length > 0) {
          const paths = subs.map((sub) => `${byId.get(sub.parentId!)?.name ?? "?"} > ${sub.name}`);
          return parent === null
            ? { code: "category_is_sub", value: paths.join(" | ") }
            : { code: "category_too_deep", value: `${paths[0]} > ${name}` };
        }
      }
      const top = find(topName, null);
      if (!("id" in top) || parent === null) return "id" in top ? top.id : top;
      const child = find(name, top);
      return "id" in child ? child.id : child;
    },
  };
}

/** The plan's writes, a few set-based statements per table; `stored` has the paths of the files stored for it. */
async function write(tx: Sql, plan: Plan, stored: Map<string, string>): Promise<void> {
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
INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
SELECT * FROM unnest(${rows.map((r) => r.slug)}::text[], ${rows.map((r) => r.name)}::text[],
                     ${rows.map((r) => r.description)}::text[], ${rows.map((r) => path(r.imagePath))}::text[],
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
SET name = v.name, description = v.description, image_path = v.image_path, updated_at = CURRENT_TIMESTAMP
FROM unnest(${rows.map((r) => r.id!)}::uuid[], ${rows.map((r) => r.name)}::text[],
            ${rows.map((r) => r.description)}::text[], ${rows.map((r) => path(r.imagePath))}::text[])
     AS v(id, name, description, image_path)
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
