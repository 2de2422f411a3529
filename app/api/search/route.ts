import type { NextRequest } from "next/server";
import { browseFacets, browseProducts } from "@/lib/catalog/browse";
import { parseBrowseParams } from "@/lib/catalog/browse-query";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

// GET /api/search?q=&category=&sort=&minPrice=&maxPrice=&inStock=1&opt=Tamanho:M&page=
// (lib/catalog/browse.ts): one page of the catalogue as { items, total, page, pageSize, facets }
// (facets: the option values the listing's products sell, with counts). Every parameter is
// optional; a bad one is a 400 naming it; an unknown category a 404.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<Response> {
  const parsed = parseBrowseParams(request.nextUrl.searchParams);
  if (!parsed.ok) return jsonError(400, "invalid_query", parsed.message);
  try {
    const [result, facets] = await Promise.all([browseProducts(db(), parsed.query), browseFacets(db(), parsed.query)]);
    if (!result || !facets) return jsonError(404, "category_not_found", "no category has this slug");
    return Response.json({
      items: result.items.map(({ id, slug, name, priceAoa, pricesVary, hasOptions, stock, image }) => ({
        id,
        slug,
        name,
        priceAoa,
        pricesVary,
        hasOptions,
        stock,
        image,
      })),
      total: result.total,
      page: result.page,
      pageSize: result.pageSize,
      facets,
    });
  } catch (error) {
    consoleLogger("error", "catalog.search_failed", { error: errorKind(error) });
    return jsonError(503, "catalog_unavailable", "The catalogue is temporarily unavailable. Please try again.");
  }
}
