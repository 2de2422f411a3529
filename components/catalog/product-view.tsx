import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CartNotice } from "@/components/cart/cart-notice";
import { ProductGallery } from "@/components/catalog/product-gallery";
import { ProductPurchase } from "@/components/catalog/product-purchase";
import { ShopLink } from "@/components/ui/shop-link";
import { productGallery } from "@/lib/catalog/gallery";
import { findProductBySlug } from "@/lib/catalog/products";
import { lineName } from "@/lib/catalog/variants";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { jsonForScript, productJsonLd, productMetadata, productUrl } from "@/lib/seo/seo";
import { whatsappLink } from "@/lib/whatsapp";

/**
 * A product's page (app/[lang]/(shop)/products/[slug]/page.tsx, and its form for a shopper saving data,
 * app/[lang]/(shop)/save-data/products/[slug]/page.tsx): its gallery, the option picker and "add to
 * cart", its JSON-LD.
 */

const SLUG = /^[a-z0-9-]{1,120}$/;

const productOf = (slug: string) => (SLUG.test(slug) ? findProductBySlug(slug) : null);

export async function productPageMetadata(slug: string): Promise<Metadata> {
  const product = await productOf(slug);
  return product ? productMetadata(product, getEnv().appUrl) : {};
}

export async function ProductView({
  lang,
  t,
  slug,
  addToCart,
  saveData = false,
}: {
  lang: Lang;
  t: Dictionary;
  slug: string;
  /** The cart's server action (app/actions/cart.ts), handed in by the page. */
  addToCart: (formData: FormData) => Promise<void>;
  /** The shopper saves data (docs/storefront.md): a lighter gallery. */
  saveData?: boolean;
}) {
  const product = await productOf(slug);
  if (!product) notFound();
  const images = await productGallery(db(), product);
  // A variant's own image that the gallery does not have joins it, so choosing the variant can show it.
  const gallery = [
    ...images,
    ...product.variants.flatMap((variant, i, all) =>
      variant.image !== null &&
      !images.some((image) => image.path === variant.image) &&
      all.findIndex((other) => other.image === variant.image) === i
        ? [{ path: variant.image, alt: lineName(product.name, variant.title) }]
        : [],
    ),
  ];
  // A setting of the build and the server alike, so the cached page may carry it.
  const whatsapp = getEnv().shop.whatsapp;
  return (
    <article className="flex flex-col gap-6">
      {/* Product JSON-LD for search engines: a data block, never executed, so it needs no CSP nonce. */}
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonForScript(productJsonLd(product, getEnv().appUrl)) }}
      />
      <ShopLink href="/" className="text-sm text-brand-700 hover:underline">
        {t.product.backToCatalog}
      </ShopLink>
      <CartNotice lang={lang} />
      <div className="grid gap-8 md:grid-cols-2">
        <ProductGallery t={t} images={gallery} productId={product.id} productName={product.name} saveData={saveData} />
        <div className="flex flex-col gap-4">
          <h1 className="text-2xl font-semibold tracking-tight">{product.name}</h1>
          <p className="text-stone-700">{product.description}</p>
          <ProductPurchase
            lang={lang}
            product={{ id: product.id, name: product.name }}
            options={product.options}
            variants={product.variants}
            lowStockThreshold={getEnv().catalog.lowStockThreshold}
            maxUnits={getEnv().orders.units.perLine}
            returnTo={`/products/${product.slug}`}
            action={addToCart}
          />
          {whatsapp && (
            <a
              href={whatsappLink(
                whatsapp,
                t.product.whatsappText(product.name, productUrl(getEnv().appUrl, product.slug)),
              )}
              target="_blank"
              rel="noopener"
              data-testid="product-whatsapp"
              className="self-start text-sm text-brand-700 hover:underline"
            >
              {t.product.askOnWhatsapp}
            </a>
          )}
        </div>
      </div>
    </article>
  );
}
