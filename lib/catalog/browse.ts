import "server-only";
import { type CatalogProduct, withExpiredHolds } from "./products";
import { categoryIdsWithChildren } from "./categories";
import type { Database } from "../db/client";
import { type BrowseQuery, type OptionFacet, PAGE_SIZE } from "./browse-query";
import { browseStatements, type FacetRow, facetStatement, facetsByOption } from "./search-sql";

/**
 * Browsing the catalog: one page of a listing (./browse-query.ts reads its URL, ./search-sql.ts
 * builds its SQL) and its facets, the option values its products sell with how many sell each.
 * Products with options are listed once, at their lowest price (the card says "desde"). Pages
 * hold PAGE_SIZE products in a total order (the sort's key, then the id), so walking the pages
 * shows every product exactly once while nothing changes.
 */

export interface BrowseResult {
  items: CatalogProduct[];
  total: number;
  page: number;
  pageSize: number;
}

interface Row {
  id: string;
  slug: string;
  name: string;
  description: string;
  priceAoa: number;
  pricesVary: boolean;
  hasOptions: boolean;
  stock: number;
  image: string;
  total: number;
}

/**
 * One page of the catalogue as `query` describes it; null when its category does not exist.
 * `categoryIds`: the category's and its sub-categories' ids when the caller has read them already
 * (a category's page has, for its title); otherwise they are read from `query.category`.
 */
export async function browseProducts(
  db: Pick<Database, "$queryRaw" | "category">,
  query: BrowseQuery,
  categoryIds?: readonly string[],
): Promise<BrowseResult | null> {
  const ids = await listingCategoryIds(db, query, categoryIds);
  if (ids === null) return null;
  const statements = browseStatements(query, ids);
  const rows = await db.$queryRaw<Row[]>(statements.page);
  // Past the last page no row carries the total, so count it.
  const total = rows[0]?.total ?? (await db.$queryRaw<{ total: number }[]>(statements.count))[0]?.total ?? 0;
  const items = await withExpiredHolds(
    rows.map(({ id, slug, name, description, priceAoa, pricesVary, hasOptions, stock, image }) => ({
      id,
      slug,
      name,
      description,
      priceAoa,
      pricesVary,
      hasOptions,
      stock,
      image,
    })),
  );
  return { items, total, page: query.page, pageSize: PAGE_SIZE };
}

/** Reads a category's ids (its own and its sub-categories'): null when it does not exist. */
async function listingCategoryIds(
  db: Pick<Database, "category">,
  query: Pick<BrowseQuery, "category">,
  categoryIds: readonly string[] | undefined,
): Promise<readonly string[] | undefined | null> {
  if (!query.category || categoryIds) return categoryIds;
  const category = await db.category.findUnique({ where: { slug: query.category }, select: { id: true } });
  return category ? categoryIdsWithChildren(db, category.id) : null;
}

/** A listing's facets (facetStatement) by option; null when its category does not exist. */
export async function browseFacets(
  db: Pick<Database, "$queryRaw" | "category">,
  query: Pick<BrowseQuery, "q" | "category">,
  categoryIds?: readonly string[],
): Promise<OptionFacet[] | null> {
  const ids = await listingCategoryIds(db, query, categoryIds);
  if (ids === null) return null;
  return facetsByOption(await db.$queryRaw<FacetRow[]>(facetStatement(query, ids)));
}
