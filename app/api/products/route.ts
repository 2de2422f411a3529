import { listProducts, PRODUCTS_PAGE_SIZE } from "@/lib/catalog/products";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

// GET /api/products: the products on sale by name, as an array. A catalogue of more than
// PRODUCTS_PAGE_SIZE comes in pages: ?page=2 and on, each answer with a `Link: <…>; rel="next"`
// header while more follow (docs/api.md). /api/search pages, sorts and filters.
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const pageParam = new URL(request.url).searchParams.get("page") ?? "1";
  if (!/^[1-9][0-9]{0,5}$/.test(pageParam))
    return jsonError(400, "invalid_query", "page must be a whole number from 1");
  const page = Number(pageParam);
  try {
    // One more than a page, to know whether another follows.
    const products = await listProducts({ skip: (page - 1) * PRODUCTS_PAGE_SIZE, take: PRODUCTS_PAGE_SIZE + 1 });
    const more = products.length > PRODUCTS_PAGE_SIZE;
    const headers: HeadersInit = more ? { Link: `</api/products?page=${page + 1}>; rel="next"` } : {};
    return Response.json(
      products.slice(0, PRODUCTS_PAGE_SIZE).map(({ id, slug, name, priceAoa, image, stock, hasOptions }) => ({
        id,
        slug,
        name,
        priceAoa,
        image,
        stock,
        hasOptions,
      })),
      { headers },
    );
  } catch (error) {
    consoleLogger("error", "catalog.list_failed", { error: errorKind(error) });
    return jsonError(503, "catalog_unavailable", "The catalogue is temporarily unavailable. Please try again.");
  }
}
