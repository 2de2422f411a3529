import type { Metadata } from "next";
import { addToCartAction } from "@/app/cart/actions";
import { CartNotice } from "@/components/cart-notice";
import { ProductCard } from "@/components/product-card";
import { listProducts } from "@/lib/catalog";
import { getLang } from "@/lib/i18n/server";

// The catalogue lives in the database, which is not there at build time.
export const dynamic = "force-dynamic";
// Adding to the cart posts a server action, which runs in this page's function and may release
// expired holds (lib/orders/holds.ts): it asks the service, so it gets the same bound as the cart.
export const maxDuration = 30;

// Resolved against metadataBase (the root layout): APP_URL.
export const metadata: Metadata = { alternates: { canonical: "/" } };

export default async function CatalogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ t }, products, query] = await Promise.all([getLang(), listProducts(), searchParams]);
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title" className="mb-6 text-2xl font-semibold tracking-tight">
        {t.catalog.title}
      </h1>
      <CartNotice t={t} query={query} />
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
