import { ShopLink } from "@/components/ui/shop-link";
import { CartNotice } from "@/components/cart/cart-notice";
import { ProductCard } from "@/components/catalog/product-card";
import { BrowseForm } from "@/components/catalog/browse-form";
import { Pagination } from "@/components/catalog/pagination";
import type { BrowseResult } from "@/lib/catalog/browse";
import { type BrowseQuery, type OptionFacet, pageCount } from "@/lib/catalog/browse-query";
import type { Category } from "@/lib/catalog/categories";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";

/**
 * One page of products with its sort and filter form and its page links: the same on `/`, a
 * category's page and /search (components/catalog/*, lib/catalog/browse.ts).
 */
export function Listing({
  lang,
  t,
  query,
  result,
  lowStockThreshold,
  pageHref,
  returnTo,
  clearHref,
  suggestions,
  subcategories,
  facets,
  addToCart,
  saveData = false,
}: {
  lang: Lang;
  t: Dictionary;
  query: BrowseQuery;
  result: BrowseResult;
  lowStockThreshold: number;
  /** The address of page `n` of this listing. */
  pageHref: (n: number) => string;
  /** Where the cart's action comes back to: this page. */
  returnTo: string;
  /** The listing without sort or filters. */
  clearHref: string;
  /** Categories to suggest when nothing matched. */
  suggestions: readonly Category[];
  /** A category's sub-categories, linked above its products. */
  subcategories?: readonly Category[];
  /** The option values of the listing's products, offered as filters (a category's page and /search). */
  facets?: readonly OptionFacet[];
  /** The cart's server action (app/actions/cart.ts), handed in by the page. */
  addToCart: (formData: FormData) => Promise<void>;
  /** The shopper saves data (docs/storefront.md): cards without pictures. */
  saveData?: boolean;
}) {
  const pages = pageCount(result.total);
  return (
    <>
      <CartNotice lang={lang} />
      {subcategories && subcategories.length > 0 ? (
        <nav aria-label={t.browse.subcategories} className="mb-4">
          <ul className="flex flex-wrap gap-2 text-sm">
            {subcategories.map((child) => (
              <li key={child.id}>
                <ShopLink
                  href={`/categories/${child.slug}`}
                  className="inline-block rounded-full border border-stone-300 bg-white px-3 py-1.5 hover:bg-stone-100"
                >
                  {child.name}
                </ShopLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <BrowseForm t={t} query={query} clearHref={clearHref} facets={facets} />
      <p className="mb-4 text-sm text-stone-600" role="status" data-testid="result-count">
        {t.browse.resultCount(result.total)}
      </p>
      {result.items.length === 0 ? (
        <NoProducts t={t} query={query} result={result} suggestions={suggestions} firstPage={pageHref(1)} />
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {result.items.map((product, i) => (
            <li key={product.id}>
              <ProductCard
                product={product}
                t={t}
                addToCart={addToCart}
                lowStockThreshold={lowStockThreshold}
                returnTo={returnTo}
                priority={i < 3}
                saveData={saveData}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination t={t} page={result.page} pages={pages} href={pageHref} />
    </>
  );
}

function NoProducts({
  t,
  query,
  result,
  suggestions,
  firstPage,
}: {
  t: Dictionary;
  query: BrowseQuery;
  result: BrowseResult;
  suggestions: readonly Category[];
  firstPage: string;
}) {
  if (result.total > 0)
    return (
      <p className="text-stone-600">
        {t.browse.pastLastPage}{" "}
        <ShopLink href={firstPage} className="text-brand-700 hover:underline">
          {t.browse.firstPage}
        </ShopLink>
      </p>
    );
  return (
    <div className="flex flex-col gap-3 text-stone-700" data-testid="no-results">
      <p>{query.q ? t.browse.noResults(query.q) : t.browse.noResultsFiltered}</p>
      {suggestions.length > 0 ? (
        <>
          <p>{t.browse.trySuggestions}</p>
          <ul className="flex flex-wrap gap-2">
            {suggestions.map((category) => (
              <li key={category.id}>
                <ShopLink
                  href={`/categories/${category.slug}`}
                  className="inline-block rounded-full border border-stone-300 bg-white px-3 py-1.5 hover:bg-stone-100"
                >
                  {category.name}
                </ShopLink>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
