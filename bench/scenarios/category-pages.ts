import type { Scenario } from "../lib/scenario";
import { BENCH_CATEGORIES, ensureBenchCatalog } from "./catalog-data";
import { pageScenario, sameBytes } from "./pages";

/**
 * A category of the bench catalogue (catalog-data.ts) as a shopper browses it: "Alimentação",
 * a top-level category whose listing holds its five sub-categories' products (about 4 000, each
 * once), by name, 24 a page. Both pages come from Next's cache, as the catalogue page does
 * (pages.ts), and are measured the same way: against the same server sending the same HTML as a
 * file of public/.
 *
 * - `category-page`: `/categories/alimentacao`, rendered by `next build` (the build lists every
 *   category, app/[lang]/(shop)/categories/[slug]/page.tsx).
 * - `category-page-2`: `/categories/alimentacao/page/2`, which the build does not render: a
 *   first server renders and caches it before the measured one starts, and the bytes it then
 *   answers from its cache are the file (bench/run.ts).
 *
 * Every 30 s (their `revalidate`) a page goes stale and its next visit renders it again in the
 * background: with 10 000 products, the category's listing query runs then (README, "Category
 * pages").
 */

const category = BENCH_CATEGORIES[0]!;
const PAGE_1 = `/categories/${category.slug}`;
const PAGE_2 = `${PAGE_1}/page/2`;
/** The listing's own line under the products ("Página 2 de 175"), in Portuguese: a first visit. */
const pageOf = (page: number) => `Página ${page} de `;

export const categoryPageScenario: Scenario = {
  ...pageScenario(
    "category-page",
    `GET ${PAGE_1}: a category of 10 000 products' catalogue, from the cache, against the same server sending the same HTML as a file`,
    PAGE_1,
    [`>${category.name}</h1>`, pageOf(1)],
    sameBytes("category", `.next/server/app/pt${PAGE_1}.html`, PAGE_1),
  ),
  setup: ensureBenchCatalog,
};

export const categoryPage2Scenario: Scenario = {
  ...pageScenario(
    "category-page-2",
    `GET ${PAGE_2}: its second page, cached on its first visit, against the same server sending the same HTML as a file`,
    PAGE_2,
    [`>${category.name}</h1>`, pageOf(2)],
    { staticFile: "/bench-pages/category-2.html", visitFirst: PAGE_2 },
  ),
  setup: ensureBenchCatalog,
};
