import { z } from "zod";
import type { Database } from "../db/client";
import { ON_SALE } from "./on-sale";
import { SLUG_PATTERN } from "../slug";
import { hasNoNul, NO_NUL, requiredText } from "../text-input";

/**
 * The catalog's categories: a tree of at most two levels (the database refuses a third), each
 * ordered by position then name; a top-level category lists its own products and its
 * sub-categories', each once. Reads for the storefront (the header, /categories/<slug>, GET
 * /api/categories, the sitemap) and the rules every writer shares (the back office and the CSV
 * import): the limits, the form's schema and how a name becomes a slug.
 */

export const CATEGORY_LIMITS = {
  nameMax: 80,
  slugMax: 120,
  descriptionMax: 2000,
  positionMax: 100_000,
} as const;

/** A category as the shop shows it. */
export interface Category {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
  description: string;
  position: number;
}

/** A top-level category with its sub-categories, both in order. */
export interface CategoryNode extends Category {
  children: Category[];
}

/** The columns of a {@link Category}, as Prisma selects them. */
export const categoryFields = {
  id: true,
  parentId: true,
  slug: true,
  name: true,
  description: true,
  position: true,
} as const;

/** The fields of a category, as the back office's form and JSON clients send them. */
export const categoryInputSchema = z.object({
  name: requiredText(CATEGORY_LIMITS.nameMax),
  slug: z
    .string({ error: "is required" })
    .trim()
    .max(CATEGORY_LIMITS.slugMax, { error: `must have at most ${CATEGORY_LIMITS.slugMax} characters` })
    .regex(SLUG_PATTERN, { error: "must be lower-case letters and digits joined by single hyphens" }),
  description: z
    .string()
    .trim()
    .max(CATEGORY_LIMITS.descriptionMax, { error: `must have at most ${CATEGORY_LIMITS.descriptionMax} characters` })
    .refine(hasNoNul, NO_NUL)
    .default(""),
  /** A top-level category's id; "" or absent for a top-level one. */
  parentId: z.preprocess((value) => (value === "" || value === null ? undefined : value), z.uuid().optional()),
  position: z.preprocess(
    (value) => (value === "" || value === undefined ? 0 : typeof value === "string" ? Number(value) : value),
    z.int({ error: "must be a whole number" }).min(0).max(CATEGORY_LIMITS.positionMax),
  ),
});
export type CategoryInput = z.output<typeof categoryInputSchema>;

/** "Café & Chá" → "cafe-cha": lower case, no accents, words joined by hyphens (empty when nothing is left). */
export function slugify(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, CATEGORY_LIMITS.slugMax)
    .replace(/-+$/, "");
}

const inOrder = [{ position: "asc" as const }, { name: "asc" as const }, { id: "asc" as const }];

/** Every category as a tree: top-level ones in order, each with its sub-categories in order. */
export async function categoryTree(db: Pick<Database, "category">): Promise<CategoryNode[]> {
  const rows = await db.category.findMany({ select: categoryFields, orderBy: inOrder });
  const children = new Map<string, Category[]>();
  for (const row of rows) {
    if (row.parentId) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  }
  return rows.filter((row) => row.parentId === null).map((row) => ({ ...row, children: children.get(row.id) ?? [] }));
}

/** A category page's category, its parent (for the breadcrumbs) and its sub-categories; null for an unknown slug. */
export async function findCategoryBySlug(
  db: Pick<Database, "category">,
  slug: string,
): Promise<{ category: Category; parent: Category | null; children: Category[] } | null> {
  if (!SLUG_PATTERN.test(slug) || slug.length > CATEGORY_LIMITS.slugMax) return null;
  const category = await db.category.findUnique({
    where: { slug },
    select: { ...categoryFields, parent: { select: categoryFields } },
  });
  if (!category) return null;
  const { parent, ...own } = category;
  const children = await db.category.findMany({
    where: { parentId: own.id },
    select: categoryFields,
    orderBy: inOrder,
  });
  return { category: own, parent, children };
}

/** The ids a category's listing covers: its own and its sub-categories'. */
export async function categoryIdsWithChildren(db: Pick<Database, "category">, id: string): Promise<string[]> {
  const children = await db.category.findMany({ where: { parentId: id }, select: { id: true } });
  return [id, ...children.map((child) => child.id)];
}

/** How many products on sale the listing of these categories shows (a category's own and its sub-categories'), each once. */
export async function countProductsOnSaleIn(
  db: Pick<Database, "product">,
  categoryIds: readonly string[],
): Promise<number> {
  return db.product.count({ where: { ...ON_SALE, categories: { some: { categoryId: { in: [...categoryIds] } } } } });
}
