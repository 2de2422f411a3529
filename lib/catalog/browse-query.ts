import { z } from "zod";
import { SLUG_PATTERN } from "../slug";
import { describeIssues, hasNoNul, NO_NUL } from "../text-input";
import { CATEGORY_LIMITS } from "./categories";
import { PRODUCT_LIMITS } from "./product-rules";
import { VARIANT_LIMITS } from "./variants";

/**
 * A listing's query as its URL says it: search words, a category, sort, price range, stock,
 * option filters and page, the same for `/`, `/categories/<slug>`, `/search` and `GET /api/search`.
 * Every parameter lives in the URL; this module reads it (strictly for the API, forgivingly for a
 * page) and writes it back, one address per view.
 */

export const SORTS = ["relevance", "newest", "price_asc", "price_desc", "name"] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 24;
/** The last page number a URL may ask for (9 999 pages of 24: far beyond any shop's catalogue). */
export const MAX_PAGE = 9999;
export const QUERY_MAX_LENGTH = 100;
/** Option values a URL may filter by (`opt=` parameters). */
export const OPTION_FILTERS_MAX = 10;
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

/** How many pages a listing of `total` products has (at least one, to show it is empty). */
export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));
