import "server-only";
import { z } from "zod";
import { PRODUCT_LIMITS } from "./products-admin";
import { type CatalogProduct, withExpiredHolds } from "./products";
import { categoryIdsWithChildren, CATEGORY_LIMITS } from "./categories";
import { SLUG_PATTERN } from "../slug";
import { describeIssues } from "../text-input";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { hasNoNul, NO_NUL } from "../text-input";
import { VARIANT_LIMITS } from "./variants";

/**
 * Browsing the catalogue: search, a category, sort, filters and pages, the same for `/`,
 * `/categories/<slug>`, `/search` and `GET /api/search`. Every parameter lives in the URL.
 *
 * Search is PostgreSQL's: full text in the Portuguese configuration without accents (`cafe`
 * finds "Café", `torrada` finds "torrado"), each word also as a prefix, over the name, the
 * description and the names of the product's categories; and pg_trgm's word similarity over
 * the name, so a typo still finds it (`cafee`, `chocolat`). Both read columns a trigger keeps
 * (products.search_document, products.search_key, migration 20261128000000) through their
 * indexes (migrations 20261128000100 and 20261128000200): the query collects the ids each one
 * matches, then filters, ranks and pages only those.
 *
 * Products with options are listed once, at their lowest price (the card says "desde"). Option
 * filters (`opt=Tamanho:M&opt=Cor:Azul`) keep a product when one active variant has one of the
 * chosen values of every chosen option (values of one option OR, options AND); the price range and
 * "in stock only" are read on that same variant. The facets of a listing (browseFacets) are the
 * option values its products sell, with how many products sell each.
 *
 * Pages hold PAGE_SIZE products in a total order (the sort's key, then the id), so walking the
 * pages shows every product exactly once while nothing changes.
 */

export const SORTS = ["relevance", "newest", "price_asc", "price_desc", "name"] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 24;
/** The last page number a URL may ask for (9 999 pages of 24: far beyond any shop's catalogue). */
export const MAX_PAGE = 9999;
export const QUERY_MAX_LENGTH = 100;
/** Words of a query that count; the rest are ignored. */
const QUERY_MAX_WORDS = 8;
/** Option values a URL may filter by (`opt=` parameters). */
export const OPTION_FILTERS_MAX = 10;
/** Option values a listing's facets show at most (all options together). */
export const FACET_VALUES_MAX = 200;

/** Chosen values of one option: a product matches with any of them. */
export interface OptionFilter {
  name: string;
  values: string[];
}

export interface BrowseQuery {
  /** The search words, trimmed; absent when not searching. */
  q?: string;
  /** A category's slug: its products and its sub-categories', each once. */
  category?: string;
  sort: Sort;
  minPrice?: number;
  maxPrice?: number;
  inStock: boolean;
  /** Option filters, by option, in the order the URL names them; absent when none. */
  options?: OptionFilter[];
  page: number;
}

/** One option of a listing's facets: its values, each with how many of the listing's products sell it. */
export interface OptionFacet {
  name: string;
  values: { value: string; count: number }[];
}

export interface BrowseResult {
  items: CatalogProduct[];
  total: number;
  page: number;
  pageSize: number;
}

/** The order of a listing when the URL names none: relevance when searching, else by name. */
export const defaultSort = (q: string | undefined): Sort => (q ? "relevance" : "name");

const blankIsAbsent = (value: unknown) => (value === "" || value === null ? undefined : value);
const wholeNumber = (max: number, what: string) =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .trim()
      .regex(/^[0-9]{1,10}$/, { error: `must be a whole number of ${what}` })
      .transform(Number)
      .pipe(z.number().max(max, { error: `must be at most ${max}` }))
      .optional(),
  );

/** One `opt` parameter, `<option>:<value>` (split at the first colon; option names hold none). */
const optionFilterSchema = z
  .string()
  .max(VARIANT_LIMITS.nameMax + 1 + VARIANT_LIMITS.valueMax, { error: "is too long" })
  .refine(hasNoNul, NO_NUL)
  .transform((text, ctx) => {
    const colon = text.indexOf(":");
    const name = colon < 0 ? "" : text.slice(0, colon).trim();
    const value = colon < 0 ? "" : text.slice(colon + 1).trim();
    if (!name || !value || name.length > VARIANT_LIMITS.nameMax || value.length > VARIANT_LIMITS.valueMax) {
      ctx.addIssue({ code: "custom", message: "must be an option and one of its values, as Tamanho:M" });
      return z.NEVER;
    }
    return { name, value };
  });

const browseSchema = z
  .object({
    q: z.preprocess(
      blankIsAbsent,
      z
        .string()
        .trim()
        .max(QUERY_MAX_LENGTH, { error: `must have at most ${QUERY_MAX_LENGTH} characters` })
        .refine(hasNoNul, NO_NUL)
        .transform((q) => q || undefined)
        .optional(),
    ),
    category: z.preprocess(
      blankIsAbsent,
      z.string().max(CATEGORY_LIMITS.slugMax).regex(SLUG_PATTERN, { error: "must be a category's slug" }).optional(),
    ),
    sort: z.preprocess(blankIsAbsent, z.enum(SORTS, { error: `must be one of ${SORTS.join(", ")}` }).optional()),
    minPrice: wholeNumber(PRODUCT_LIMITS.priceMax, "kwanza"),
    maxPrice: wholeNumber(PRODUCT_LIMITS.priceMax, "kwanza"),
    inStock: z.preprocess(
      blankIsAbsent,
      z.enum(["1", "0", "true", "false", "on"], { error: "must be 1 or 0" }).optional(),
    ),
    page: z.preprocess(
      blankIsAbsent,
      z
        .string()
        .regex(/^[1-9][0-9]{0,3}$/, { error: `must be a page number from 1 to ${MAX_PAGE}` })
        .transform(Number)
        .optional(),
    ),
    opt: z
      .array(optionFilterSchema)
      .max(OPTION_FILTERS_MAX, { error: `may choose at most ${OPTION_FILTERS_MAX} option values` })
      .optional(),
  })
  .refine((input) => input.minPrice === undefined || input.maxPrice === undefined || input.minPrice <= input.maxPrice, {
    path: ["minPrice"],
    error: "must not be above maxPrice",
  });

export const BROWSE_PARAMS = ["q", "category", "sort", "minPrice", "maxPrice", "inStock", "page"] as const;
/** The parameter of the option filters, repeated: `opt=Tamanho:M&opt=Cor:Azul`. */
export const OPTION_PARAM = "opt";
type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;

function allValues(params: RawParams, key: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(key);
  const value = params[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function firstValues(params: RawParams): Record<string, string | string[] | undefined> {
  const values: Record<string, string | string[] | undefined> = Object.fromEntries(
    BROWSE_PARAMS.map((key) => [key, allValues(params, key)[0]]),
  );
  const options = allValues(params, OPTION_PARAM).filter((text) => text !== "");
  if (options.length > 0) values[OPTION_PARAM] = options;
  return values;
}

/** The chosen values grouped by option, each once, in the order the URL names them. */
function groupOptions(pairs: readonly { name: string; value: string }[]): OptionFilter[] {
  const groups = new Map<string, Set<string>>();
  for (const { name, value } of pairs) groups.set(name, (groups.get(name) ?? new Set()).add(value));
  return [...groups].map(([name, values]) => ({ name, values: [...values] }));
}

function toQuery(input: z.output<typeof browseSchema>): BrowseQuery {
  const sort = input.sort === "relevance" && !input.q ? defaultSort(undefined) : (input.sort ?? defaultSort(input.q));
  return {
    ...(input.q ? { q: input.q } : {}),
    ...(input.category ? { category: input.category } : {}),
    sort,
    ...(input.minPrice !== undefined ? { minPrice: input.minPrice } : {}),
    ...(input.maxPrice !== undefined ? { maxPrice: input.maxPrice } : {}),
    inStock: input.inStock === "1" || input.inStock === "true" || input.inStock === "on",
    ...(input.opt && input.opt.length > 0 ? { options: groupOptions(input.opt) } : {}),
    page: input.page ?? 1,
  };
}

/** The API's reading of a query string: every bad parameter is a 400 with its name. */
export function parseBrowseParams(
  params: RawParams,
): { ok: true; query: BrowseQuery } | { ok: false; message: string } {
  const parsed = browseSchema.safeParse(firstValues(params));
  return parsed.success
    ? { ok: true, query: toQuery(parsed.data) }
    : { ok: false, message: describeIssues(parsed.error, "query") };
}

/**
 * A page's reading of its URL: a shopper's hand-edited or outdated link still shows the listing,
 * without the parameters that make no sense (each bad one dropped on its own).
 */
export function readBrowseParams(params: RawParams): BrowseQuery {
  const values = firstValues(params);
  const parsed = browseSchema.safeParse(values);
  if (parsed.success) return toQuery(parsed.data);
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(values).filter(([key]) => !bad.has(key)));
  // The option filters one by one: the good ones stay, up to the bound.
  const options = values[OPTION_PARAM];
  if (bad.has(OPTION_PARAM) && Array.isArray(options)) {
    const good = options.filter((text) => optionFilterSchema.safeParse(text).success).slice(0, OPTION_FILTERS_MAX);
    if (good.length > 0) kept[OPTION_PARAM] = good;
  }
  return toQuery(browseSchema.parse(kept));
}

/** The URL's query string of a listing, without what is the default (so each view has one address). */
export function browseSearch(query: Partial<BrowseQuery>, overrides: Partial<BrowseQuery> = {}): string {
  const merged = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (merged.q) params.set("q", merged.q);
  if (merged.category) params.set("category", merged.category);
  if (merged.sort && merged.sort !== defaultSort(merged.q)) params.set("sort", merged.sort);
  if (merged.minPrice !== undefined) params.set("minPrice", String(merged.minPrice));
  if (merged.maxPrice !== undefined) params.set("maxPrice", String(merged.maxPrice));
  if (merged.inStock) params.set("inStock", "1");
  for (const option of merged.options ?? [])
    for (const value of option.values) params.append(OPTION_PARAM, `${option.name}:${value}`);
  if (merged.page && merged.page > 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Whether a listing shows more than the cached default view (a sort, a filter or a search). */
export const isFiltered = (query: BrowseQuery): boolean =>
  Boolean(query.q) ||
  query.sort !== defaultSort(query.q) ||
  query.minPrice !== undefined ||
  query.maxPrice !== undefined ||
  query.inStock ||
  (query.options?.length ?? 0) > 0;

/**
 * The words of a search as a tsquery text: each word as itself or a prefix, all required.
 * Only letters and digits reach to_tsquery, so its operators cannot be injected.
 */
export function tsqueryText(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}]+/gu)?.slice(0, QUERY_MAX_WORDS) ?? [];
  return words.length > 0 ? words.map((word) => `${word}:*`).join(" & ") : null;
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

const ORDER_BY: Record<Sort, Prisma.Sql> = {
  relevance: Prisma.sql`relevance DESC, p.id`,
  newest: Prisma.sql`p.created_at DESC, p.id`,
  price_asc: Prisma.sql`p.price_aoa ASC, p.id`,
  price_desc: Prisma.sql`p.price_aoa DESC, p.id`,
  // Without accents and case, as a Portuguese reader sorts ("Óleo" among the O's).
  name: Prisma.sql`p.search_key, p.id`,
};

/**
 * How the product's name stands to the search, without accents or case (products.search_key):
 * 2 when it is the search itself, 1 when it starts with it, else 0. Only the matched rows are
 * compared; `starts_with` takes the words as text, never as a LIKE pattern.
 */
function nameMatchRank(q: string): Prisma.Sql {
  const key = Prisma.sql`shop_search_key(${q.trim().replace(/\s+/g, " ")})`;
  return Prisma.sql`(CASE WHEN p.search_key = ${key} THEN 2 WHEN starts_with(p.search_key, ${key}) THEN 1 ELSE 0 END)`;
}

/**
 * The products a search matches, by id: through each index separately (an OR would scan the
 * table), on the columns a trigger keeps (products.search_document, products.search_key).
 */
function searchIds(q: string, tsquery: string | null): Prisma.Sql {
  const byTrigram = Prisma.sql`SELECT id FROM products WHERE search_key %> shop_search_key(${q})`;
  if (!tsquery) return byTrigram;
  const tsq = Prisma.sql`to_tsquery('portuguese', shop_unaccent(${tsquery}))`;
  return Prisma.sql`
    SELECT id FROM products WHERE search_document @@ ${tsq}
    UNION
    ${byTrigram}
    UNION
    SELECT pc.product_id FROM product_categories pc JOIN categories c ON c.id = pc.category_id
    WHERE to_tsvector('portuguese', shop_unaccent(c.name)) @@ ${tsq}`;
}

/**
 * What puts a product in a listing before its filters: on sale, in the category (or one of its
 * sub-categories) and matching the search words.
 */
function listingConditions(query: Pick<BrowseQuery, "q">, categoryIds?: readonly string[]): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [Prisma.sql`p.archived_at IS NULL`];
  if (categoryIds)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = p.id AND pc.category_id = ANY(${[...categoryIds]}::uuid[]))`,
    );
  if (query.q)
    // An array of the matching ids, read by primary key: `IN (subquery)` joined it against a scan of the table.
    conditions.push(Prisma.sql`p.id = ANY(ARRAY(${searchIds(query.q, tsqueryText(query.q))}))`);
  return conditions;
}

/**
 * The statements of one page of a listing, without running them: `page` (the page's rows, each
 * with the listing's total) and `count` (the total alone, for a page past the last). Pure, so the
 * bench sends the very same SQL through bare `pg` (bench/scenarios/search.ts). `categoryIds`: the
 * category's and its sub-categories' (lib/catalog/categories.ts categoryIdsWithChildren).
 */
export function browseStatements(
  query: BrowseQuery,
  categoryIds?: readonly string[],
): { page: Prisma.Sql; count: Prisma.Sql } {
  const conditions = listingConditions(query, categoryIds);
  const variantConditions: Prisma.Sql[] = [];
  if (query.minPrice !== undefined) variantConditions.push(Prisma.sql`v.price_aoa >= ${query.minPrice}`);
  if (query.maxPrice !== undefined) variantConditions.push(Prisma.sql`v.price_aoa <= ${query.maxPrice}`);
  for (const option of query.options ?? [])
    variantConditions.push(Prisma.sql`v.options ->> ${option.name}::text = ANY(${option.values}::text[])`);
  if (query.inStock)
    // What the shop sells now: the shelf, or units of pending orders whose hold ran out (lib/catalog/products.ts).
    variantConditions.push(Prisma.sql`(v.stock > 0 OR EXISTS (
      SELECT 1 FROM order_lines l JOIN orders o ON o.id = l.order_id
      WHERE l.variant_id = v.id AND o.status = 'PEN' AND o.hold_expires_at <= now()))`);
  if (variantConditions.length > 0)
    // One active variant must match the price range, every chosen option and the stock at once.
    conditions.push(Prisma.sql`EXISTS (
      SELECT 1 FROM product_variants v
      WHERE v.product_id = p.id AND v.archived_at IS NULL AND ${Prisma.join(variantConditions, " AND ")})`);

  let rank = Prisma.sql`0`;
  let nameMatch = Prisma.sql`0`;
  if (query.q) {
    const tsquery = tsqueryText(query.q);
    const textRank = tsquery
      ? Prisma.sql`ts_rank(p.search_document, to_tsquery('portuguese', shop_unaccent(${tsquery})))`
      : Prisma.sql`0`;
    rank = Prisma.sql`(${textRank} + 0.5 * word_similarity(shop_search_key(${query.q}), p.search_key))`;
    nameMatch = nameMatchRank(query.q);
  }

  const where = Prisma.join(conditions, " AND ");
  const sort = query.sort === "relevance" && !query.q ? "name" : query.sort;
  // The name itself before the text ranking, which rewards a word said often over a name that is just it.
  const orderBy = sort === "relevance" ? Prisma.sql`${nameMatch} DESC, ${ORDER_BY.relevance}` : ORDER_BY[sort];
  const offset = (query.page - 1) * PAGE_SIZE;
  return {
    page: Prisma.sql`
SELECT p.id, p.slug, p.name, p.description, p.price_aoa AS "priceAoa", p.stock, NULLIF(p.image_path, '') AS image,
       EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id) AS "hasOptions",
       COALESCE((SELECT min(v.price_aoa) <> max(v.price_aoa) FROM product_variants v
                 WHERE v.product_id = p.id AND v.archived_at IS NULL), false) AS "pricesVary",
       ${rank} AS relevance, (count(*) OVER ())::int AS total
FROM products p
WHERE ${where}
ORDER BY ${orderBy}
LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
    count: Prisma.sql`SELECT count(*)::int AS total FROM products p WHERE ${where}`,
  };
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

/**
 * The statement of a listing's facets, without running it: for the products of the category and
 * the search words (neither the price, the stock nor the options chosen, so the choices stay while
 * the shopper filters), each option value an active variant sells, with how many products sell it.
 * Options in the order the products list them (then by name), values in their display order (on
 * average over the products, which may each list their own).
 */
export function facetStatement(query: Pick<BrowseQuery, "q">, categoryIds?: readonly string[]): Prisma.Sql {
  const where = Prisma.join(listingConditions(query, categoryIds), " AND ");
  return Prisma.sql`
WITH listed AS (SELECT p.id FROM products p WHERE ${where}),
sold AS (
  SELECT o.name, x.value, o.position, x.ord, o.product_id
  FROM listed l
  JOIN product_options o ON o.product_id = l.id
  CROSS JOIN LATERAL unnest(o.values) WITH ORDINALITY AS x(value, ord)
  WHERE EXISTS (SELECT 1 FROM product_variants v
                WHERE v.product_id = o.product_id AND v.archived_at IS NULL AND v.options ->> o.name = x.value)
)
SELECT name, value, count(DISTINCT product_id)::int AS count
FROM sold
GROUP BY name, value
ORDER BY min(min(position)) OVER (PARTITION BY name), name, avg(ord), value
LIMIT ${FACET_VALUES_MAX}`;
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

/** A row of {@link facetStatement}: one value of one option, with how many listed products sell it. */
export interface FacetRow {
  name: string;
  value: string;
  count: number;
}

/** facetStatement's rows grouped by option, in their order. */
export function facetsByOption(rows: readonly FacetRow[]): OptionFacet[] {
  const facets = new Map<string, OptionFacet>();
  for (const { name, value, count } of rows) {
    // An option named with a colon cannot be written as `opt=<option>:<value>`.
    if (name.includes(":")) continue;
    const facet = facets.get(name) ?? { name, values: [] };
    facet.values.push({ value, count });
    facets.set(name, facet);
  }
  return [...facets.values()];
}

/** How many pages a listing of `total` products has (at least one, to show it is empty). */
export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));
