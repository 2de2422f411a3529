import { categoryTree } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

// GET /api/categories: the category tree, top-level categories in order, each with its
// sub-categories in order (lib/catalog/categories.ts).
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const tree = await categoryTree(db());
    return Response.json(
      tree.map(({ id, slug, name, description, children }) => ({
        id,
        slug,
        name,
        description,
        children: children.map((child) => ({
          id: child.id,
          slug: child.slug,
          name: child.name,
          description: child.description,
        })),
      })),
    );
  } catch (error) {
    consoleLogger("error", "catalog.categories_failed", { error: errorKind(error) });
    return jsonError(503, "catalog_unavailable", "The catalogue is temporarily unavailable. Please try again.");
  }
}
