import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { categoryPagePath, updateCategory } from "@/lib/catalog/categories-admin";
import { db } from "@/lib/db/client";

// A category's form (/admin/categories/<id>): name, slug, description, parent, position.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    page: categoryPagePath(id),
    body: formBody(),
    action: ({ fields }, { actor }) => updateCategory(id, fields, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, category: result.category } }),
  });
}
