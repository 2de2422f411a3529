import { isDeepStrictEqual } from "node:util";
import type pg from "pg";
import { type BrowseQuery, defaultSort, PAGE_SIZE, type Sort } from "../../lib/catalog/browse-query";
import { browseStatements, type FacetRow, facetStatement, facetsByOption } from "../../lib/catalog/search-sql";
import { expiredHoldsByProduct } from "../lib/expired-holds";
import { sendJson } from "../lib/http";
import type { Answer, BaselineHandler, BenchRequest, PreparedRun, Scenario, Target } from "../lib/scenario";
import { BENCH_PRODUCT_COUNT, ensureBenchCatalog } from "./catalog-data";

/**
 * GET /api/search over the bench catalogue (10 000 products, catalog-data.ts): a rotating set
 * of what shoppers type, with and without accents, one or two words, typos, with a category, a
 * sort, a filter or a later page.
 *
 * The app: Next's router, the route handler, zod's reading of the query string,
 * lib/catalog/browse.ts browseProducts through Prisma (the category and its sub-categories, one
 * statement for the page with its total, the expired holds of its products) and Response.json.
 *
 * The baseline: the same statements through `pg`, in the same order, and the same JSON written
 * by hand. The page's statement is the app's own (lib/catalog/search-sql.ts browseStatements, which
 * only builds it), and so is the expired holds' (lib/catalog/products.ts expiredHoldUnitsSql); the
 * category's ids are copied from lib/catalog/categories.ts (categoryIdsWithChildren), so every run
 * (and `npm test`, BENCH_CHECK_ONLY) checks that each
 * query's answer from the app equals the baseline's (`verify` below).
 */

const SEARCH_PATH = "/api/search";

/** What the rotation asks, in turn; each finds tens to hundreds of the bench's products. */
export const SEARCHES: readonly Record<string, string>[] = [
  { q: "café" },
  { q: "cafe" },
  { q: "cafee" },
  { q: "chocolate amargo" },
  { q: "feijao" },
  { q: "óleo de palma" },
  { q: "sumo maracuja" },
  { q: "panela", sort: "price_asc" },
  { q: "capulana" },
  { q: "sabao" },
  { q: "chocolat" },
  { q: "camisa linho", category: "vestuario" },
  { q: "arroz", category: "arroz-feijao-e-farinhas", sort: "price_desc" },
  { q: "mel", sort: "newest" },
  { q: "vinho tinto", category: "bebidas", inStock: "1" },
  { q: "toalha", page: "2" },
  { q: "jindungo" },
  { q: "sandalias couro" },
  { q: "agua", maxPrice: "1000" },
  { q: "piripiri" },
];

export const SEARCH_PATHS = SEARCHES.map((params) => `${SEARCH_PATH}?${new URLSearchParams(params).toString()}`);

type Query = BrowseQuery;

/** The parameters the rotation sends, read without validation (the app's zod schema is its own cost). */
export function readQuery(params: URLSearchParams): Query {
  const q = params.get("q")?.trim() || undefined;
  const number = (name: string) => (params.get(name) ? Number(params.get(name)) : undefined);
  return {
    q,
    category: params.get("category") || undefined,
    sort: (params.get("sort") as Sort | null) ?? defaultSort(q),
    minPrice: number("minPrice"),
    maxPrice: number("maxPrice"),
    inStock: params.get("inStock") === "1",
    page: number("page") ?? 1,
  };
}

/**
 * The page statement of lib/catalog/search-sql.ts, the very SQL the app runs (browseStatements is
 * pure), as text with $n placeholders and its values for `pg`.
 */
export function pageStatement(query: Query, categoryIds: string[] | undefined): { text: string; values: unknown[] } {
  const { page } = browseStatements(query, categoryIds);
  return { text: page.text, values: page.values };
}

interface Row {
  id: string;
  slug: string;
  name: string;
  priceAoa: number;
  pricesVary: boolean;
  hasOptions: boolean;
  stock: number;
  image: string | null;
  total: number;
}

/**
 * A category and its sub-categories, as browseProducts reads them (category.findUnique by slug,
 * then lib/catalog/categories.ts categoryIdsWithChildren); null when no category has the slug.
 */
export async function readCategoryIds(database: pg.Pool, slug: string): Promise<string[] | null> {
  const { rows } = await database.query<{ id: string }>("SELECT id FROM categories WHERE slug = $1 LIMIT 1", [slug]);
  const category = rows[0];
  if (!category) return null;
  const children = await database.query<{ id: string }>("SELECT id FROM categories WHERE parent_id = $1", [
    category.id,
  ]);
  return [category.id, ...children.rows.map((child) => child.id)];
}

const search =
  (database: pg.Pool): BaselineHandler =>
  async (request, response) => {
    const query = readQuery(new URL(request.url ?? "/", "http://baseline").searchParams);
    let categoryIds: string[] | undefined;
    if (query.category) {
      const ids = await readCategoryIds(database, query.category);
      if (!ids)
        return sendJson(response, 404, { error: { code: "category_not_found", message: "no category has this slug" } });
      categoryIds = ids;
    }
    const page = pageStatement(query, categoryIds);
    // The app asks for the page and the listing's facets at once (app/api/search/route.ts).
    const facetSql = facetStatement(query, categoryIds);
    const [{ rows }, facetRows] = await Promise.all([
      database.query<Row>(page.text, page.values),
      database.query<FacetRow>(facetSql.text, facetSql.values),
    ]);
    let total = rows[0]?.total;
    if (total === undefined) {
      const { count } = browseStatements(query, categoryIds);
      const counted = await database.query<{ total: number }>(count.text, count.values);
      total = counted.rows[0]?.total ?? 0;
    }
    // lib/catalog/products.ts withExpiredHolds, its statement sent through pg.
    const held = await expiredHoldsByProduct(
      database,
      rows.map((row) => row.id),
    );
    sendJson(response, 200, {
      items: rows.map(({ id, slug, name, priceAoa, pricesVary, hasOptions, stock, image }) => ({
        id,
        slug,
        name,
        priceAoa,
        pricesVary,
        hasOptions,
        stock: stock + (held.get(id) ?? 0),
        image,
      })),
      total,
      page: query.page,
      pageSize: PAGE_SIZE,
      facets: facetsByOption(facetRows.rows),
    });
  };

interface SearchAnswer {
  items: { id: string }[];
  total: number;
}

/**
 * The first answer to each search in each run, by phase and target: the app's run of a phase
 * comes after the baseline's, and its check compares the two, query by query.
 */
const firstAnswers = new Map<string, Map<string, string>>();

function compareWithBaseline(phase: string): { summary: string; lines: string[]; problems: string[] } {
  const app = firstAnswers.get(`${phase}/app`) ?? new Map<string, string>();
  const baseline = firstAnswers.get(`${phase}/baseline`) ?? new Map<string, string>();
  const problems: string[] = [];
  const lines: string[] = [];
  let compared = 0;
  for (const [path, body] of app) {
    const other = baseline.get(path);
    if (other === undefined) continue;
    compared++;
    const mine = JSON.parse(body) as SearchAnswer;
    if (!isDeepStrictEqual(mine, JSON.parse(other)))
      problems.push(
        `${decodeURI(path)}: the app and the baseline answered differently (${firstDifference(mine, JSON.parse(other) as SearchAnswer)})`,
      );
    if (phase === "warm-up") lines.push(`${decodeURI(path)}: ${mine.total} found, ${mine.items.length} on the page`);
  }
  return {
    summary: `${compared - problems.length} of ${compared} searches answered as the baseline did`,
    lines,
    problems,
  };
}

/** Where two answers part, for the problem line: the total, or the first item that differs. */
function firstDifference(app: SearchAnswer, baseline: SearchAnswer): string {
  if (app.total !== baseline.total) return `total ${app.total} against ${baseline.total}`;
  const at = app.items.findIndex((item, index) => !isDeepStrictEqual(item, baseline.items[index]));
  if (at < 0) return `${app.items.length} items against ${baseline.items.length}`;
  return `item ${at + 1}: ${JSON.stringify(app.items[at])} against ${JSON.stringify(baseline.items[at])}`;
}

function searchRun(target: Target, phase: string): PreparedRun {
  let turn = 0;
  const answers = new Map<string, string>();
  firstAnswers.set(`${phase}/${target}`, answers);
  return {
    next: (): BenchRequest => ({ method: "GET", path: SEARCH_PATHS[turn++ % SEARCH_PATHS.length]! }),
    answered: (request, answer) => {
      if (answer.status === 200 && !answers.has(request.path)) answers.set(request.path, answer.body);
    },
    verify: target === "app" ? async () => compareWithBaseline(phase) : undefined,
  };
}

function checkSearch(target: string, answer: Answer | undefined): SearchAnswer {
  if (answer?.status !== 200 || !answer.contentType?.startsWith("application/json"))
    throw new Error(
      `${target} answered ${answer?.status} ${answer?.contentType ?? "(no content type)"}: ${answer?.body.slice(0, 200)}`,
    );
  return JSON.parse(answer.body) as SearchAnswer;
}

export const searchScenario: Scenario = {
  name: "search",
  summary: `GET ${SEARCH_PATH}?q=…: ${SEARCHES.length} searches in turn over the bench catalogue's ${BENCH_PRODUCT_COUNT} products, against the same statements through pg`,
  baseline: { method: "GET", path: SEARCH_PATH, handler: ({ database }) => search(database) },
  setup: ensureBenchCatalog,
  fixedRate: 100,
  prepare: async ({ target, phase }) => searchRun(target, phase),
  checkAnswers({ app, baseline }) {
    const found = checkSearch("app", app);
    if (found.items.length === 0) throw new Error(`the app found nothing for ${decodeURI(SEARCH_PATHS[0]!)}`);
    if (!isDeepStrictEqual(found, checkSearch("baseline", baseline)))
      throw new Error("the app and the baseline found different products; the comparison would be meaningless");
  },
};
