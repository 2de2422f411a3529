import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { categoryPageMetadata, CategoryView } from "@/components/catalog/views";
import { routeLang } from "@/lib/http/route-lang";

// `/categories/<slug>` for a shopper saving data (../../layout.tsx).
export const revalidate = 30;
export const maxDuration = 30;

export function generateStaticParams(): { lang: string; slug: string }[] {
  return [];
}

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return categoryPageMetadata((await params).slug);
}

export default async function SaveDataCategoryPage({ params }: Props) {
  const [{ lang, t }, { slug }] = await Promise.all([routeLang(params), params]);
  return <CategoryView lang={lang} t={t} slug={slug} page={1} addToCart={addToCartAction} saveData />;
}
