import { ShopLink } from "@/components/ui/shop-link";
import { type BrowseQuery, OPTION_PARAM, type OptionFacet, SORTS } from "@/lib/catalog/browse-query";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * Sort and filters of a listing: a GET form to /search (rendered per request), carrying the
 * search words and the category along, so every choice is in the URL (shareable, the back button
 * works) and needs no JavaScript. The cached pages (`/`, a category) show their default view.
 * `facets`: the listing's option values (lib/catalog/browse.ts browseFacets), one group of
 * checkboxes per option (`opt=Tamanho:M`).
 */
export function BrowseForm({
  t,
  query,
  clearHref,
  facets = [],
}: {
  t: Dictionary;
  query: BrowseQuery;
  /** The option values of the listing's products, with counts. */
  facets?: readonly OptionFacet[];
  /** The same listing without sort or filters. */
  clearHref: string;
}) {
  const sorts = SORTS.filter((sort) => sort !== "relevance" || query.q);
  const field = "rounded-md border border-stone-300 bg-white px-3 py-2 text-base";
  const chosen = (name: string, value: string) =>
    query.options?.some((option) => option.name === name && option.values.includes(value)) ?? false;
  return (
    <form
      action="/search"
      method="get"
      aria-label={t.browse.refine}
      className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4"
    >
      {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
      {query.category ? <input type="hidden" name="category" value={query.category} /> : null}
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t.browse.sort}
        <select name="sort" defaultValue={query.sort} className={field}>
          {sorts.map((sort) => (
            <option key={sort} value={sort}>
              {t.browse.sorts[sort]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t.browse.minPrice}
        <input
          name="minPrice"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          defaultValue={query.minPrice}
          className={`${field} w-36`}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t.browse.maxPrice}
        <input
          name="maxPrice"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          defaultValue={query.maxPrice}
          className={`${field} w-36`}
        />
      </label>
      <label className="flex items-center gap-2 py-2 text-sm font-medium">
        <input
          name="inStock"
          type="checkbox"
          value="1"
          defaultChecked={query.inStock}
          className="size-5 accent-brand-700"
        />
        {t.browse.inStockOnly}
      </label>
      {facets.length > 0 ? (
        <div className="flex w-full flex-wrap gap-4" data-testid="option-filters">
          {facets.map((facet) => (
            <fieldset key={facet.name} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <legend className="mb-1 text-sm font-medium">{facet.name}</legend>
              {facet.values.map(({ value, count }) => (
                <label key={value} className="flex items-center gap-2 py-1 text-sm">
                  <input
                    name={OPTION_PARAM}
                    type="checkbox"
                    value={`${facet.name}:${value}`}
                    defaultChecked={chosen(facet.name, value)}
                    className="size-5 accent-brand-700"
                  />
                  {t.browse.optionValue(value, count)}
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      ) : null}
      <button type="submit" className="rounded-md bg-stone-900 px-4 py-2 font-medium text-white hover:bg-stone-700">
        {t.browse.apply}
      </button>
      <ShopLink href={clearHref} className="py-2 text-sm text-brand-700 hover:underline">
        {t.browse.clearFilters}
      </ShopLink>
    </form>
  );
}
