import { listProducts } from "@/lib/catalog";
import { jsonError } from "@/lib/http";
import { consoleLogger, errorKind } from "@/lib/log";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const products = await listProducts();
    return Response.json(
      products.map(({ id, slug, name, priceAoa, image, stock }) => ({ id, slug, name, priceAoa, image, stock })),
    );
  } catch (error) {
    consoleLogger("error", "catalog.list_failed", { error: errorKind(error) });
    return jsonError(503, "catalog_unavailable", "The catalogue is temporarily unavailable. Please try again.");
  }
}
