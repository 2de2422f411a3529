import type { Metadata } from "next";
import Link from "next/link";
import { CategoryFlash, categoryFlashOf, CategoryForm } from "@/components/admin/category-form";
import { adminCategoryTree, categoryPagePath } from "@/lib/catalog/categories-admin";
import { requireStaff } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";
import type { Dictionary } from "@/lib/i18n/dictionaries";

// The back office's categories (lib/catalog/categories-admin.ts): the two-level tree in the shop's order,
// each linking to its page, and the form for a new one.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.categories.title, robots: { index: false, follow: false } };
}

export default async function AdminCategoriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/categories");
  const [{ t }, query, tree] = await Promise.all([getLang(), searchParams, adminCategoryTree(db())]);
  const text = t.admin.categories;
  const flash = categoryFlashOf(query);
  const total = tree.reduce((sum, node) => sum + 1 + node.children.length, 0);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <CategoryFlash t={t} flash={flash} />

      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{text.treeTitle}</h2>
        <p className="text-sm text-stone-600">
          {text.treeHint} <span data-testid="categories-count">{text.count(total)}</span>
        </p>
        {tree.length === 0 ? (
          <p>{text.none}</p>
        ) : (
          <ol
            data-testid="category-tree"
            className="flex flex-col divide-y divide-stone-100 rounded-xl border border-stone-200 bg-white"
          >
            {tree.map((node) => (
              <li key={node.id} data-testid="admin-category" data-slug={node.slug} className="flex flex-col gap-2 p-3">
                <CategoryLine t={t} category={node} />
                {node.children.length > 0 && (
                  <ol
                    aria-label={`${text.subcategories}: ${node.name}`}
                    className="ml-4 flex flex-col gap-2 border-l border-stone-200 pl-4"
                  >
                    {node.children.map((child) => (
                      <li key={child.id} data-testid="admin-category" data-slug={child.slug}>
                        <CategoryLine t={t} category={child} />
                      </li>
                    ))}
                  </ol>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>

      <div
        aria-labelledby="new-category-title"
        role="region"
        className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="new-category-title" className="text-lg font-semibold">
          {text.newTitle}
        </h2>
        <CategoryForm t={t} parents={tree} invalid={flash.field} />
      </div>
    </section>
  );
}

function CategoryLine({
  t,
  category,
}: {
  t: Dictionary;
  category: { id: string; name: string; slug: string; position: number; products: number };
}) {
  const text = t.admin.categories;
  return (
    <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
      <Link href={categoryPagePath(category.id)} className="font-medium break-words underline">
        {category.name}
      </Link>
      <span className="font-mono text-sm break-all text-stone-600">/{category.slug}</span>
      <span className="text-sm text-stone-600">
        {text.positionLabel}: {category.position}
      </span>
      <span className="text-sm text-stone-600">{text.products(category.products)}</span>
    </div>
  );
}
