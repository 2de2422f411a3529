import { readFlash, type PageQuery } from "@/lib/flash";
import { PRODUCT_LIMITS } from "@/lib/catalog/product-rules";
import type { AdminVariants } from "@/lib/catalog/variants-admin";
import {
  VARIANT_DONE,
  VARIANT_ERRORS,
  VARIANT_FIELDS,
  VARIANTS_FLASH,
  type VariantField,
} from "@/lib/catalog/variant-rules";
import type { AdminGalleryImage } from "@/lib/catalog/gallery-admin";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { VARIANT_LIMITS } from "@/lib/catalog/variants";
import { Flash } from "./flash";
import { buttonClass, Field, fieldClass } from "./product-form";

/** A product's options and variants on its back-office page, and the message of their last outcome. */

/** The outcome of the last options or variants form, from `?variants=`, `?variantsError=` and `?variantsField=`. */
export const variantsFlashOf = (query: PageQuery) =>
  readFlash(query, { done: VARIANT_DONE, errors: VARIANT_ERRORS, fields: VARIANT_FIELDS }, VARIANTS_FLASH);

const secondaryButton =
  "rounded-md border border-stone-400 px-3 py-1.5 text-sm font-medium text-stone-900 hover:bg-stone-100";
const cellInput =
  "w-full min-w-20 rounded-md border border-stone-300 bg-white px-2 py-1 aria-[invalid=true]:border-red-700";

/**
 * A product's options and variants on its back-office page (lib/catalog/variants-admin.ts), plain forms
 * that work without JavaScript: the options (up to 3 names, each with its values separated by
 * commas), and the variants' table, one row each with its SKU, price, stock (the stock shown goes
 * back as `stockShown`) and image, saved together with one reason for the stock changes. A row's
 * archive or restore button posts a form of its own (its `form` attribute); an archived row has no inputs.
 */
export function VariantsManager({
  t,
  productId,
  variants: { options, variants },
  gallery,
  flash,
}: {
  t: Dictionary;
  productId: string;
  variants: AdminVariants;
  gallery: AdminGalleryImage[];
  flash: ReturnType<typeof variantsFlashOf>;
}) {
  const text = t.admin.variantsAdmin;
  const base = `/api/admin/products/${productId}`;
  const invalid = (field: VariantField) => (flash.field === field ? { "aria-invalid": true } : {});
  const slots = Array.from({ length: VARIANT_LIMITS.options }, (_, index) => index + 1);
  const titleOf = (title: string) => title || text.defaultVariant;
  // The last active variant cannot be archived (the product can): no button for it.
  const activeCount = variants.filter((variant) => variant.archivedAt === null).length;
  return (
    <section
      id="variants"
      aria-labelledby="options-title"
      className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h2 id="options-title" className="text-lg font-semibold">
        {text.optionsTitle}
      </h2>
      {flash.error ? (
        <Flash kind="error" testId="variants-flash">
          {text.errors[flash.error]}
          {flash.field && ` ${text.fieldError(text.fields[flash.field])}`}
        </Flash>
      ) : (
        flash.done && (
          <Flash kind="done" testId="variants-flash">
            {text.done[flash.done]}
          </Flash>
        )
      )}
      <form method="post" action={`${base}/options`} className="flex flex-col gap-4">
        <p id="options-hint" className="text-sm text-stone-600">
          {text.optionsHint}
        </p>
        {slots.map((slot) => {
          const option = options[slot - 1];
          return (
            <div key={slot} className="grid grid-cols-1 gap-4 sm:grid-cols-[14rem_1fr]">
              <Field label={text.optionName(slot)} htmlFor={`option${slot}-name`}>
                <input
                  id={`option${slot}-name`}
                  name={`option${slot}Name`}
                  maxLength={VARIANT_LIMITS.nameMax}
                  defaultValue={option?.name}
                  className={fieldClass}
                  {...invalid(`option${slot}Name` as VariantField)}
                />
              </Field>
              <Field label={text.optionValues(slot)} htmlFor={`option${slot}-values`} hint={text.optionValuesHint}>
                <input
                  id={`option${slot}-values`}
                  name={`option${slot}Values`}
                  defaultValue={option?.values.join(", ")}
                  aria-describedby={`option${slot}-values-hint`}
                  className={fieldClass}
                  {...invalid(`option${slot}Values` as VariantField)}
                />
              </Field>
            </div>
          );
        })}
        <div>
          <button type="submit" className={buttonClass}>
            {text.saveOptions}
          </button>
        </div>
      </form>

      <form
        method="post"
        action={`${base}/variants`}
        aria-labelledby="variants-title"
        className="flex flex-col gap-4 border-t border-stone-200 pt-4"
      >
        <h2 id="variants-title" className="text-lg font-semibold">
          {text.variantsTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.variantsHint}</p>
        {/* Positioned, so that the rows' visually hidden labels stay inside it and do not widen the page. */}
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="variants-table">
            <thead>
              <tr className="border-b border-stone-200">
                <th scope="col" className="p-2">
                  {text.variant}
                </th>
                <th scope="col" className="p-2">
                  {text.sku}
                </th>
                <th scope="col" className="p-2">
                  {text.price}
                </th>
                <th scope="col" className="p-2">
                  {text.stock}
                </th>
                <th scope="col" className="p-2">
                  {text.image}
                </th>
                <th scope="col" className="p-2">
                  {text.state}
                </th>
              </tr>
            </thead>
            <tbody>
              {variants.map((variant) => {
                const title = titleOf(variant.title);
                const id = (name: string) => `variant-${variant.id}-${name}`;
                const archived = variant.archivedAt !== null;
                return (
                  <tr
                    key={variant.id}
                    data-testid="variant-row"
                    data-variant-id={variant.id}
                    data-archived={archived ? "true" : undefined}
                    className="border-b border-stone-100 align-top"
                  >
                    <th scope="row" className="p-2 font-medium break-words">
                      {title}
                    </th>
                    {archived ? (
                      <>
                        <td className="p-2">{variant.sku}</td>
                        <td className="p-2 tabular-nums">{variant.priceAoa}</td>
                        <td className="p-2 tabular-nums">{variant.stock}</td>
                        <td className="p-2" />
                      </>
                    ) : (
                      <>
                        <td className="p-2">
                          <input type="hidden" name="variantId" value={variant.id} />
                          <label htmlFor={id("sku")} className="sr-only">
                            {text.skuOf(title)}
                          </label>
                          <input
                            id={id("sku")}
                            name="sku"
                            maxLength={VARIANT_LIMITS.skuMax}
                            defaultValue={variant.sku ?? ""}
                            autoCapitalize="none"
                            spellCheck={false}
                            className={`${cellInput} font-mono`}
                            {...invalid("sku")}
                          />
                        </td>
                        <td className="p-2">
                          <label htmlFor={id("price")} className="sr-only">
                            {text.priceOf(title)}
                          </label>
                          <input
                            id={id("price")}
                            name="priceAoa"
                            type="number"
                            inputMode="numeric"
                            required
                            min={1}
                            max={PRODUCT_LIMITS.priceMax}
                            step={1}
                            defaultValue={variant.priceAoa}
                            className={cellInput}
                            {...invalid("priceAoa")}
                          />
                        </td>
                        <td className="p-2">
                          <label htmlFor={id("stock")} className="sr-only">
                            {text.stockOf(title)}
                          </label>
                          <input
                            id={id("stock")}
                            name="stock"
                            type="number"
                            inputMode="numeric"
                            required
                            min={0}
                            max={PRODUCT_LIMITS.stockMax}
                            step={1}
                            defaultValue={variant.stock}
                            className={cellInput}
                            {...invalid("stock")}
                          />
                          <input type="hidden" name="stockShown" value={variant.stock} />
                        </td>
                        <td className="p-2">
                          <label htmlFor={id("image")} className="sr-only">
                            {text.imageOf(title)}
                          </label>
                          <select
                            id={id("image")}
                            name="imagePath"
                            defaultValue={variant.imagePath ?? ""}
                            className={cellInput}
                            {...invalid("imagePath")}
                          >
                            <option value="">{text.productImage}</option>
                            {gallery.map((image, index) => (
                              <option key={image.id} value={image.path}>
                                {text.galleryImage(index + 1, image.alt)}
                              </option>
                            ))}
                          </select>
                        </td>
                      </>
                    )}
                    <td className="p-2">
                      <div className="flex flex-col items-start gap-1">
                        <span>{archived ? text.archived : text.active}</span>
                        {(archived || activeCount > 1) && (
                          <button type="submit" form={`variant-${variant.id}-state`} className={secondaryButton}>
                            {archived ? text.restore : text.archive}
                            <span className="sr-only">{text.archiveOf(title)}</span>
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p className="text-sm text-stone-600">{text.archiveHint}</p>
        <Field label={text.stockReason} htmlFor="variants-stock-reason">
          <input
            id="variants-stock-reason"
            name="stockReason"
            maxLength={PRODUCT_LIMITS.reasonMax}
            className={fieldClass}
            {...invalid("stockReason")}
          />
        </Field>
        <div>
          <button type="submit" className={buttonClass}>
            {text.save}
          </button>
        </div>
      </form>
      {/* A row's archive or restore button submits one of these (its `form` attribute): forms cannot nest. */}
      {variants.map((variant) => (
        <form
          key={variant.id}
          id={`variant-${variant.id}-state`}
          method="post"
          action={`${base}/variants/${variant.id}/${variant.archivedAt ? "restore" : "archive"}`}
          hidden
        />
      ))}
    </section>
  );
}
