import type { ReactNode } from "react";
import type { AdminProduct } from "@/lib/catalog/products-admin";
import { PRODUCT_LIMITS, type ProductField } from "@/lib/catalog/product-rules";
import type { CategoryNode } from "@/lib/catalog/categories";
import { GALLERY_LIMITS } from "@/lib/catalog/gallery";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * The product form of the back office, to create a product (`product` absent) or edit one. A
 * multipart form, for the image; it posts to app/api/admin/products (lib/catalog/products-admin.ts checks
 * everything again). When editing, the stock it shows goes back as `stockShown`, so a change is
 * refused if a checkout took units meanwhile rather than giving them back. The categories are
 * checkboxes under their top-level category, with an empty `categoryIds` always sent so that
 * ticking none clears them; a new image comes with its text alternative. A product with options
 * has no price or stock fields: each of its variants has its own.
 */

export const fieldClass =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 aria-[invalid=true]:border-red-700";
export const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";

export function ProductForm({
  t,
  product,
  categories,
  categoryIds = [],
  hasOptions = false,
  invalid,
}: {
  t: Dictionary;
  product?: AdminProduct;
  /** The category tree (lib/catalog/categories.ts categoryTree), and the ones the product is in. */
  categories: CategoryNode[];
  categoryIds?: string[];
  /** A product with options prices and stocks each variant (components/admin/variants-manager.tsx): no price or stock here. */
  hasOptions?: boolean;
  /** The field the last attempt was refused for. */
  invalid?: ProductField;
}) {
  const text = t.admin.products;
  const id = (name: string) => `product-${name}`;
  const invalidProps = (field: ProductField) => (invalid === field ? { "aria-invalid": true } : {});
  return (
    <form
      method="post"
      action={product ? `/api/admin/products/${product.id}` : "/api/admin/products"}
      encType="multipart/form-data"
      className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
    >
      <Field label={text.fields.name} htmlFor={id("name")}>
        <input
          id={id("name")}
          name="name"
          required
          maxLength={PRODUCT_LIMITS.nameMax}
          defaultValue={product?.name}
          className={fieldClass}
          {...invalidProps("name")}
        />
      </Field>
      <Field label={text.fields.slug} htmlFor={id("slug")} hint={text.fieldHints.slug}>
        <input
          id={id("slug")}
          name="slug"
          required
          maxLength={PRODUCT_LIMITS.slugMax}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={product?.slug}
          aria-describedby={`${id("slug")}-hint`}
          className={`${fieldClass} font-mono`}
          {...invalidProps("slug")}
        />
      </Field>
      <Field label={text.fields.description} htmlFor={id("description")}>
        <textarea
          id={id("description")}
          name="description"
          required
          rows={4}
          maxLength={PRODUCT_LIMITS.descriptionMax}
          defaultValue={product?.description}
          className={fieldClass}
          {...invalidProps("description")}
        />
      </Field>
      {!hasOptions && (
        <>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label={text.fields.priceAoa} htmlFor={id("price")}>
              <input
                id={id("price")}
                name="priceAoa"
                type="number"
                inputMode="numeric"
                required
                min={1}
                max={PRODUCT_LIMITS.priceMax}
                step={1}
                defaultValue={product?.priceAoa}
                className={fieldClass}
                {...invalidProps("priceAoa")}
              />
            </Field>
            <Field label={text.fields.stock} htmlFor={id("stock")} hint={product ? text.stockHint : undefined}>
              <input
                id={id("stock")}
                name="stock"
                type="number"
                inputMode="numeric"
                required
                min={0}
                max={PRODUCT_LIMITS.stockMax}
                step={1}
                defaultValue={product?.stock ?? 0}
                aria-describedby={product ? `${id("stock")}-hint` : undefined}
                className={fieldClass}
                {...invalidProps("stock")}
              />
            </Field>
          </div>
          {product && (
            <>
              <input type="hidden" name="stockShown" value={product.stock} />
              <Field label={text.fields.stockReason} htmlFor={id("stock-reason")}>
                <input
                  id={id("stock-reason")}
                  name="stockReason"
                  maxLength={PRODUCT_LIMITS.reasonMax}
                  className={fieldClass}
                  {...invalidProps("stockReason")}
                />
              </Field>
            </>
          )}
        </>
      )}
      <CategoryChoices
        idPrefix="product"
        legend={text.fields.categories}
        hint={categories.length === 0 ? text.noCategories : text.categoriesHint}
        categories={categories}
        selected={categoryIds}
        invalid={invalid === "categories"}
        testId="product-categories"
      />
      <Field
        label={product ? text.newImage : text.fields.image}
        htmlFor={id("image")}
        hint={product ? text.newImageHint : text.imageHint}
      >
        <input
          id={id("image")}
          name="image"
          type="file"
          accept="image/png,image/jpeg,image/webp"
          aria-describedby={`${id("image")}-hint`}
          className="w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-200 file:px-3 file:py-2"
          {...invalidProps("image")}
        />
      </Field>
      <Field
        label={product ? text.newImageAlt : text.fields.imageAlt}
        htmlFor={id("image-alt")}
        hint={product ? text.newImageAltHint : text.imageAltHint}
      >
        <input
          id={id("image-alt")}
          name="imageAlt"
          maxLength={GALLERY_LIMITS.altMax}
          aria-describedby={`${id("image-alt")}-hint`}
          className={fieldClass}
          {...invalidProps("imageAlt")}
        />
      </Field>
      <div>
        <button type="submit" className={buttonClass}>
          {product ? text.save : text.create}
        </button>
      </div>
    </form>
  );
}

/**
 * A choice of categories (a product's, a promo code's): a checkbox each, sub-categories listed
 * under their top-level category, in a fieldset whose legend names them. An empty `categoryIds`
 * is always sent, so that ticking none says so (lib/text-input.ts formUuidList).
 */
export function CategoryChoices({
  idPrefix,
  legend,
  hint,
  categories,
  selected,
  invalid,
  errorId,
  testId,
}: {
  /** Unique on the page: the hint's id is `<idPrefix>-categories-hint`. */
  idPrefix: string;
  legend: string;
  hint: string;
  categories: CategoryNode[];
  selected: readonly string[];
  invalid: boolean;
  /** The id of the message that says what is wrong with them, when `invalid`. */
  errorId?: string;
  testId: string;
}) {
  const hintId = `${idPrefix}-categories-hint`;
  const box = (category: { id: string; name: string }, label: string) => (
    <label className="flex items-center gap-2 py-0.5">
      <input
        type="checkbox"
        name="categoryIds"
        value={category.id}
        defaultChecked={selected.includes(category.id)}
        className="size-4 accent-brand-700"
      />
      <span className="break-words">{label}</span>
    </label>
  );
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-1"
      aria-describedby={invalid && errorId ? `${hintId} ${errorId}` : hintId}
      data-testid={testId}
      data-invalid={invalid ? "true" : undefined}
    >
      <legend className={`text-sm font-medium ${invalid ? "text-red-700" : ""}`}>{legend}</legend>
      <p id={hintId} className="text-sm text-stone-600">
        {hint}
      </p>
      {/* Sent even when no box is ticked: then there are none. */}
      <input type="hidden" name="categoryIds" value="" />
      {categories.length > 0 && (
        <ul className="flex flex-col gap-1">
          {categories.map((node) => (
            <li key={node.id}>
              {box(node, node.name)}
              {node.children.length > 0 && (
                <ul className="ml-6 flex flex-col border-l border-stone-200 pl-3">
                  {node.children.map((child) => (
                    <li key={child.id}>{box(child, child.name)}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

export function Field({
  label,
  htmlFor,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${htmlFor}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * On or off (`active`): a hidden "false" first, so that an unticked box still says so
 * (lib/text-input.ts activeFlag reads the last value).
 */
export function ActiveBox({ id, label, checked }: { id: string; label: string; checked: boolean }) {
  return (
    <div className="flex items-center gap-2">
      <input type="hidden" name="active" value="false" />
      <input id={id} type="checkbox" name="active" value="on" defaultChecked={checked} className="h-4 w-4" />
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
}
