import type { MetadataRoute } from "next";
import { getEnv } from "@/lib/env";
import { sitemapEntriesOf, sitemapIdsNow } from "@/lib/seo/sitemap";

// The catalogue lives in the database, which a build may not reach: every sitemap is read when asked for.
export const dynamic = "force-dynamic";

/**
 * /sitemap/0.xml, /sitemap/1.xml…: the catalogue page, every category and every product on sale,
 * SITEMAP_MAX_URLS addresses per file (lib/seo/seo.ts). robots.txt names each of them.
 */
export function generateSitemaps(): Promise<{ id: number }[]> {
  return sitemapIdsNow();
}

export default async function sitemap({ id }: { id: Promise<string> }): Promise<MetadataRoute.Sitemap> {
  return sitemapEntriesOf(Number(await id), getEnv().appUrl);
}
