import { PRODUCT_LIMITS } from "@/lib/catalog/product-rules";
import { SLUG_PATTERN } from "@/lib/slug";
import { findProductBySlug } from "@/lib/catalog/products";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

// GET /api/products/<slug>: one product on sale with its options and variants (docs/api.md):
// { id, slug, name, description, priceAoa (its lowest), image,
// options: [{ name, values }], variants: [{ id, sku, options, priceAoa, stock, image }] }.
// A malformed slug is a 400; a product the catalogue does not have (or archived) a 404.
export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await params;
  if (slug.length > PRODUCT_LIMITS.slugMax || !SLUG_PATTERN.test(slug))
    return jsonError(400, "invalid_slug", "slug must be lower-case letters and digits joined by single hyphens");
  try {
    const product = await findProductBySlug(slug);
    if (!product) return jsonError(404, "product_not_found", "no product on sale has this slug");
    const { id, name, description, priceAoa, image, options, variants } = product;
    return Response.json({
      id,
      slug: product.slug,
      name,
      description,
      priceAoa,
      image,
      options: options.map((option) => ({ name: option.name, values: option.values })),
      variants: variants.map((variant) => ({
        id: variant.id,
        sku: variant.sku,
        options: variant.options,
        priceAoa: variant.priceAoa,
        stock: variant.stock,
        image: variant.image,
      })),
    });
  } catch (error) {
    consoleLogger("error", "catalog.product_failed", { error: errorKind(error) });
    return jsonError(503, "catalog_unavailable", "The catalogue is temporarily unavailable. Please try again.");
  }
}
