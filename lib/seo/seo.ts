import type { CatalogProduct } from "../catalog/products";
import { lineName, type ProductOptionDefinition, type ShopVariant } from "../catalog/variants";

/**
 * What search engines and link previews read: a product's metadata and its Product JSON-LD (a
 * ProductGroup for a product with options), the sitemap and robots.txt. Pure functions of the
 * catalogue and the shop's address (APP_URL), so the pages and routes that use them need no
 * request (no cookies, no headers) and can be cached.
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

/** The colour of the browser's bar and of the installed shop's splash: the brand's (--color-brand-700 of app/globals.css). */
export const THEME_COLOR = "#9a3412";

/** A page's metadata as the shop writes it: the subset of Next's `Metadata` the pages return as is. */
export interface PageMetadata {
  title: string;
  description: string;
  alternates: { canonical: string };
  openGraph: { type: "website"; url: string; title: string; description: string };
}

/** One URL of a sitemap, in the shape of Next's `MetadataRoute.Sitemap` entries. */
export interface SitemapEntry {
  url: string;
  lastModified?: Date;
  images?: string[];
}

/** robots.txt, in the shape of Next's `MetadataRoute.Robots`. */
export interface RobotsFile {
  rules: { userAgent: string; allow: string[]; disallow: string[] };
  sitemap: string[];
}

/**
 * A product page's title, description, canonical URL and Open Graph card. The card's image is
 * not here: it is the PNG of app/[lang]/(shop)/products/[slug]/opengraph-image.tsx, which Next adds
 * to the page's metadata itself, and an `openGraph.images` here would replace it (link previews
 * ignore the SVG the product's own image may be).
 */
export function productMetadata(product: SeoProduct, appUrl: string): PageMetadata {
  const url = productUrl(appUrl, product.slug);
  return {
    title: product.name,
    description: product.description,
    alternates: { canonical: url },
    openGraph: { type: "website", url, title: product.name, description: product.description },
  };
}

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";

/** A product with its options and variants, as the product page has it (lib/catalog/products.ts ProductDetail). */
export type SeoProductDetail = SeoProduct & {
  options: readonly ProductOptionDefinition[];
  variants: readonly Pick<ShopVariant, "id" | "sku" | "title" | "priceAoa" | "stock" | "image">[];
};

interface OfferJsonLd {
  "@type": "Offer";
  url: string;
  priceCurrency: "AOA";
  price: number;
  availability: string;
}

export interface ProductJsonLd {
  "@context": "https://schema.org";
  "@type": "Product";
  name: string;
  description: string;
  /** Absent for a product without an image: schema.org wants a picture of the product, not a placeholder. */
  image?: string[];
  url: string;
  offers: OfferJsonLd;
}

export interface ProductGroupJsonLd {
  "@context": "https://schema.org";
  "@type": "ProductGroup";
  name: string;
  description: string;
  image?: string[];
  url: string;
  productGroupID: string;
  variesBy: string[];
  hasVariant: {
    "@type": "Product";
    name: string;
    sku?: string;
    image?: string;
    offers: OfferJsonLd;
  }[];
}

/** The schema.org property an option varies, for the options search engines know; else the option's name. */
const VARIES_BY: Record<string, string> = {
  tamanho: "https://schema.org/size",
  size: "https://schema.org/size",
  cor: "https://schema.org/color",
  color: "https://schema.org/color",
  colour: "https://schema.org/color",
};
export const variesBy = (option: string): string => VARIES_BY[option.trim().toLowerCase()] ?? option;

const offer = (url: string, price: number, stock: number): OfferJsonLd => ({
  "@type": "Offer",
  url,
  priceCurrency: "AOA",
  price,
  availability: stock > 0 ? IN_STOCK : OUT_OF_STOCK,
});

/**
 * The schema.org JSON-LD of a product page: a Product with one Offer in kwanza whose availability
 * follows the stock; for a product with options, a ProductGroup whose variants (`hasVariant`) are
 * each a Product with its SKU, image and Offer, at the page's address with `?variant=<id>`.
 */
export function productJsonLd(product: SeoProductDetail, appUrl: string): ProductJsonLd | ProductGroupJsonLd;
export function productJsonLd(product: SeoProduct, appUrl: string): ProductJsonLd;
export function productJsonLd(
  product: SeoProduct | SeoProductDetail,
  appUrl: string,
): ProductJsonLd | ProductGroupJsonLd {
  const url = productUrl(appUrl, product.slug);
  const common = {
    "@context": "https://schema.org" as const,
    name: product.name,
    description: product.description,
    ...(product.image === null ? {} : { image: [absoluteUrl(appUrl, product.image)] }),
    url,
  };
  if (!("options" in product) || product.options.length === 0)
    return { ...common, "@type": "Product", offers: offer(url, product.priceAoa, product.stock) };
  return {
    ...common,
    "@type": "ProductGroup",
    productGroupID: product.slug,
    variesBy: product.options.map((option) => variesBy(option.name)),
    hasVariant: product.variants.map((variant) => ({
      "@type": "Product",
      name: lineName(product.name, variant.title),
      ...(variant.sku ? { sku: variant.sku } : {}),
      ...(variant.image === null ? {} : { image: absoluteUrl(appUrl, variant.image) }),
      offers: offer(`${url}?variant=${encodeURIComponent(variant.id)}`, variant.priceAoa, variant.stock),
    })),
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

/**
 * Addresses in one sitemap at most. Search engines read 50 000 per file; the margin leaves room
 * for what is added between counting and listing.
 */
export const SITEMAP_MAX_URLS = 45_000;

/** What the sitemaps list, end to end: the catalogue page, then every category, then every product on sale (each in slug order). */
export interface SitemapCounts {
  categories: number;
  products: number;
}

/** A stretch of a list, as a query takes it. */
export interface Stretch {
  skip: number;
  take: number;
}

/** What one sitemap holds: the catalogue page or not, and a stretch of the categories and of the products. */
export interface SitemapPart {
  catalogue: boolean;
  categories: Stretch;
  products: Stretch;
}

/** The sitemaps, as `generateSitemaps` lists them: at least one (the catalogue page), then one per `maxUrls` addresses. */
export function sitemapIds(counts: SitemapCounts, maxUrls = SITEMAP_MAX_URLS): { id: number }[] {
  const urls = 1 + counts.categories + counts.products;
  return Array.from({ length: Math.ceil(urls / maxUrls) }, (_, id) => ({ id }));
}

/** What sitemap `id` holds: the addresses from `id × maxUrls` on, the lists laid end to end. */
export function sitemapPart(id: number, counts: SitemapCounts, maxUrls = SITEMAP_MAX_URLS): SitemapPart {
  const start = id * maxUrls;
  const end = start + maxUrls;
  /** The items of a list whose first item is address number `first`. */
  const stretch = (first: number, count: number): Stretch => {
    const skip = Math.max(0, start - first);
    const take = Math.min(count, end - first) - skip;
    return take > 0 ? { skip, take } : { skip: 0, take: 0 };
  };
  return {
    catalogue: start === 0,
    categories: stretch(1, counts.categories),
    products: stretch(1 + counts.categories, counts.products),
  };
}

/**
 * Where sitemap `id` is: Next serves the sitemaps of app/sitemap.ts's `generateSitemaps` at
 * /sitemap/<id>.xml and writes no index of them. No route of ours can take /sitemap.xml either
 * (Next refuses one beside app/sitemap.ts), so the index is app/sitemap_index.xml/route.ts and
 * next.config.mjs rewrites /sitemap.xml to it; robots.txt names each sitemap too.
 */
export const sitemapPath = (id: number) => `/sitemap/${id}.xml`;

/** The five characters XML text must not carry as themselves. */
const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** The sitemap index (sitemaps.org): one <sitemap> per split sitemap, as robots.txt lists them. */
export function sitemapIndexXml(appUrl: string, sitemaps: readonly { id: number }[]): string {
  const entries = sitemaps.map(({ id }) => {
    const loc = absoluteUrl(appUrl, sitemapPath(id)).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
    return `<sitemap><loc>${loc}</loc></sitemap>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** The catalogue page in a sitemap, changed when its latest product was. */
export function catalogSitemapEntry(appUrl: string, lastModified: Date | null): SitemapEntry {
  return { url: absoluteUrl(appUrl, "/"), ...(lastModified ? { lastModified } : {}) };
}

export function categorySitemapEntry(category: { slug: string; updatedAt: Date }, appUrl: string): SitemapEntry {
  return { url: absoluteUrl(appUrl, categoryPath(category.slug)), lastModified: category.updatedAt };
}

export function productSitemapEntry(
  product: { slug: string; image: string | null; updatedAt: Date },
  appUrl: string,
): SitemapEntry {
  return {
    url: productUrl(appUrl, product.slug),
    lastModified: product.updatedAt,
    ...(product.image === null ? {} : { images: [absoluteUrl(appUrl, product.image)] }),
  };
}

/** Paths no crawler needs: the back office, the API, and each shopper's own cart, checkout, orders and account. */
export const ROBOTS_DISALLOW = ["/admin", "/api", "/checkout", "/cart", "/orders", "/account"] as const;

/**
 * Everything else may be crawled, uploaded product images included: they are served under
 * /api/images/, and the more specific Allow wins over Disallow: /api.
 */
export const ROBOTS_ALLOW = ["/", "/api/images/"] as const;

/** robots.txt: the rules above, and the address of every sitemap (their index, /sitemap.xml, too: see sitemapPath). */
export function robotsRules(appUrl: string, sitemaps: readonly { id: number }[]): RobotsFile {
  return {
    rules: { userAgent: "*", allow: [...ROBOTS_ALLOW], disallow: [...ROBOTS_DISALLOW] },
    sitemap: sitemaps.map(({ id }) => absoluteUrl(appUrl, sitemapPath(id))),
  };
}
