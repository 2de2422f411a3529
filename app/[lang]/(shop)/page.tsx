import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { AllProductsView } from "@/components/catalog/views";
import { listProducts } from "@/lib/catalog/products";
import { catalogParamsAtBuild } from "@/lib/catalog/cached-pages";
import { langParams, routeLang } from "@/lib/http/route-lang";

// Built once per language and served from the cache (lib/catalog/cached-pages.ts): rendered again on
// the next visit after any change to the catalogue, and at the latest every 30 s. Its later pages
// are ./page/[page]; another sort, a filter or a search is /search; a `Save-Data: on` request is
// answered by ./save-data (next.config.mjs).
export const revalidate = 30;
// Adding to the cart posts a server action, which runs in this page's function and may release
// expired holds (lib/orders/holds.ts): it asks the service, so it gets the same bound as the cart.
export const maxDuration = 30;

export function generateStaticParams() {
  return catalogParamsAtBuild(async () => {
    await listProducts({ take: 1 });
    return langParams();
  });
}

// Resolved against metadataBase (the root layout): APP_URL.
export const metadata: Metadata = { alternates: { canonical: "/" } };

export default async function CatalogPage({ params }: { params: Promise<{ lang: string }> }) {
  const { lang, t } = await routeLang(params);
  return <AllProductsView lang={lang} t={t} page={1} addToCart={addToCartAction} />;
}
