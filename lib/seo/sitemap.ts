import "server-only";
import { db } from "../db/client";
import { shownImage } from "../catalog/gallery";
import { consoleLogger, errorKind } from "../log";
import { ON_SALE } from "../catalog/on-sale";
import {
  catalogSitemapEntry,
  categorySitemapEntry,
  productSitemapEntry,
  SITEMAP_MAX_URLS,
  sitemapIds,
  sitemapPart,
  type SitemapCounts,
  type Stretch,
  type SitemapEntry,
} from "./seo";

/**
 * The sitemaps' reads (app/sitemap.ts, app/robots.ts); how they are split and written is
 * lib/seo/seo.ts's. One sitemap reads only its own stretch of the catalogue, and its products
 * `PRODUCT_BATCH` at a time: the first batch found by its position, each next one after the last
 * slug (an index range, however far into the catalogue).
 */

const PRODUCT_BATCH = 5_000;

/** How many categories and products on sale there are to list. */
export async function sitemapCounts(): Promise<SitemapCounts> {
  const [categories, products] = await Promise.all([db().category.count(), db().product.count({ where: ON_SALE })]);
  return { categories, products };
}

/**
 * The sitemaps there are (generateSitemaps, robots.txt). When the database cannot count them,
 * the first, which is always there: a crawler that cannot read robots.txt crawls nothing, and
 * /sitemap/0.xml then fails on its own read, which a crawler retries.
 */
export async function sitemapIdsNow(): Promise<{ id: number }[]> {
  try {
    return sitemapIds(await sitemapCounts());
  } catch (error) {
    consoleLogger("warn", "sitemap.not_counted", {
      reason: errorKind(error),
      then: "only /sitemap/0.xml is listed until the database answers (a build without one: expected)",
    });
    return [{ id: 0 }];
  }
}

/** Sitemap `id`'s entries (see sitemapPart): the catalogue page, categories and products, each list in slug order. */
export async function sitemapEntriesOf(
  id: number,
  appUrl: string,
  maxUrls = SITEMAP_MAX_URLS,
): Promise<SitemapEntry[]> {
  const part = sitemapPart(id, await sitemapCounts(), maxUrls);
  const entries: SitemapEntry[] = [];
  if (part.catalogue) entries.push(catalogSitemapEntry(appUrl, await latestProductChange()));
  if (part.categories.take > 0) {
    const categories = await db().category.findMany({
      select: { slug: true, updatedAt: true },
      orderBy: [{ slug: "asc" }],
      ...part.categories,
    });
    entries.push(...categories.map((category) => categorySitemapEntry(category, appUrl)));
  }
  for await (const batch of productBatches(part.products)) {
    entries.push(...batch.map((product) => productSitemapEntry(product, appUrl)));
  }
  return entries;
}

/** When a product on sale last changed: the catalogue page's last change. */
async function latestProductChange(): Promise<Date | null> {
  const { _max } = await db().product.aggregate({ where: ON_SALE, _max: { updatedAt: true } });
  return _max.updatedAt;
}

/** The products on sale of `stretch`, in slug order, `batch` at a time. */
export async function* productBatches(
  stretch: Stretch,
  batch = PRODUCT_BATCH,
): AsyncGenerator<{ slug: string; image: string | null; updatedAt: Date }[]> {
  let left = stretch.take;
  let after: string | undefined;
  while (left > 0) {
    const take = Math.min(batch, left);
    const rows = await db().product.findMany({
      where: after === undefined ? ON_SALE : { ...ON_SALE, slug: { gt: after } },
      select: { slug: true, imagePath: true, updatedAt: true },
      orderBy: [{ slug: "asc" }],
      ...(after === undefined ? { skip: stretch.skip } : {}),
      take,
    });
    if (rows.length > 0) yield rows.map(({ imagePath, ...row }) => ({ ...row, image: shownImage(imagePath) }));
    if (rows.length < take) return;
    left -= rows.length;
    after = rows[rows.length - 1]!.slug;
  }
}
