import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { AllProductsView } from "@/components/catalog/views";
import { routeLang } from "@/lib/http/route-lang";

// `/` for a shopper saving data (../layout.tsx): cached like `/`, rendered on its first visit.
export const revalidate = 30;
export const maxDuration = 30;

export function generateStaticParams(): { lang: string }[] {
  return [];
}

export const metadata: Metadata = { alternates: { canonical: "/" } };

export default async function SaveDataCatalogPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang, t } = await routeLang(params);
  return <AllProductsView lang={lang} t={t} page={1} addToCart={addToCartAction} saveData />;
}
