import { countProductsOnSaleIn, findCategoryBySlug } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { routeLang } from "@/lib/http/route-lang";
import { imageNotFound, ogCardImage } from "@/lib/http/og-image";

// The picture link previews show for a category page (lib/http/og-image.tsx): its parent, its name and
// how many products its listing shows. Next adds its address to the page's og:image, with the
// language (/pt/categories/<slug>/opengraph-image-<Next's suffix for the (shop) route group>, served
// as it is by next.config.mjs). Cached
// like the page (CATALOG_PAGE_SECONDS, lib/catalog/cached-pages.ts), never rendered at build.
export const revalidate = 30;

export const alt = "O nome da categoria, quantos produtos tem e o nome da loja";
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
  const found = await findCategoryBySlug(db(), slug);
  if (!found) return imageNotFound();
  const { category, parent, children } = found;
  const count = await countProductsOnSaleIn(db(), [category.id, ...children.map((child) => child.id)]);
  return ogCardImage({
    shop: t.shop.name,
    ...(parent ? { kicker: parent.name } : {}),
    title: category.name,
    detail: t.browse.resultCount(count),
  });
}
