import "server-only";
import type { z } from "zod";
import {
  categoryFields,
  categoryInputSchema,
  categoryTree,
  slugify,
  type Category,
  type CategoryNode,
} from "./categories";
import type { Database } from "../db/client";
import { isKnownError, isUniqueViolation } from "../db/known-error";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { Prisma } from "../generated/prisma/client";
import { invalidInput } from "../text-input";
import { isUuid } from "../uuid";
import { categorySubject, recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields } from "../admin/event-changes";

/**
 * The back office's categories (/admin/categories), without the web: create, edit and delete a
 * category of the two-level tree that lib/catalog/categories.ts reads for the shop, the tree and
 * a category as its pages show them, and the lock the product form takes on a product's categories.
 * Each change is recorded (lib/admin/staff-events.ts) in its own transaction.
 */

export const CATEGORY_DONE = ["created", "saved", "deleted"] as const;
export type CategoryDone = (typeof CATEGORY_DONE)[number];
export const CATEGORY_ERRORS = ["invalid_input", "slug_taken", "too_deep", "has_children", "has_promo_codes"] as const;
export type CategoryError = (typeof CATEGORY_ERRORS)[number];
/** The form fields an error may name (?field=). */
export const CATEGORY_FIELDS = ["name", "slug", "description", "parentId", "position"] as const;
export type CategoryField = (typeof CATEGORY_FIELDS)[number];

export type CategoryRefusal = Refusal<CategoryError | "not_found", CategoryField> & { status: 400 | 404 | 409 };
export type CategoryResult = { ok: true; done: CategoryDone; category: Category } | CategoryRefusal;

const notFound: CategoryRefusal = { ok: false, status: 404, code: "not_found", message: "no such category" };
const slugTaken: CategoryRefusal = {
  ok: false,
  status: 409,
  code: "slug_taken",
  message: "another category already has this slug",
  field: "slug",
};
const tooDeep = (message: string): CategoryRefusal => ({
  ok: false,
  status: 409,
  code: "too_deep",
  message,
  field: "parentId",
});
const noSuchParent: CategoryRefusal = {
  ok: false,
  status: 400,
  code: "invalid_input",
  message: "parentId is not a category",
  field: "parentId",
};
const hasChildren: CategoryRefusal = {
  ok: false,
  status: 409,
  code: "has_children",
  message: "this category has sub-categories: move or delete them first",
};

const hasPromoCodes = (codes: readonly string[]): CategoryRefusal => ({
  ok: false,
  status: 409,
  code: "has_promo_codes",
  message: `promo codes are limited to this category (${codes.join(", ")}): change their categories first, since deleting it would make them apply to every product`,
});

/**
 * The form's input with an empty or absent slug made from the name (slugify, "Café & Chá" →
 * "cafe-cha"); anything else is left to the schema. A slug another category has is refused (409
 * slug_taken), never changed silently.
 */
function withSlug(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const fields = input as Record<string, unknown>;
  const slug = fields.slug;
  const blank = slug === undefined || slug === null || (typeof slug === "string" && slug.trim() === "");
  if (!blank || typeof fields.name !== "string") return fields;
  return { ...fields, slug: slugify(fields.name) };
}

function parse(input: unknown): { ok: true; data: z.output<typeof categoryInputSchema> } | CategoryRefusal {
  const parsed = categoryInputSchema.safeParse(withSlug(input));
  return parsed.success ? { ok: true, data: parsed.data } : invalidInput(parsed.error, CATEGORY_FIELDS);
}

/**
 * Where a category may go: under a top-level category that exists, or at the top (409 too_deep,
 * said up front). Two admins moving categories at the same moment could still build a third
 * level between this check and the write: the database's trigger refuses it then (isThirdLevel).
 */
async function checkParent(db: Database, parentId: string | undefined): Promise<CategoryRefusal | undefined> {
  if (!parentId) return undefined;
  const parent = await db.category.findUnique({ where: { id: parentId }, select: { parentId: true } });
  if (!parent) return noSuchParent;
  if (parent.parentId !== null) return tooDeep("the parent is a sub-category; categories have two levels at most");
  return undefined;
}

/** The database's own refusal of a third level (the trigger categories_two_levels, SQLSTATE 23514). */
function isThirdLevel(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string; originalMessage?: string } })
    ?.cause;
  return cause?.originalCode === "23514" && /third level|has sub-categories/.test(cause.originalMessage ?? "");
}

/** What a write's error means to the admin, or undefined when it is a fault (rethrown). */
function refusalOf(error: unknown): CategoryRefusal | undefined {
  if (isUniqueViolation(error)) return slugTaken;
  if (isThirdLevel(error))
    return tooDeep("another change made this a third level meanwhile; categories have two levels at most");
  // The parent was deleted between the check and the write.
  if (isKnownError(error, "P2003")) return noSuchParent;
  if (isKnownError(error, "P2025")) return notFound;
  return undefined;
}

export interface CategoryDeps {
  db: Database;
}

export async function createCategory(input: unknown, actor: Actor, { db }: CategoryDeps): Promise<CategoryResult> {
  const parsed = parse(input);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  if (await db.category.findUnique({ where: { slug: data.slug }, select: { id: true } })) return slugTaken;
  const refusal = await checkParent(db, data.parentId);
  if (refusal) return refusal;
  try {
    const category = await db.$transaction(async (tx) => {
      const created = await tx.category.create({
        data: { ...data, parentId: data.parentId ?? null },
        select: categoryFields,
      });
      const { id, ...details } = created;
      await recordStaffEvent(tx, actor, { kind: "category.create", subject: categorySubject(id), details });
      return created;
    });
    return { ok: true, done: "created", category };
  } catch (error) {
    const known = refusalOf(error);
    if (known) return known;
    throw error;
  }
}

export async function updateCategory(
  id: string,
  input: unknown,
  actor: Actor,
  { db }: CategoryDeps,
): Promise<CategoryResult> {
  if (!isUuid(id)) return notFound;
  const parsed = parse(input);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  const current = await db.category.findUnique({ where: { id }, select: { _count: { select: { children: true } } } });
  if (!current) return notFound;
  const clash = await db.category.findFirst({ where: { slug: data.slug, id: { not: id } }, select: { id: true } });
  if (clash) return slugTaken;
  if (data.parentId === id)
    return {
      ok: false,
      status: 400,
      code: "invalid_input",
      message: "a category cannot be its own parent",
      field: "parentId",
    };
  if (data.parentId && current._count.children > 0)
    return tooDeep("this category has sub-categories, so it stays top-level; move them first");
  const refusal = await checkParent(db, data.parentId);
  if (refusal) return refusal;
  try {
    const category = await db.$transaction(async (tx) => {
      // Locked, so that the change recorded is from the row as this update found it.
      const [before] = await tx.$queryRaw<Category[]>(Prisma.sql`
SELECT id::text, parent_id::text AS "parentId", slug, name, description, position
FROM categories WHERE id = ${id}::uuid FOR UPDATE`);
      if (!before) throw new Rollback(notFound);
      const saved = await tx.category.update({
        where: { id },
        data: { ...data, parentId: data.parentId ?? null },
        select: categoryFields,
      });
      const details = changedFields(before, saved);
      if (Object.keys(details).length > 0)
        await recordStaffEvent(tx, actor, { kind: "category.update", subject: categorySubject(id), details });
      return saved;
    });
    return { ok: true, done: "saved", category };
  } catch (error) {
    const known = rolledBack<CategoryRefusal>(error) ?? refusalOf(error);
    if (known) return known;
    throw error;
  }
}

/** The promo codes limited to category `id`, by code: the ones deleting it would widen. */
async function promoCodesNaming(db: Pick<Database, "promoCode">, id: string): Promise<{ id: string; code: string }[]> {
  return db.promoCode.findMany({
    where: { categories: { some: { categoryId: id } } },
    select: { id: true, code: true },
    orderBy: { code: "asc" },
  });
}

/**
 * Deletes a category that has no sub-categories (409 has_children) and that no promo code names
 * (409 has_promo_codes, naming the codes): the code would be left without categories, which means
 * every product (lib/promotions/promo-codes.ts), so "20 % off Livros" would become 20 % off the
 * whole shop. The category's row is locked first, so no sub-category or code can come to point at
 * it between the checks and the delete; the foreign keys refuse it too. Its products leave it
 * (their other categories stay).
 */
export async function deleteCategory(id: string, actor: Actor, { db }: CategoryDeps): Promise<CategoryResult> {
  if (!isUuid(id)) return notFound;
  try {
    const category = await db.$transaction(async (tx) => {
      // FOR UPDATE waits for, then holds off, whoever is about to point at the row (a new
      // sub-category, a promo code being saved: both take it FOR KEY SHARE), so the checks below
      // hold until the delete.
      const [locked] = await tx.$queryRaw<{ id: string }[]>(
        Prisma.sql`SELECT id FROM categories WHERE id = ${id}::uuid FOR UPDATE`,
      );
      if (!locked) throw new Rollback(notFound);
      const current = await tx.category.findUniqueOrThrow({
        where: { id },
        select: { ...categoryFields, _count: { select: { children: true } } },
      });
      const { _count, ...category } = current;
      if (_count.children > 0) throw new Rollback(hasChildren);
      const codes = await promoCodesNaming(tx, id);
      if (codes.length > 0) throw new Rollback(hasPromoCodes(codes.map((code) => code.code)));
      await tx.category.delete({ where: { id } });
      await recordStaffEvent(tx, actor, {
        kind: "category.delete",
        subject: categorySubject(id),
        details: { name: category.name, slug: category.slug, parentId: category.parentId },
      });
      return category;
    });
    return { ok: true, done: "deleted", category };
  } catch (error) {
    const refused = rolledBack<CategoryRefusal>(error);
    if (refused) return refused;
    throw error;
  }
}

export interface AdminCategoryNode extends CategoryNode {
  /** Products in this category itself (not its sub-categories'), archived ones included. */
  products: number;
  children: (Category & { products: number })[];
}

/** The tree of /admin/categories, with how many products each category has. */
export async function adminCategoryTree(db: Database): Promise<AdminCategoryNode[]> {
  const [tree, counts] = await Promise.all([
    categoryTree(db),
    db.productCategory.groupBy({ by: ["categoryId"], _count: { _all: true } }),
  ]);
  const productsOf = new Map(counts.map((row) => [row.categoryId, row._count._all]));
  const count = (id: string) => productsOf.get(id) ?? 0;
  return tree.map((node) => ({
    ...node,
    products: count(node.id),
    children: node.children.map((child) => ({ ...child, products: count(child.id) })),
  }));
}

export interface AdminCategoryDetail {
  category: Category;
  children: Category[];
  products: number;
  /** The categories it may be moved under: top-level ones but itself (none when it has sub-categories). */
  parents: Category[];
  /** The promo codes limited to it, which keep it from being deleted. */
  promoCodes: { id: string; code: string }[];
}

export async function adminCategoryDetail(db: Database, id: string): Promise<AdminCategoryDetail | null> {
  if (!isUuid(id)) return null;
  const category = await db.category.findUnique({ where: { id }, select: categoryFields });
  if (!category) return null;
  const [tree, products, promoCodes] = await Promise.all([
    categoryTree(db),
    db.productCategory.count({ where: { categoryId: id } }),
    promoCodesNaming(db, id),
  ]);
  const children = tree.find((node) => node.id === id)?.children ?? [];
  const parents =
    children.length > 0 ? [] : tree.filter((node) => node.id !== id).map(({ children: _children, ...node }) => node);
  return { category, children, products, parents, promoCodes };
}

/** The back office's list of categories, with the form for a new one. */
export const CATEGORIES_PAGE = "/admin/categories";
/** A category's page in the back office. */
export const categoryPagePath = (id: string) => `${CATEGORIES_PAGE}/${encodeURIComponent(id)}`;

/**
 * Whether every one of `ids` (distinct UUIDs) is a category, in the caller's transaction: their
 * rows stay locked (FOR KEY SHARE) until it ends, so none can be deleted between this check and
 * the rows that point at them (a product's categories, a promo code's).
 */
export async function lockCategories(tx: Prisma.TransactionClient, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const found = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM categories WHERE id = ANY(${[...ids]}::uuid[]) FOR KEY SHARE`,
  );
  return found.length === ids.length;
}
