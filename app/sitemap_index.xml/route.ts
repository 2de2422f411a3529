import { getEnv } from "@/lib/env";
import { sitemapIndexXml } from "@/lib/seo/seo";
import { sitemapIdsNow } from "@/lib/seo/sitemap";

// /sitemap.xml (next.config.mjs rewrites it here): the index of the split sitemaps, where
// crawlers and SEO tools look first. Read when asked, as the sitemaps are (app/sitemap.ts).
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return new Response(sitemapIndexXml(getEnv().appUrl, await sitemapIdsNow()), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
}
