import { CATEGORY_LIMITS, slugify } from "../categories";
import type { ProblemCode } from "./format";
import type { CategoryPath } from "./parse-cells";

/**
 * The catalog CSV's categories against the tree: found by name within their parent (case,
 * accents and spaces aside), or planned as new categories with a free slug.
 */

/** The prefix of what the import makes: a new category's id until it is written, a file's path until it is stored. */
export const NEW = "new:";

/** A category as the tree has it, or one this import creates (`id` "new:<n>" until written). */
export interface PlannedCategory {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
}

/** Case, accents and repeated spaces aside: "Café  Moído" and "cafe moido" are one name. */
const categoryKey = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

export type Unresolved = { code: ProblemCode; value: string };
export type Resolution = string | Unresolved;

/**
 * Categories by name within their parent, ignoring case and accents; a name the tree does not
 * have becomes a new category (its slug from lib/catalog/categories.ts slugify: for a sub-category whose
 * slug is taken, `<parent-slug>-<slug>`; then `-2`, `-3`…). A name only a sub-category has is not
 * made a second, top-level category: that is a problem of the line (a third level, or a missing parent).
 */
export function categoryResolver(rows: PlannedCategory[]) {
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
