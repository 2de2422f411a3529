import type { MetadataRoute } from "next";
import { getEnv } from "@/lib/env";
import { robotsRules } from "@/lib/seo";

// APP_URL is read when the shop runs, not when it is built (a build may have no configuration).
export const dynamic = "force-dynamic";

/** /robots.txt: what crawlers may visit, and where the sitemap is (lib/seo.ts). */
export default function robots(): MetadataRoute.Robots {
  return robotsRules(getEnv().appUrl);
}
