import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { CategoryView, pageFromSegment } from "@/components/catalog/views";
import { routeLang } from "@/lib/http/route-lang";
import { categoryPath } from "@/lib/seo/seo";

// Page 2 and later of a category: rendered on first visit, then served from the cache.
export const revalidate = 30;
export const maxDuration = 30;

export function generateStaticParams(): { lang: string; slug: string; page: string }[] {
  return [];
}

interface Props {
  params: Promise<{ lang: string; slug: string; page: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, page } = await params;
  return { alternates: { canonical: `${categoryPath(slug)}/page/${page}` } };
}

export default async function CategoryPageN({ params }: Props) {
  const [{ lang, t }, { slug, page }] = await Promise.all([routeLang(params), params]);
  return <CategoryView lang={lang} t={t} slug={slug} page={pageFromSegment(page)} addToCart={addToCartAction} />;
}
