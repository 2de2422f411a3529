import { Prisma } from "../generated/prisma/client";
import { type BrowseQuery, type OptionFacet, PAGE_SIZE, type Sort } from "./browse-query";

/**
 * The SQL of a listing, built without running it: one page of products with the total, and the
 * listing's facets, so that the bench sends the very same statements through bare `pg`. Search is
 * PostgreSQL's full text (Portuguese, without accents) and pg_trgm's word similarity; the query
 * collects the ids each one matches, then filters, ranks and pages only those.
 */

/** Words of a query that count; the rest are ignored. */
const QUERY_MAX_WORDS = 8;
/** Option values a listing's facets show at most (all options together). */
export const FACET_VALUES_MAX = 200;

/**
 * The words of a search as a tsquery text: each word as itself or a prefix, all required.
 * Only letters and digits reach to_tsquery, so its operators cannot be injected.
 */
export function tsqueryText(q: string): string | null {
  const words = q.match(/[\p{L}\p{N}]+/gu)?.slice(0, QUERY_MAX_WORDS) ?? [];
  return words.length > 0 ? words.map((word) => `${word}:*`).join(" & ") : null;
}

const ORDER_BY: Record<Exclude<Sort, "relevance">, Prisma.Sql> = {
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
 * The products a search matches, by id: full text in the Portuguese configuration without accents
 * (`cafe` finds "Café", `torrada` finds "torrado"), each word also as a prefix, over the name, the
 * description and the names of the product's categories; and pg_trgm's word similarity over the
 * name, so a typo still finds it (`cafee`, `chocolat`). On the columns a trigger keeps
 * (products.search_document, products.search_key): their two GIN indexes OR'd in one bitmap, whose
 * recheck tests the text first, so the word similarity (~8 µs a row) is computed only for the
 * rows the text does not match; the categories apart (an OR with them would scan the table).
 */
function searchIds(q: string, tsquery: string | null, withOptionsOnly: boolean): Prisma.Sql {
  // Facets read only products with options: asked in each branch, the planner can start from the
  // few such products and test only those, instead of every match.
  const optioned = (id: Prisma.Sql) =>
    withOptionsOnly ? Prisma.sql` AND ${id} IN (SELECT product_id FROM product_options)` : Prisma.empty;
  // The key as a sub-select, not a constant: given a constant, the planner estimates `%>` by running
  // word_similarity on the column's ~200 statistics samples, about 1 ms of every search's planning;
  // a value it cannot see takes pg_trgm's default estimate, and the plan is the same.
  const byTrigram = Prisma.sql`search_key %> (SELECT shop_search_key(${q}))`;
  if (!tsquery) return Prisma.sql`SELECT id FROM products WHERE ${byTrigram}${optioned(Prisma.sql`id`)}`;
  const tsq = Prisma.sql`to_tsquery('portuguese', shop_unaccent(${tsquery}))`;
  return Prisma.sql`
    SELECT id FROM products WHERE (search_document @@ ${tsq} OR ${byTrigram})${optioned(Prisma.sql`id`)}
    UNION
    SELECT pc.product_id FROM product_categories pc JOIN categories c ON c.id = pc.category_id
    WHERE to_tsvector('portuguese', shop_unaccent(c.name)) @@ ${tsq}${optioned(Prisma.sql`pc.product_id`)}`;
}

/**
 * What puts a product in a listing before its filters: on sale, in the category (or one of its
 * sub-categories) and matching the search words.
 */
function listingConditions(
  query: Pick<BrowseQuery, "q">,
  categoryIds?: readonly string[],
  withOptionsOnly = false,
): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [Prisma.sql`p.archived_at IS NULL`];
  if (categoryIds)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = p.id AND pc.category_id = ANY(${[...categoryIds]}::uuid[]))`,
    );
  if (query.q)
    // An array of the matching ids, read by primary key: `IN (subquery)` joined it against a scan of the table.
    conditions.push(Prisma.sql`p.id = ANY(ARRAY(${searchIds(query.q, tsqueryText(query.q), withOptionsOnly)}))`);
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

  const where = Prisma.join(conditions, " AND ");
  const offset = (query.page - 1) * PAGE_SIZE;
  const count = Prisma.sql`SELECT count(*)::int AS total FROM products p WHERE ${where}`;
  const sort = query.sort === "relevance" && !query.q ? "name" : query.sort;
  if (sort === "relevance") return { page: relevancePage(query.q ?? "", where, offset), count };
  // No relevance in the other sorts: the planner would compute it for every match, below the sort.
  return {
    page: Prisma.sql`
SELECT ${PRODUCT_COLUMNS}, (count(*) OVER ())::int AS total
FROM products p
WHERE ${where}
ORDER BY ${ORDER_BY[sort]}
LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
    count,
  };
}

/** What a page says of each product, read from `p` (products). */
const PRODUCT_COLUMNS = Prisma.sql`p.id, p.slug, p.name, p.description, p.price_aoa AS "priceAoa", p.stock,
       NULLIF(p.image_path, '') AS image,
       EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id) AS "hasOptions",
       COALESCE((SELECT min(v.price_aoa) <> max(v.price_aoa) FROM product_variants v
                 WHERE v.product_id = p.id AND v.archived_at IS NULL), false) AS "pricesVary"`;

/** ts_rank of the product's document against the search words (0 for a search without any). */
function textRank(q: string): Prisma.Sql {
  const tsquery = tsqueryText(q);
  return tsquery
    ? Prisma.sql`ts_rank(p.search_document, to_tsquery('portuguese', shop_unaccent(${tsquery})))`
    : Prisma.sql`0`;
}

/**
 * A page of a search by relevance: the name itself first, then names that start with it (the text
 * ranking alone rewards a word said often over a name that is just it), then by relevance, then id.
 * Relevance adds pg_trgm's word similarity (~8 µs a product, 40 times ts_rank) to the text rank, so
 * it is computed for the few matches that may reach the page, not for every match (900 for `café`):
 * `bounded` gives each match the most its relevance could be (similarity 1, the same arithmetic),
 * the first `offset + PAGE_SIZE` matches by that bound are ranked, and the last of them in the
 * true order (`last`) sorts at or after the page's last; a match whose bound is below it (or equal,
 * with a greater id) sorts after it, so only the others are ranked. Same pages as ranking all.
 */
function relevancePage(q: string, where: Prisma.Sql, offset: number): Prisma.Sql {
  const reach = offset + PAGE_SIZE;
  // Relevance: the text rank plus half the word similarity of the search to the name's key.
  const rank = Prisma.sql`(m.text_rank + 0.5 * word_similarity(shop_search_key(${q}), m.search_key))`;
  return Prisma.sql`
WITH bounded AS (
  -- The text rank computed once, below the bound made of it.
  SELECT t.*, t.text_rank + 0.5 * (1)::real AS bound
  FROM (
    SELECT p.id, p.search_key, ${nameMatchRank(q)} AS name_match, ${textRank(q)} AS text_rank, count(*) OVER () AS total
    FROM products p
    WHERE ${where}
  ) t
),
first AS (
  -- Ranked outside the LIMIT's sub-select: the planner would compute it below the sort, for every match.
  SELECT m.id, m.name_match, ${rank} AS relevance
  FROM (SELECT * FROM bounded ORDER BY name_match DESC, bound DESC, id LIMIT ${reach}) m
),
last AS (SELECT * FROM first ORDER BY name_match DESC, relevance DESC, id OFFSET ${reach - 1} LIMIT 1),
page AS (
  SELECT m.id, m.name_match, ${rank} AS relevance, m.total FROM bounded m
  WHERE NOT EXISTS (SELECT FROM last)
     OR EXISTS (SELECT FROM last l WHERE m.name_match > l.name_match OR (m.name_match = l.name_match
          AND (m.bound > l.relevance OR (m.bound = l.relevance AND m.id <= l.id))))
  ORDER BY m.name_match DESC, relevance DESC, m.id
  LIMIT ${PAGE_SIZE} OFFSET ${offset}
)
SELECT ${PRODUCT_COLUMNS}, m.total::int AS total
FROM page m JOIN products p ON p.id = m.id
ORDER BY m.name_match DESC, m.relevance DESC, m.id`;
}

/**
 * The statement of a listing's facets, without running it: for the products of the category and
 * the search words (neither the price, the stock nor the options chosen, so the choices stay while
 * the shopper filters), each option value an active variant sells, with how many products sell it.
 * Options in the order the products list them (then by name), values in their display order (on
 * average over the products, which may each list their own).
 */
export function facetStatement(query: Pick<BrowseQuery, "q">, categoryIds?: readonly string[]): Prisma.Sql {
  // Only products with options have facets.
  const where = Prisma.join(listingConditions(query, categoryIds, true), " AND ");
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
