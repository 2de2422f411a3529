import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { CartNotice } from "@/components/cart-notice";
import { ProductCard } from "@/components/product-card";
import { listProducts } from "@/lib/catalog";
import { catalogParamsAtBuild } from "@/lib/catalog-pages";
import { langParams, routeLang } from "@/lib/i18n/route-lang";

// Built once per language and served from the cache (lib/catalog-pages.ts): rendered again on
// the next visit after any change to the catalogue, and at the latest every 30 s.
export const revalidate = 30;
// Adding to the cart posts a server action, which runs in this page's function and may release
// expired holds (lib/orders/holds.ts): it asks the service, so it gets the same bound as the cart.
export const maxDuration = 30;

export function generateStaticParams() {
  return catalogParamsAtBuild(async () => {
    await listProducts();
    return langParams();
  });
}

// Resolved against metadataBase (the root layout): APP_URL.
export const metadata: Metadata = { alternates: { canonical: "/" } };

export default async function CatalogPage({ params }: { params: Promise<{ lang: string }> }) {
  const [{ lang, t }, products] = await Promise.all([routeLang(params), listProducts()]);
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title" className="mb-6 text-2xl font-semibold tracking-tight">
        {t.catalog.title}
      </h1>
      <CartNotice lang={lang} />
      {products.length === 0 ? (
        <p className="text-stone-600">{t.catalog.empty}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} t={t} addToCart={addToCartAction} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
