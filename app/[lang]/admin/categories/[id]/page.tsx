import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CategoryFlash, categoryFlashOf, CategoryForm } from "@/components/admin/category-form";
import { adminCategoryDetail, CATEGORIES_PAGE, categoryPagePath } from "@/lib/catalog/categories-admin";
import { requireStaff } from "@/lib/http/admin-guard";
import { PROMO_PAGE } from "@/lib/promotions/promo-codes-admin";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";

// One category in the back office (lib/catalog/categories-admin.ts): its form, its sub-categories, and
// delete (refused while it has sub-categories or a promo code names it; its products simply leave it).
export const dynamic = "force-dynamic";

// The title reads nothing from the database: metadata is resolved beside the page, before its
// session guard could refuse the request.
export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.categories.title, robots: { index: false, follow: false } };
}

export default async function AdminCategoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/categories/[id]");
  const [{ t }, { id }, query] = await Promise.all([getLang(), params, searchParams]);
  const detail = await adminCategoryDetail(db(), id);
  if (!detail) notFound();
  const { category, children, products, parents, promoCodes } = detail;
  const text = t.admin.categories;
  const flash = categoryFlashOf(query);

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight break-words">{category.name}</h1>
      <Link href={CATEGORIES_PAGE} className="text-sm underline">
        {text.back}
      </Link>
      <CategoryFlash t={t} flash={flash} />

      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <span>{text.products(products)}</span>
        <Link href={`/categories/${category.slug}`} className="underline">
          {text.view}
        </Link>
      </div>

      <div className="rounded-xl border border-stone-200 bg-white p-4">
        <CategoryForm
          t={t}
          category={category}
          parents={parents}
          hasChildren={children.length > 0}
          invalid={flash.field}
        />
      </div>

      {category.parentId === null && (
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{text.subcategories}</h2>
          {children.length === 0 ? (
            <p className="text-sm">{text.noSubcategories}</p>
          ) : (
            <ul className="flex flex-col gap-1">
              {children.map((child) => (
                <li key={child.id}>
                  <Link href={categoryPagePath(child.id)} className="underline">
                    {child.name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <form
        method="post"
        action={`/api/admin/categories/${category.id}/delete`}
        aria-labelledby="delete-title"
        className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="delete-title" className="text-lg font-semibold">
          {text.deleteTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.deleteHint}</p>
        {promoCodes.length > 0 && (
          <p className="text-sm" data-testid="category-promo-codes">
            {text.promoCodes(promoCodes.map((promo) => promo.code).join(", "))}{" "}
            <Link href={PROMO_PAGE} className="underline">
              {t.admin.promoCodes.title}
            </Link>
          </p>
        )}
        <div>
          <button
            type="submit"
            className="rounded-md border border-red-700 px-4 py-2 font-medium text-red-800 hover:bg-red-50"
          >
            {text.delete}
          </button>
        </div>
      </form>
    </section>
  );
}
