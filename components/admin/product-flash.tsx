import { readFlash, type PageQuery } from "@/lib/flash";
import { PRODUCT_DONE, PRODUCT_ERRORS, PRODUCT_FIELDS, type ProductField } from "@/lib/catalog/product-rules";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";

/**
 * The message of a product page's last outcome (the product form, stock, archive), and the labels
 * of the fields an error may name.
 */

/** The outcome of the last product action, from its redirect's `?done=`, `?error=` and `?field=`. */
export const productFlashOf = (query: PageQuery) =>
  readFlash(query, { done: PRODUCT_DONE, errors: PRODUCT_ERRORS, fields: PRODUCT_FIELDS });

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
