import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Breadcrumbs } from "@/components/catalog/breadcrumbs";
import { Listing } from "@/components/catalog/listing";
import { browseFacets, browseProducts } from "@/lib/catalog/browse";
import { type BrowseQuery, browseSearch, defaultSort, pageCount } from "@/lib/catalog/browse-query";
import { categoryTree, findCategoryBySlug } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { categoryPath } from "@/lib/seo/seo";

/**
 * The catalogue's three listings, each a server component its pages render:
 * - every product (`/`, `/page/<n>`) and a category's (`/categories/<slug>`, `…/page/<n>`) in their
 *   default order: built once, served from the cache, rendered again when the catalogue changes
 *   (lib/catalog/cached-pages.ts);
 * - /search, for search words, another sort or a filter: rendered per request.
 */

type AddToCart = (formData: FormData) => Promise<void>;

/** What every listing's view takes. `saveData`: the page is for a shopper saving data (docs/storefront.md). */
interface ViewProps {
  lang: Lang;
  t: Dictionary;
  addToCart: AddToCart;
  saveData?: boolean;
}

/** A page number from a `/page/<n>` segment: 2 to MAX_PAGE (page 1 is the listing's own address). */
export function pageFromSegment(segment: string): number {
  if (!/^[1-9][0-9]{0,3}$/.test(segment) || segment === "1") notFound();
  return Number(segment);
}

const pagedPath = (base: string) => (n: number) => (n === 1 ? base || "/" : `${base}/page/${n}`);

const Title = ({ children }: { children: React.ReactNode }) => (
  <h1 id="catalog-title" className="mb-2 text-2xl font-semibold tracking-tight">
    {children}
  </h1>
);

/**
 * The top-level categories (the header's, and the suggestions of an empty listing) and a category
 * by its slug (a category page's metadata and its view): each read once per rendering, whoever asks.
 */
export const topCategories = cache(async () =>
  (await categoryTree(db())).map(({ children: _children, ...category }) => category),
);
export const categoryBySlug = cache((slug: string) => findCategoryBySlug(db(), slug));

/** A category page's title, description and canonical address (its first page, in either form). */
export async function categoryPageMetadata(slug: string): Promise<Metadata> {
  const found = await categoryBySlug(slug);
  if (!found) return {};
  const { category } = found;
  return {
    title: category.name,
    ...(category.description ? { description: category.description } : {}),
    alternates: { canonical: categoryPath(slug) },
  };
}

/** The ids a category's listing covers: its own and its sub-categories'. */
const listingIds = (found: { category: { id: string }; children: readonly { id: string }[] }) => [
  found.category.id,
  ...found.children.map((child) => child.id),
];

export async function AllProductsView({ lang, t, page, addToCart, saveData }: ViewProps & { page: number }) {
  const query: BrowseQuery = { sort: defaultSort(undefined), inStock: false, page };
  const [result, suggestions] = await Promise.all([browseProducts(db(), query), topCategories()]);
  if (!result || (page > 1 && page > pageCount(result.total))) notFound();
  const href = pagedPath("");
  return (
    <section aria-labelledby="catalog-title">
      <Title>{t.catalog.title}</Title>
      <Listing
        lang={lang}
        t={t}
        query={query}
        result={result}
        lowStockThreshold={getEnv().catalog.lowStockThreshold}
        pageHref={href}
        returnTo={href(page)}
        clearHref="/"
        suggestions={suggestions}
        addToCart={addToCart}
        saveData={saveData}
      />
    </section>
  );
}

export async function CategoryView({
  lang,
  t,
  slug,
  page,
  addToCart,
  saveData,
}: ViewProps & { slug: string; page: number }) {
  const found = await categoryBySlug(slug);
  if (!found) notFound();
  const { category, parent, children } = found;
  const query: BrowseQuery = { category: slug, sort: defaultSort(undefined), inStock: false, page };
  // The facets too are rendered with the cached page; choosing one submits to /search.
  const [result, facets, suggestions] = await Promise.all([
    browseProducts(db(), query, listingIds(found)),
    browseFacets(db(), query, listingIds(found)),
    topCategories(),
  ]);
  if (!result || (page > 1 && page > pageCount(result.total))) notFound();
  const base = `/categories/${slug}`;
  const href = pagedPath(base);
  const env = getEnv();
  return (
    <section aria-labelledby="catalog-title">
      <Breadcrumbs
        t={t}
        appUrl={env.appUrl}
        crumbs={[
          ...(parent ? [{ name: parent.name, path: `/categories/${parent.slug}` }] : []),
          { name: category.name },
        ]}
      />
      <Title>{category.name}</Title>
      {category.description ? <p className="mb-4 max-w-3xl text-stone-700">{category.description}</p> : null}
      <Listing
        lang={lang}
        t={t}
        query={query}
        result={result}
        lowStockThreshold={env.catalog.lowStockThreshold}
        pageHref={href}
        returnTo={href(page)}
        clearHref={base}
        suggestions={suggestions}
        subcategories={children}
        facets={facets ?? []}
        addToCart={addToCart}
        saveData={saveData}
      />
    </section>
  );
}

export async function SearchView({ lang, t, query, addToCart, saveData = false }: ViewProps & { query: BrowseQuery }) {
  const found = query.category ? await categoryBySlug(query.category) : null;
  if (query.category && !found) notFound();
  const ids = found ? listingIds(found) : undefined;
  const [result, facets, suggestions] = await Promise.all([
    browseProducts(db(), query, ids),
    browseFacets(db(), query, ids),
    topCategories(),
  ]);
  if (!result) notFound();
  const env = getEnv();
  const href = (n: number) => `/search${browseSearch(query, { page: n })}`;
  const title = query.q ? t.browse.searchTitle(query.q) : found ? found.category.name : t.browse.allProducts;
  const crumbs = found
    ? [
        ...(found.parent ? [{ name: found.parent.name, path: `/categories/${found.parent.slug}` }] : []),
        { name: found.category.name, path: `/categories/${found.category.slug}` },
        ...(query.q ? [{ name: t.browse.searchTitle(query.q) }] : []),
      ]
    : [{ name: title }];
  const clear = query.q
    ? `/search${browseSearch({ q: query.q, category: query.category })}`
    : found
      ? `/categories/${found.category.slug}`
      : "/";
  return (
    // Rendered per request, so it marks itself for the browser's links (components/ui/shop-link.tsx);
    // the cached pages are marked by app/[lang]/(shop)/save-data/layout.tsx.
    <section aria-labelledby="catalog-title" data-save-data={saveData ? "" : undefined}>
      <Breadcrumbs t={t} appUrl={env.appUrl} crumbs={crumbs} />
      <Title>{title}</Title>
      <Listing
        lang={lang}
        t={t}
        query={query}
        result={result}
        lowStockThreshold={env.catalog.lowStockThreshold}
        pageHref={href}
        returnTo={href(query.page)}
        clearHref={clear}
        suggestions={suggestions}
        subcategories={found && !query.q ? found.children : undefined}
        facets={facets ?? []}
        addToCart={addToCart}
        saveData={saveData}
      />
    </section>
  );
}
