import { flashOf } from "@/lib/orders/order-flash";
import { PRODUCT_DONE, PRODUCT_ERRORS, PRODUCT_FIELDS, type ProductField } from "@/lib/catalog/product-rules";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";

type Query = Record<string, string | string[] | undefined>;

/** The outcome of the last product action, from its redirect's `?done=`, `?error=` and `?field=`. */
export function productFlashOf(query: Query) {
  return {
    done: flashOf(query.done, PRODUCT_DONE),
    error: flashOf(query.error, PRODUCT_ERRORS),
    field: flashOf(query.field, PRODUCT_FIELDS),
  };
}

/** The label of the field an error names: the form's own (lib/i18n, admin.products.fields). */
export function productFieldLabel(t: Dictionary, field: ProductField): string {
  return t.admin.products.fields[field];
}

export function ProductFlash({ t, flash }: { t: Dictionary; flash: ReturnType<typeof productFlashOf> }) {
  const text = t.admin.products;
  if (flash.error)
    return (
      <Flash kind="error" testId="product-flash">
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(productFieldLabel(t, flash.field))}`}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="product-flash">
        {text.done[flash.done]}
      </Flash>
    );
  return null;
}
