import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { categoryPageMetadata, CategoryView } from "@/components/catalog/views";
import { catalogParamsAtBuild } from "@/lib/catalog/cached-pages";
import { categoryTree } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { langParams, routeLang } from "@/lib/http/route-lang";

// A category's products and its sub-categories', each once, in the default order: built for every
// category at build (when the build reaches the database), served from the cache, rendered again
// when the catalogue changes (lib/catalog/cached-pages.ts). Later pages: ./page/[page]; sort and filters: /search;
// a `Save-Data: on` request: ../../save-data/categories/[slug].
export const revalidate = 30;
export const maxDuration = 30;

export function generateStaticParams() {
  return catalogParamsAtBuild(async () => {
    const slugs = (await categoryTree(db())).flatMap((top) => [top.slug, ...top.children.map((c) => c.slug)]);
    return langParams().flatMap(({ lang }) => slugs.map((slug) => ({ lang, slug })));
  });
}

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return categoryPageMetadata((await params).slug);
}

export default async function CategoryPage({ params }: Props) {
  const [{ lang, t }, { slug }] = await Promise.all([routeLang(params), params]);
  return <CategoryView lang={lang} t={t} slug={slug} page={1} addToCart={addToCartAction} />;
}
