import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { AllProductsView, pageFromSegment } from "@/components/catalog/views";
import { routeLang } from "@/lib/http/route-lang";

// `/page/<n>` for a shopper saving data (../../layout.tsx).
export const revalidate = 30;
export const maxDuration = 30;

export function generateStaticParams(): { lang: string; page: string }[] {
  return [];
}

interface Props {
  params: Promise<{ lang: string; page: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { page } = await params;
  return { alternates: { canonical: `/page/${page}` } };
}

export default async function SaveDataCatalogPageN({ params }: Props) {
  const [{ lang, t }, { page }] = await Promise.all([routeLang(params), params]);
  return <AllProductsView lang={lang} t={t} page={pageFromSegment(page)} addToCart={addToCartAction} saveData />;
}
