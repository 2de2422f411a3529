import type { MetadataRoute } from "next";
import { listProductsForSitemap } from "@/lib/catalog";
import { getEnv } from "@/lib/env";
import { sitemapEntries } from "@/lib/seo";

// The catalogue lives in the database, which is not there at build time.
export const dynamic = "force-dynamic";

/** /sitemap.xml: the catalogue page and every product on sale (lib/seo.ts). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  return sitemapEntries(await listProductsForSitemap(), getEnv().appUrl);
}
