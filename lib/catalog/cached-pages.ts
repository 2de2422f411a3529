import "server-only";
import { revalidatePath } from "next/cache";
import { getEnv } from "../env";
import { consoleLogger, errorKind } from "../log";

/**
 * The cached catalog pages (CATALOG_ROUTES: the listings, the categories' and the products'
 * pages) are built at `next build` or on their first visit and served from Next's cache to every
 * shopper, in both languages; /search is rendered per request. This module names them, marks them
 * stale and chooses what a build renders ahead. The stock they show is a guide: adding to the
 * cart and checking out count it again.
 */

/**
 * The pages also expire on their own after this (their `revalidate`), which covers what no
 * request of this server sees: a hold running out (the stock shown counts units of expired holds
 * as free, lib/catalog/products.ts), the worker's releases (`npm run worker` is another process),
 * and the other instances of a shop that runs several. Must match the `revalidate` of both pages
 * (a segment config is read by the compiler, not imported).
 */
export const CATALOG_PAGE_SECONDS = 30;

/**
 * How many product pages (per language) `next build` renders ahead: the products changed last
 * (app/[lang]/(shop)/products/[slug]/page.tsx). Every other product page is rendered on its first visit
 * and cached from then on, so a build does not grow with the catalogue (10 000 products would be
 * 20 000 pages). Their Open Graph images are never rendered ahead: only link previews ask for them.
 */
export const PRERENDERED_PRODUCTS = 100;

/**
 * Every cached page that shows products: the catalogue, a category, their later pages, a product;
 * and each of them in its form for a shopper saving data (app/[lang]/(shop)/save-data/). As their
 * files are named, the route group included: Next marks a page stale by its file's route.
 */
export const CATALOG_ROUTES = [
  "/[lang]/(shop)",
  "/[lang]/(shop)/page/[page]",
  "/[lang]/(shop)/categories/[slug]",
  "/[lang]/(shop)/categories/[slug]/page/[page]",
  "/[lang]/(shop)/products/[slug]",
  "/[lang]/(shop)/save-data",
  "/[lang]/(shop)/save-data/page/[page]",
  "/[lang]/(shop)/save-data/categories/[slug]",
  "/[lang]/(shop)/save-data/categories/[slug]/page/[page]",
  "/[lang]/(shop)/save-data/products/[slug]",
] as const;

/**
 * The catalog pages are stale: each is rendered again on its next visit, before answering, so the
 * shopper sees the change at once. Called by whatever changes what they show (a checkout's
 * reservation, a payment or a cancellation, a release of stock, a back-office edit).
 */
export function catalogChanged(): void {
  try {
    for (const route of CATALOG_ROUTES) revalidatePath(route, "page");
  } catch (error) {
    // Outside a request of the Next server (a test calling a route handler, a script), there is
    // no cache to mark; anything else is a mistake in the caller.
    if (error instanceof Error && error.message.startsWith("Invariant: static generation store missing")) return;
    throw error;
  }
}

/**
 * The `generateStaticParams` of the catalogue pages: the pages to build ahead, when the build
 * can render them (a complete environment, and a migrated database it can reach: a Vercel
 * production build). Otherwise (a Docker image build, a preview build against a database not
 * migrated yet) none: each page is rendered on its first visit and cached from then on.
 */
export async function catalogParamsAtBuild<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    getEnv();
    return await list();
  } catch (error) {
    consoleLogger("warn", "catalog.not_prerendered", {
      reason: errorKind(error),
      then: "each catalogue page is rendered on its first visit and cached from then on",
    });
    return [];
  }
}
