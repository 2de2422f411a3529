import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { productPageMetadata, ProductView } from "@/components/catalog/product-view";
import { recentlyUpdatedProductSlugs } from "@/lib/catalog/products";
import { catalogParamsAtBuild, PRERENDERED_PRODUCTS } from "@/lib/catalog/cached-pages";
import { langParams, routeLang } from "@/lib/http/route-lang";

// Served from the cache in every language, like the catalogue (lib/catalog/cached-pages.ts): the
// PRERENDERED_PRODUCTS changed last are built ahead, every other product is rendered on its first
// visit, then cached. A `Save-Data: on` request is answered by ../../save-data/products/[slug].
export const revalidate = 30;
// The cart actions of this page may end expired stock holds, asking the service once (1.5 s at most).
export const maxDuration = 30;

export function generateStaticParams() {
  return catalogParamsAtBuild(async () => {
    const slugs = await recentlyUpdatedProductSlugs(PRERENDERED_PRODUCTS);
    return langParams().flatMap(({ lang }) => slugs.map((slug) => ({ lang, slug })));
  });
}

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return productPageMetadata((await params).slug);
}

export default async function ProductPage({ params }: Props) {
  const [{ lang, t }, { slug }] = await Promise.all([routeLang(params), params]);
  return <ProductView lang={lang} t={t} slug={slug} addToCart={addToCartAction} />;
}
