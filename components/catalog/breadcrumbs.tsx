import { ShopLink } from "@/components/ui/shop-link";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { breadcrumbJsonLd, jsonForScript } from "@/lib/seo/seo";

export interface Crumb {
  name: string;
  /** Root-relative; the last crumb (the page itself) has none. */
  path?: string;
}

/** The trail to a page, for people (a list of links) and for search engines (BreadcrumbList JSON-LD). */
export function Breadcrumbs({ t, crumbs, appUrl }: { t: Dictionary; crumbs: Crumb[]; appUrl: string }) {
  const trail: Crumb[] = [{ name: t.browse.home, path: "/" }, ...crumbs];
  return (
    <nav aria-label={t.browse.breadcrumbs} className="mb-4 text-sm text-stone-600">
      {/* A data block, never executed, so it needs no CSP nonce (like the product page's JSON-LD). */}
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonForScript(breadcrumbJsonLd(trail, appUrl)) }}
      />
      <ol className="flex flex-wrap items-center gap-1">
        {trail.map((crumb, i) => (
          <li key={`${crumb.name}-${i}`} className="flex items-center gap-1">
            {i > 0 ? <span aria-hidden="true">/</span> : null}
            {crumb.path && i < trail.length - 1 ? (
              <ShopLink href={crumb.path} className="text-brand-700 hover:underline">
                {crumb.name}
              </ShopLink>
            ) : (
              <span aria-current={i === trail.length - 1 ? "page" : undefined}>{crumb.name}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
