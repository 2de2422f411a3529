import { ShopLink } from "@/components/ui/shop-link";
import { AddToCartForm } from "@/components/cart/add-to-cart-form";
import { ProductImage } from "@/components/catalog/product-image";
import { stockLabel } from "@/components/catalog/stock-label";
import type { CatalogProduct } from "@/lib/catalog/products";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { formatAoa } from "@/lib/money";

export function ProductCard({
  product,
  t,
  addToCart,
  lowStockThreshold,
  returnTo = "/",
  priority = false,
  saveData = false,
}: {
  product: CatalogProduct;
  t: Dictionary;
  /** LOW_STOCK_THRESHOLD (lib/env.ts). */
  lowStockThreshold: number;
  /** The listing the cart's action comes back to. */
  returnTo?: string;
  /** The first cards of a listing: their images load first (the page's largest paint). */
  priority?: boolean;
  /** The shopper saves data (docs/storefront.md): no picture, a card of text. */
  saveData?: boolean;
  /** The cart's server action (app/cart/actions.ts). */
  addToCart: (formData: FormData) => Promise<void>;
}) {
  const href = `/products/${product.slug}`;
  return (
    <article
      data-testid="product-card"
      className="flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm"
    >
      {/* Saving data, the card goes without its picture: the product's page has it (docs/storefront.md). */}
      {saveData ? null : (
        <ProductImage
          src={product.image}
          alt={product.name}
          name={product.name}
          width={480}
          height={360}
          sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="aspect-[4/3] w-full bg-stone-100 object-cover"
        />
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="font-medium leading-snug">
          <ShopLink href={href} className="hover:underline">
            {product.name}
          </ShopLink>
        </h2>
        <p className="line-clamp-2 text-sm text-stone-600">{product.description}</p>
        <div className="mt-auto flex items-baseline justify-between pt-2">
          <span className="text-lg font-semibold" data-testid="price">
            {product.pricesVary ? t.browse.priceFrom(formatAoa(product.priceAoa)) : formatAoa(product.priceAoa)}
          </span>
          <span className="text-xs text-stone-500" data-testid="stock">
            {stockLabel(t, product.stock, lowStockThreshold)}
          </span>
        </div>
        {product.hasOptions ? (
          // The shopper chooses the size, the colour… on the product's page.
          <ShopLink
            href={href}
            aria-label={t.browse.chooseOptionsFor(product.name)}
            className="self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
            data-testid="choose-options"
          >
            {t.browse.chooseOptions}
          </ShopLink>
        ) : (
          <AddToCartForm t={t} product={product} returnTo={returnTo} action={addToCart} />
        )}
      </div>
    </article>
  );
}
