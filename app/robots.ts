import type { MetadataRoute } from "next";
import { getEnv } from "@/lib/env";
import { robotsRules } from "@/lib/seo/seo";
import { sitemapIdsNow } from "@/lib/seo/sitemap";

// APP_URL is read when the shop runs, not when it is built (a build may have no configuration),
// and the number of sitemaps follows the catalogue.
export const dynamic = "force-dynamic";

/** /robots.txt: what crawlers may visit, and where the sitemaps are (lib/seo/seo.ts). */
export default async function robots(): Promise<MetadataRoute.Robots> {
  return robotsRules(getEnv().appUrl, await sitemapIdsNow());
}
