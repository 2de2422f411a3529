import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { addToCartAction } from "@/app/actions/cart";
import { AddToCartForm } from "@/components/add-to-cart-form";
import { CartNotice } from "@/components/cart-notice";
import { stockLabel } from "@/components/catalog/stock-label";
import { ProductGallery } from "@/components/product-gallery";
import { findProductBySlug, recentlyUpdatedProductSlugs } from "@/lib/catalog";
import { catalogParamsAtBuild, PRERENDERED_PRODUCTS } from "@/lib/catalog-pages";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { productGallery } from "@/lib/gallery";
import { langParams, routeLang } from "@/lib/i18n/route-lang";
import { formatAoa } from "@/lib/money";
import { jsonForScript, productJsonLd, productMetadata } from "@/lib/seo";

// Served from the cache in every language, like the catalogue (lib/catalog-pages.ts): the
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
  const gallery = await productGallery(db(), product);
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
        <ProductGallery t={t} images={gallery} productId={product.id} />
        <div className="flex flex-col gap-4">
          <h1 className="text-2xl font-semibold tracking-tight">{product.name}</h1>
          <p className="text-stone-700">{product.description}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-stone-500">{t.product.price}</dt>
            <dd className="text-xl font-semibold" data-testid="price">
              {formatAoa(product.priceAoa)}
            </dd>
            <dt className="text-stone-500">{t.product.availability}</dt>
            <dd data-testid="stock">{stockLabel(t, product.stock, getEnv().catalog.lowStockThreshold)}</dd>
          </dl>
          <AddToCartForm
            t={t}
            product={product}
            returnTo={`/products/${product.slug}`}
            withQuantity
            action={addToCartAction}
          />
        </div>
      </div>
    </article>
  );
}
