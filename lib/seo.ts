import type { Metadata, MetadataRoute } from "next";
import type { CatalogProduct } from "./catalog";

/**
 * What search engines and link previews read: a product's metadata and its Product JSON-LD, the
 * sitemap and robots.txt. Pure functions of the catalogue and the shop's address (APP_URL), so
 * the pages and routes that use them need no request (no cookies, no headers) and can be cached.
 */

/** A product as far as search engines are concerned: the catalogue's, without its id. */
export type SeoProduct = Omit<CatalogProduct, "id">;

/** `path` (root-relative, as the shop stores image paths) as an absolute URL under the shop's address. */
export function absoluteUrl(appUrl: string, path: string): string {
  return new URL(path, `${appUrl}/`).href;
}

export const productPath = (slug: string) => `/products/${slug}`;

/** The canonical address of a product's page. */
export const productUrl = (appUrl: string, slug: string) => absoluteUrl(appUrl, productPath(slug));

/** A product page's title, description, canonical URL and Open Graph card (with the product's image). */
export function productMetadata(product: SeoProduct, appUrl: string): Metadata {
  const url = productUrl(appUrl, product.slug);
  return {
    title: product.name,
    description: product.description,
    alternates: { canonical: url },
    openGraph: {
      type: "website",
      url,
      title: product.name,
      description: product.description,
      images: [{ url: absoluteUrl(appUrl, product.image), alt: product.name }],
    },
  };
}

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";

/** The schema.org Product of a product page, with one Offer in kwanza whose availability follows the stock. */
export function productJsonLd(product: SeoProduct, appUrl: string) {
  const url = productUrl(appUrl, product.slug);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: [absoluteUrl(appUrl, product.image)],
    url,
    offers: {
      "@type": "Offer",
      url,
      priceCurrency: "AOA",
      price: product.priceAoa,
      availability: product.stock > 0 ? IN_STOCK : OUT_OF_STOCK,
    },
  };
}

/** A category's page. */
export const categoryPath = (slug: string) => `/categories/${slug}`;

/**
 * The schema.org BreadcrumbList of a page's trail: each crumb with its position and, but for the
 * last (the page itself, which search engines know from the page), its absolute address.
 */
export function breadcrumbJsonLd(trail: readonly { name: string; path?: string }[], appUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: crumb.name,
      ...(crumb.path && i < trail.length - 1 ? { item: absoluteUrl(appUrl, crumb.path) } : {}),
    })),
  };
}

/**
 * `value` as JSON safe to put inside a `<script type="application/ld+json">` element: `<`, `>`
 * and `&` become \u escapes (still the same JSON), so a product named `</script><script>…` or
 * `<!--` cannot end the element or change how the HTML around it is parsed. U+2028 and U+2029
 * are escaped too, for any reader that treats the block as JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The sitemap: the catalogue page, then every product on sale with its last change and image. */
export function sitemapEntries(
  products: readonly { slug: string; image: string; updatedAt: Date }[],
  appUrl: string,
): MetadataRoute.Sitemap {
  const latest = products.reduce<Date | undefined>(
    (max, product) => (max === undefined || product.updatedAt > max ? product.updatedAt : max),
    undefined,
  );
  return [
    { url: absoluteUrl(appUrl, "/"), ...(latest ? { lastModified: latest } : {}) },
    ...products.map((product) => ({
      url: productUrl(appUrl, product.slug),
      lastModified: product.updatedAt,
      images: [absoluteUrl(appUrl, product.image)],
    })),
  ];
}

/** Paths no crawler needs: the back office, the API, and each shopper's own cart, checkout and orders. */
export const ROBOTS_DISALLOW = ["/admin", "/api", "/checkout", "/cart", "/orders"] as const;

/**
 * Everything else may be crawled, uploaded product images included: they are served under
 * /api/images/, and the more specific Allow wins over Disallow: /api.
 */
export const ROBOTS_ALLOW = ["/", "/api/images/"] as const;

export function robotsRules(appUrl: string): MetadataRoute.Robots {
  return {
    rules: { userAgent: "*", allow: [...ROBOTS_ALLOW], disallow: [...ROBOTS_DISALLOW] },
    sitemap: absoluteUrl(appUrl, "/sitemap.xml"),
  };
}
