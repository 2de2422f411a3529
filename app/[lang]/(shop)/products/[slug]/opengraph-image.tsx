import { findProductBySlug } from "@/lib/catalog/products";
import { routeLang } from "@/lib/http/route-lang";
import { formatAoa } from "@/lib/money";
import { imageNotFound, ogCardImage } from "@/lib/http/og-image";

// The picture link previews show for a product page (lib/http/og-image.tsx): Next adds its address to
// the page's og:image, with the language, e.g. /pt/products/<slug>/opengraph-image-1yzh3a (a suffix of
// Next's own, as the folder is in the (shop) route group; next.config.mjs serves that address as it is). Cached like the page (CATALOG_PAGE_SECONDS, lib/catalog/cached-pages.ts),
// but never rendered at build: only link previews ask for it.
export const revalidate = 30;

export const alt = "O nome do produto, o seu preço em kwanzas e o nome da loja";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

export function generateStaticParams(): { lang: string; slug: string }[] {
  return [];
}

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

export default async function Image({ params }: Props) {
  const [{ t }, { slug }] = await Promise.all([routeLang(params), params]);
  const product = await findProductBySlug(slug);
  if (!product) return imageNotFound();
  return ogCardImage({ shop: t.shop.name, title: product.name, detail: formatAoa(product.priceAoa) });
}
