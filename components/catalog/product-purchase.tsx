"use client";

import { useEffect, useId, useState } from "react";
import { stockLabel } from "@/components/catalog/stock-label";
import type { Lang } from "@/lib/i18n/languages";
import { storefrontTexts } from "@/lib/i18n/storefront-texts";
import { formatAoa } from "@/lib/money";
import {
  findVariant,
  OPTION_FIELD_PREFIX,
  type ProductOptionDefinition,
  type ShopVariant,
  valueAvailability,
  type VariantOptions,
} from "@/lib/catalog/variants";

/** The query parameter that names the chosen variant, so a choice can be shared and survives a reload. */
export const VARIANT_PARAM = "variant";

/**
 * What a shopper chooses and buys on a product page: a radio group per option (Tamanho, Cor…),
 * each with its visible legend, and the price, availability, SKU and image of the chosen variant.
 *
 * The page around it is one cached page for every shopper; the choice lives here and in the URL
 * (`?variant=<id>`, read after hydration and written on every change), never in a per-request
 * render. The radios are fields of the add-to-cart form (`option:<name>`), so without JavaScript
 * the form still sends the choice and the server resolves it (lib/cart/cart-changes.ts): a combination that
 * does not exist or is sold out is refused there as here, where its button is disabled and its
 * values say so. The chosen variant's image is shown by choosing its thumbnail in the gallery
 * (components/catalog/product-gallery.tsx, `data-path`).
 */
export function ProductPurchase({
  lang,
  product,
  options,
  variants,
  lowStockThreshold,
  maxUnits,
  returnTo,
  action,
}: {
  lang: Lang;
  product: { id: string; name: string };
  options: readonly ProductOptionDefinition[];
  variants: readonly ShopVariant[];
  lowStockThreshold: number;
  /** The most units of a variant one order may hold (MAX_UNITS_PER_LINE). */
  maxUnits: number;
  returnTo: string;
  action: (formData: FormData) => Promise<void>;
}) {
  const t = storefrontTexts(lang);
  const id = useId();
  const initial = variants.find((variant) => variant.stock > 0) ?? variants[0];
  const [chosen, setChosen] = useState<VariantOptions>(initial?.options ?? {});

  // After hydration: the choice the URL names (a shared link, a reload).
  useEffect(() => {
    const named = new URLSearchParams(window.location.search).get(VARIANT_PARAM);
    const variant = named ? findVariant(variants, { variantId: named }) : null;
    if (variant) setChosen(variant.options);
  }, [variants]);

  const variant = findVariant(variants, { options: chosen });

  // The URL and the gallery follow the choice.
  useEffect(() => {
    if (!variant || options.length === 0) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get(VARIANT_PARAM) !== variant.id) {
      url.searchParams.set(VARIANT_PARAM, variant.id);
      window.history.replaceState(window.history.state, "", url);
    }
    // A variant without an image (nor its product) keeps the gallery as it is.
    const thumbnail =
      variant.image === null
        ? null
        : document.querySelector<HTMLInputElement>(
            `input[name="gallery-${CSS.escape(product.id)}"][data-path="${CSS.escape(variant.image)}"]`,
          );
    if (thumbnail) thumbnail.checked = true;
  }, [variant, options.length, product.id]);

  const stock = variant?.stock ?? 0;
  const buyable = variant !== null && stock > 0;
  const max = Math.max(1, Math.min(stock, maxUnits));
  const quantityId = `${id}-quantity`;

  return (
    <form action={action} className="flex flex-col gap-4" data-testid="product-purchase">
      <input type="hidden" name="productId" value={product.id} />
      <input
        type="hidden"
        name="returnTo"
        value={variant && options.length > 0 ? `${returnTo}?${VARIANT_PARAM}=${variant.id}` : returnTo}
      />
      {options.length > 0 && (
        <div className="flex flex-col gap-4" role="group" aria-label={t.product.options}>
          {options.map((option) => (
            <fieldset key={option.name} className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">
                {option.name}
                {chosen[option.name] ? (
                  <span className="font-normal text-stone-600">: {chosen[option.name]}</span>
                ) : null}
              </legend>
              <div className="flex flex-wrap gap-2">
                {option.values.map((value) => {
                  const availability = valueAvailability(variants, options, chosen, option.name, value);
                  const note =
                    availability === "sold_out"
                      ? t.product.valueSoldOut
                      : availability === "missing"
                        ? t.product.valueMissing
                        : null;
                  return (
                    <label key={value} className="relative cursor-pointer">
                      <input
                        type="radio"
                        name={`${OPTION_FIELD_PREFIX}${option.name}`}
                        value={value}
                        checked={chosen[option.name] === value}
                        onChange={() => setChosen({ ...chosen, [option.name]: value })}
                        className="peer sr-only"
                      />
                      <span
                        className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md border px-3 py-2 text-sm peer-checked:border-brand-700 peer-checked:ring-2 peer-checked:ring-brand-700 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-stone-900 ${
                          note
                            ? "border-stone-300 text-stone-600 line-through decoration-stone-500"
                            : "border-stone-400"
                        }`}
                      >
                        {value}
                        {note ? <span className="sr-only">({note})</span> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          ))}
        </div>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" aria-live="polite">
        <dt className="text-stone-600">{t.product.price}</dt>
        <dd className="text-xl font-semibold tabular-nums" data-testid="price">
          {variant ? formatAoa(variant.priceAoa) : "—"}
        </dd>
        <dt className="text-stone-600">{t.product.availability}</dt>
        <dd data-testid="stock">{variant ? stockLabel(t, stock, lowStockThreshold) : t.product.combinationMissing}</dd>
        {variant?.sku ? (
          <>
            <dt className="text-stone-600">{t.product.sku}</dt>
            <dd data-testid="sku" className="font-mono text-sm">
              {variant.sku}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="flex flex-wrap items-end gap-3">
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
            disabled={!buyable}
            aria-describedby={`${quantityId}-hint`}
            className="w-24 rounded-md border border-stone-300 px-3 py-2 text-base"
          />
          <span id={`${quantityId}-hint`} className="text-xs text-stone-600">
            {t.product.quantityHint(max)}
          </span>
        </div>
        <button
          type="submit"
          disabled={!buyable}
          className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
        >
          {!variant ? t.product.combinationMissing : stock > 0 ? t.catalog.addToCart : t.catalog.soldOut}
        </button>
      </div>
    </form>
  );
}
