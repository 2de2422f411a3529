import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { CATEGORIES_PAGE, createCategory } from "@/lib/catalog/categories-admin";
import { db } from "@/lib/db/client";

// The "new category" form of /admin/categories, or JSON: 201 with the category; back to the list.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return adminAction(request, {
    page: CATEGORIES_PAGE,
    body: formBody(),
    action: ({ fields }, { actor }) => createCategory(fields, actor, { db: db() }),
    json: (result) => ({ status: 201, body: { done: result.done, category: result.category } }),
  });
}
