import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * A product card's "add to cart": a plain form posting one unit to the cart's server action
 * (app/actions/cart.ts, handed in by the page, so components never import from app/), which works
 * before (or without) JavaScript. The product page chooses a variant and a quantity with its own
 * form (components/catalog/product-purchase.tsx).
 */
export function AddToCartForm({
  t,
  product,
  returnTo,
  action,
}: {
  t: Dictionary;
  product: { id: string; name: string; stock: number };
  returnTo: string;
  action: (formData: FormData) => Promise<void>;
}) {
  const soldOut = product.stock <= 0;
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <input type="hidden" name="quantity" value="1" />
      <button
        type="submit"
        disabled={soldOut}
        aria-label={soldOut ? undefined : t.catalog.addNamedToCart(product.name)}
        className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
      >
        {soldOut ? t.catalog.soldOut : t.catalog.addToCart}
      </button>
    </form>
  );
}
