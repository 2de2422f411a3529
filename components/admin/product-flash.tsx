import { PRODUCT_DONE, PRODUCT_ERRORS, PRODUCT_FIELDS, type ProductField } from "@/lib/admin/products";
import type { Dictionary } from "@/lib/i18n/dictionaries";

type Query = Record<string, string | string[] | undefined>;

/** One of `allowed`, from a query parameter, or undefined: anything else in the address is ignored. */
function flagOf<T extends string>(value: string | string[] | undefined, allowed: readonly T[]): T | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return allowed.find((flag) => flag === first);
}

/** The outcome of the last product action, from its redirect's `?done=`, `?error=` and `?field=`. */
export function productFlashOf(query: Query) {
  return {
    done: flagOf(query.done, PRODUCT_DONE),
    error: flagOf(query.error, PRODUCT_ERRORS),
    field: flagOf(query.field, PRODUCT_FIELDS),
  };
}

/** The field labels an error may name. */
export function productFieldLabel(t: Dictionary, field: ProductField): string {
  const text = t.admin.products;
  const labels: Record<ProductField, string> = {
    name: text.name,
    slug: text.slug,
    description: text.description,
    priceAoa: text.price,
    stock: text.stock,
    stockReason: text.stockReason,
    delta: text.delta,
    reason: text.reason,
    image: text.image,
  };
  return labels[field];
}

export function ProductFlash({ t, flash }: { t: Dictionary; flash: ReturnType<typeof productFlashOf> }) {
  const text = t.admin.products;
  if (flash.error)
    return (
      <p role="alert" data-testid="product-flash" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(productFieldLabel(t, flash.field))}`}
      </p>
    );
  if (flash.done)
    return (
      <p role="status" data-testid="product-flash" className="rounded-md bg-green-50 px-3 py-2 text-green-900">
        {text.done[flash.done]}
      </p>
    );
  return null;
}
