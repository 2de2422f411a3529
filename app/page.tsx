import { ProductCard } from "@/components/product-card";
import { listProducts } from "@/lib/catalog";

// The catalogue lives in the database, which is not there at build time.
export const dynamic = "force-dynamic";

export default async function CatalogPage() {
  const products = await listProducts();
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title" className="mb-6 text-2xl font-semibold tracking-tight">
        Produtos
      </h1>
      {products.length === 0 ? (
        <p className="text-stone-600">Ainda não há produtos. Corra `npm run db:seed`.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
