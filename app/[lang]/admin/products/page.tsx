import type { Metadata } from "next";
import { ProductImage } from "@/components/catalog/product-image";
import Link from "next/link";
import { ProductFlash, productFlashOf } from "@/components/admin/product-flash";
import { requireStaff } from "@/lib/http/admin-guard";
import { listAdminProducts } from "@/lib/catalog/product-views-admin";
import { db } from "@/lib/db/client";
import { shownImage } from "@/lib/catalog/gallery";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";

// The back office's products (lib/catalog/products-admin.ts): every product, archived ones last, each
// linking to its page; and the way to a new one.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.products.title, robots: { index: false, follow: false } };
}

export default async function AdminProductsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/products");
  const [{ t }, query] = await Promise.all([getLang(), searchParams]);
  const products = await listAdminProducts(db());
  const text = t.admin.products;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <ProductFlash t={t} flash={productFlashOf(query)} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-stone-600" data-testid="products-count">
          {text.count(products.length)}
        </p>
        <Link
          href="/admin/products/new"
          className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
        >
          {text.newProduct}
        </Link>
      </div>
      {products.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-100 rounded-xl border border-stone-200 bg-white">
          {products.map((product) => (
            <li
              key={product.id}
              data-testid="admin-product"
              data-archived={product.archivedAt ? "true" : undefined}
              className="flex items-center gap-3 p-3"
            >
              <ProductImage
                src={shownImage(product.imagePath)}
                alt=""
                name={product.name}
                size="small"
                width={64}
                height={48}
                className="aspect-[4/3] w-16 shrink-0 rounded-md border border-stone-200 bg-stone-100 object-cover"
              />
              <div className="flex min-w-0 grow flex-col gap-1 sm:flex-row sm:items-center sm:gap-4">
                <Link href={`/admin/products/${product.id}`} className="min-w-0 grow font-medium break-words underline">
                  {product.name}
                </Link>
                <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  <div className="flex gap-1">
                    <dt className="text-stone-600">{text.priceHeading}:</dt>
                    <dd className="tabular-nums" data-testid="admin-product-price">
                      {formatAoa(product.priceAoa)}
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="text-stone-600">{text.fields.stock}:</dt>
                    <dd className="tabular-nums" data-testid="admin-product-stock">
                      {product.stock}
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="sr-only">{text.state}</dt>
                    <dd>
                      {product.archivedAt ? (
                        <span className="rounded bg-stone-200 px-1.5 py-0.5 text-xs font-medium text-stone-800">
                          {text.archived}
                        </span>
                      ) : (
                        <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-900">
                          {text.onSale}
                        </span>
                      )}
                    </dd>
                  </div>
                </dl>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
