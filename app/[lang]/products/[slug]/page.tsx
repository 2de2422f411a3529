import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { addToCartAction } from "@/app/actions/cart";
import { CartNotice } from "@/components/cart/cart-notice";
import { ProductGallery } from "@/components/catalog/product-gallery";
import { ProductPurchase } from "@/components/catalog/product-purchase";
import { findProductBySlug, recentlyUpdatedProductSlugs } from "@/lib/catalog/products";
import { catalogParamsAtBuild, PRERENDERED_PRODUCTS } from "@/lib/catalog/cached-pages";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { productGallery } from "@/lib/catalog/gallery";
import { langParams, routeLang } from "@/lib/http/route-lang";
import { lineName } from "@/lib/catalog/variants";
import { jsonForScript, productJsonLd, productMetadata, productUrl } from "@/lib/seo/seo";
import { whatsappLink } from "@/lib/whatsapp";

// Served from the cache in every language, like the catalogue (lib/catalog/cached-pages.ts): the
// PRERENDERED_PRODUCTS changed last are built ahead, every other product is rendered on its first
// visit, then cached.
export const revalidate = 30;
// The cart actions of this page may end expired stock holds, asking the service once (1.5 s at most).
export const maxDuration = 30;

export function generateStaticParams() {
  return catalogParamsAtBuild(async () => {
    const slugs = await recentlyUpdatedProductSlugs(PRERENDERED_PRODUCTS);
    return langParams().flatMap(({ lang }) => slugs.map((slug) => ({ lang, slug })));
  });
}

const SLUG = /^[a-z0-9-]{1,120}$/;

interface Props {
  params: Promise<{ lang: string; slug: string }>;
}

async function productOf(params: Props["params"]) {
  const { slug } = await params;
  return SLUG.test(slug) ? findProductBySlug(slug) : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = await productOf(params);
  return product ? productMetadata(product, getEnv().appUrl) : {};
}

export default async function ProductPage({ params }: Props) {
  const [{ lang, t }, product] = await Promise.all([routeLang(params), productOf(params)]);
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
      <Link href="/" className="text-sm text-brand-700 hover:underline">
        {t.product.backToCatalog}
      </Link>
      <CartNotice lang={lang} />
      <div className="grid gap-8 md:grid-cols-2">
        <ProductGallery t={t} images={gallery} productId={product.id} productName={product.name} />
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
            action={addToCartAction}
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
