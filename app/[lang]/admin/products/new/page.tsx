import type { Metadata } from "next";
import Link from "next/link";
import { ProductFlash, productFlashOf } from "@/components/admin/product-flash";
import { ProductForm } from "@/components/admin/product-form";
import { requireStaff } from "@/lib/http/admin-guard";
import { categoryTree } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";

// A new product (lib/catalog/products-admin.ts createProduct): on sale as soon as it is created.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.products.newTitle, robots: { index: false, follow: false } };
}

export default async function NewProductPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/products/new");
  const [{ t }, query, categories] = await Promise.all([getLang(), searchParams, categoryTree(db())]);
  const flash = productFlashOf(query);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t.admin.products.newTitle}</h1>
      <Link href="/admin/products" className="text-sm underline">
        {t.admin.products.back}
      </Link>
      <ProductFlash t={t} flash={flash} />
      <ProductForm t={t} categories={categories} invalid={flash.field} />
    </section>
  );
}
