import { MAX_LINE_QUANTITY } from "@/lib/checkout/limits";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * A plain form posting to the cart's server action (app/cart/actions.ts, handed in by the page,
 * so components never import from app/): it works before (or without) JavaScript.
 * With `withQuantity`, the shopper picks how many (1 to the stock, at most MAX_LINE_QUANTITY).
 */
export function AddToCartForm({
  t,
  product,
  returnTo,
  withQuantity = false,
  action,
}: {
  t: Dictionary;
  product: { id: string; name: string; stock: number };
  returnTo: string;
  withQuantity?: boolean;
  action: (formData: FormData) => Promise<void>;
}) {
  const soldOut = product.stock <= 0;
  const max = Math.max(1, Math.min(product.stock, MAX_LINE_QUANTITY));
  const quantityId = `quantity-${product.id}`;
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {withQuantity ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={quantityId} className="text-sm font-medium">
            {t.product.quantity}
          </label>
          <input
            id={quantityId}
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={max}
            step={1}
            defaultValue={1}
            required
            disabled={soldOut}
            aria-describedby={`${quantityId}-hint`}
            className="w-24 rounded-md border border-stone-300 px-3 py-2 text-base"
          />
          <span id={`${quantityId}-hint`} className="text-xs text-stone-500">
            {t.product.quantityHint(max)}
          </span>
        </div>
      ) : (
        <input type="hidden" name="quantity" value="1" />
      )}
      <button
        type="submit"
        disabled={soldOut}
        aria-label={withQuantity || soldOut ? undefined : t.catalog.addNamedToCart(product.name)}
        className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
      >
        {soldOut ? t.catalog.soldOut : t.catalog.addToCart}
      </button>
    </form>
  );
}
