import type { Metadata } from "next";
import { ProductImage } from "@/components/catalog/product-image";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GalleryManager, galleryFlashOf } from "@/components/admin/gallery-manager";
import { ProductFlash, productFlashOf } from "@/components/admin/product-flash";
import { buttonClass, Field, fieldClass, ProductForm } from "@/components/admin/product-form";
import { VariantsManager, variantsFlashOf } from "@/components/admin/variants-manager";
import { requireStaff } from "@/lib/http/admin-guard";
import { luandaSecond } from "@/lib/luanda-time";
import { adminGallery } from "@/lib/catalog/gallery-admin";
import { adminProductDetail } from "@/lib/catalog/product-views-admin";
import { PRODUCT_LIMITS } from "@/lib/catalog/product-rules";
import { adminVariants } from "@/lib/catalog/variants-admin";
import { categoryTree } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { shownImage } from "@/lib/catalog/gallery";
import { getLang } from "@/lib/http/request-lang";

// One product in the back office (lib/catalog/products-admin.ts): its form with its categories and the
// image upload, its gallery (lib/catalog/gallery-admin.ts), its options and variants (lib/catalog/variants-admin.ts), the stock adjustment with a reason and its
// history, and archive or restore (never delete).
export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;

// The title reads nothing from the database: metadata is resolved beside the page, before its
// session guard could refuse the request.
export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.products.title, robots: { index: false, follow: false } };
}

export default async function AdminProductPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/products/[id]");
  const [{ t }, { id }, query] = await Promise.all([getLang(), params, searchParams]);
  const detail = await adminProductDetail(db(), id);
  if (!detail) notFound();
  const { product, adjustments, orderLines, categoryIds } = detail;
  const [categories, gallery, variants] = await Promise.all([
    categoryTree(db()),
    adminGallery(db(), product.id),
    adminVariants(db(), product.id),
  ]);
  if (!variants) notFound();
  const hasOptions = variants.options.length > 0;
  const activeVariants = variants.variants.filter((variant) => variant.archivedAt === null);
  const titles = new Map(variants.variants.map((variant) => [variant.id, variant.title]));
  const text = t.admin.products;
  const flash = productFlashOf(query);
  const action = `/api/admin/products/${product.id}`;
  const signed = (delta: number) => (delta > 0 ? `+${delta}` : String(delta));

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight break-words">{product.name}</h1>
      <Link href="/admin/products" className="text-sm underline">
        {text.back}
      </Link>
      <ProductFlash t={t} flash={flash} />

      <div className="flex flex-wrap items-center gap-4 text-sm">
        <ProductImage
          src={shownImage(product.imagePath)}
          alt={`${text.currentImage}: ${product.name}`}
          name={product.name}
          width={160}
          height={120}
          className="aspect-[4/3] w-40 rounded-md border border-stone-200 bg-stone-100 object-cover"
        />
        <div className="flex flex-col gap-1">
          <p data-testid="product-state">
            {text.state}: <strong>{product.archivedAt ? text.archived : text.onSale}</strong>
          </p>
          <p>{text.orderLines(orderLines)}</p>
          {!product.archivedAt && (
            <Link href={`/products/${product.slug}`} className="underline">
              {text.view}
            </Link>
          )}
        </div>
      </div>

      <ProductForm
        t={t}
        product={product}
        categories={categories}
        categoryIds={categoryIds}
        hasOptions={hasOptions}
        invalid={flash.field}
      />

      <GalleryManager t={t} productId={product.id} gallery={gallery} flash={galleryFlashOf(query)} />

      <VariantsManager
        t={t}
        productId={product.id}
        variants={variants}
        gallery={gallery}
        flash={variantsFlashOf(query)}
      />

      <form
        method="post"
        action={`${action}/stock`}
        aria-labelledby="adjust-title"
        className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="adjust-title" className="text-lg font-semibold">
          {text.adjustTitle}
        </h2>
        <p className="text-sm">
          {text.fields.stock}: <strong data-testid="current-stock">{product.stock}</strong>
        </p>
        {hasOptions && (
          <Field label={t.admin.variantsAdmin.variantToAdjust} htmlFor="adjust-variant">
            <select id="adjust-variant" name="variantId" required className={fieldClass}>
              {activeVariants.map((variant) => (
                <option key={variant.id} value={variant.id}>
                  {variant.title} ({text.fields.stock}: {variant.stock})
                </option>
              ))}
            </select>
          </Field>
        )}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-[12rem_1fr]">
          <Field label={text.fields.delta} htmlFor="adjust-delta">
            <input
              id="adjust-delta"
              name="delta"
              type="number"
              inputMode="numeric"
              required
              step={1}
              min={-PRODUCT_LIMITS.stockMax}
              max={PRODUCT_LIMITS.stockMax}
              className={fieldClass}
              {...(flash.field === "delta" ? { "aria-invalid": true } : {})}
            />
          </Field>
          <Field label={text.fields.reason} htmlFor="adjust-reason">
            <input
              id="adjust-reason"
              name="reason"
              required
              maxLength={PRODUCT_LIMITS.reasonMax}
              className={fieldClass}
              {...(flash.field === "reason" ? { "aria-invalid": true } : {})}
            />
          </Field>
        </div>
        <div>
          <button type="submit" className={buttonClass}>
            {text.adjust}
          </button>
        </div>
      </form>

      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{text.history}</h2>
        <p className="text-sm text-stone-600">{text.historyNote}</p>
        {adjustments.length === 0 ? (
          <p className="text-sm">{text.noHistory}</p>
        ) : (
          <ol className="flex flex-col divide-y divide-stone-100 rounded-xl border border-stone-200 bg-white text-sm">
            {adjustments.map((row) => (
              <li key={row.id} data-testid="stock-adjustment" className="flex flex-wrap gap-x-4 gap-y-1 p-3">
                <time dateTime={row.createdAt.toISOString()} className="text-stone-600 tabular-nums">
                  {luandaSecond(row.createdAt)}
                </time>
                <span className="font-medium tabular-nums" data-testid="adjustment-delta">
                  {signed(row.delta)}
                </span>
                <span className="tabular-nums">
                  {text.after}: {row.stockAfter}
                </span>
                <span className="text-stone-600">{text.kind[row.kind]}</span>
                {hasOptions && row.variantId && titles.get(row.variantId) && (
                  <span data-testid="adjustment-variant">{titles.get(row.variantId)}</span>
                )}
                {row.reason && <span className="w-full break-words">{row.reason}</span>}
              </li>
            ))}
          </ol>
        )}
      </div>

      <form
        method="post"
        action={`${action}/${product.archivedAt ? "restore" : "archive"}`}
        className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
      >
        <p className="text-sm text-stone-600">{text.archiveHint}</p>
        <div>
          <button
            type="submit"
            className={
              product.archivedAt
                ? buttonClass
                : "rounded-md border border-stone-400 px-4 py-2 font-medium text-stone-900 hover:bg-stone-100"
            }
          >
            {product.archivedAt ? text.restore : text.archive}
          </button>
        </div>
      </form>
    </section>
  );
}
