import Image from "next/image";
import Link from "next/link";
import { AddToCartForm } from "@/components/add-to-cart-form";
import type { CatalogProduct } from "@/lib/catalog";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { formatAoa } from "@/lib/money";

export function ProductCard({
  product,
  t,
  addToCart,
}: {
  product: CatalogProduct;
  t: Dictionary;
  /** The cart's server action (app/cart/actions.ts). */
  addToCart: (formData: FormData) => Promise<void>;
}) {
  const href = `/products/${product.slug}`;
  return (
    <article
      data-testid="product-card"
      className="flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm"
    >
      <Image
        src={product.image}
        alt={product.name}
        width={480}
        height={360}
        className="aspect-[4/3] w-full bg-stone-100 object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="font-medium leading-snug">
          <Link href={href} className="hover:underline">
            {product.name}
          </Link>
        </h2>
        <p className="line-clamp-2 text-sm text-stone-600">{product.description}</p>
        <div className="mt-auto flex items-baseline justify-between pt-2">
          <span className="text-lg font-semibold" data-testid="price">
            {formatAoa(product.priceAoa)}
          </span>
          <span className="text-xs text-stone-500">
            {product.stock > 0 ? t.catalog.inStock(product.stock) : t.catalog.soldOut}
          </span>
        </div>
        <AddToCartForm t={t} product={product} returnTo="/" action={addToCart} />
      </div>
    </article>
  );
}
