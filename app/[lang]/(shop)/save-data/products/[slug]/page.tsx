import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { productPageMetadata, ProductView } from "@/components/catalog/product-view";
import { routeLang } from "@/lib/http/route-lang";

// `/products/<slug>` for a shopper saving data (../../layout.tsx): cached like the product page,
// rendered on its first visit.
export const revalidate = 30;
// Its cart actions may end expired stock holds, as the product page's.
export const maxDuration = 30;

export function generateStaticParams(): { lang: string; slug: string }[] {
  return [];
}

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return productPageMetadata((await params).slug);
}

export default async function SaveDataProductPage({ params }: Props) {
  const [{ lang, t }, { slug }] = await Promise.all([routeLang(params), params]);
  return <ProductView lang={lang} t={t} slug={slug} addToCart={addToCartAction} saveData />;
}
