import type { NextRequest } from "next/server";
import { adminAction } from "@/lib/http/admin-action";
import { CATEGORIES_PAGE, categoryPagePath, deleteCategory } from "@/lib/catalog/categories-admin";
import { db } from "@/lib/db/client";

// "Delete category" on its page: 409 has_children while it has sub-categories; its products leave it.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    page: categoryPagePath(id),
    donePage: () => CATEGORIES_PAGE,
    action: (_, { actor }) => deleteCategory(id, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, category: result.category } }),
  });
}
