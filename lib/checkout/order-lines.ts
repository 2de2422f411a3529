import { shownImage } from "../catalog/gallery";
import { lineName, readVariantOptions, variantTitle } from "../catalog/variants";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import type { UnitLimits } from "../order-limits";
import type { OrderItem } from "./checkout-rules";
import { refused } from "./checkout-refusal";

/**
 * An order's lines as the database has them: each item's variant on sale, with its price and
 * names (nothing the client says about money is used), and the caps on units per line and per
 * order, checked before anything is held.
 */

export interface ResolvedLine {
  productId: string;
  variantId: string;
  quantity: number;
  productName: string;
  variantTitle: string;
  /** "T-shirt Kianda, M, Azul". */
  name: string;
  sku: string | null;
  unitPriceAoa: number;
  imagePath: string;
  /** The variant's stock before this order took its units. */
  stock: number;
}

/**
 * Each item's variant, with its price and names from the database. An item without `variantId`
 * means the product's one variant; a product with several needs one named (422 variant_required).
 * Archived products and variants are no longer sold: refused as unknown ones are.
 */
export async function resolveVariants(tx: SqlRunner, items: readonly OrderItem[]): Promise<ResolvedLine[]> {
  // One statement: each variant on sale with its product's name, image and options (the
  // transaction awaits every round trip while it holds the cart's lock).
  const variants = await tx.$queryRaw<
    {
      id: string;
      productId: string;
      options: unknown;
      sku: string | null;
      priceAoa: number;
      stock: number;
      imagePath: string | null;
      product: { name: string; imagePath: string; options: { name: string; values: string[] }[] };
    }[]
  >(Prisma.sql`
SELECT v.id, v.product_id AS "productId", v.options, v.sku, v.price_aoa AS "priceAoa", v.stock, v.image_path AS "imagePath",
       json_build_object(
         'name', p.name,
         'imagePath', p.image_path,
         'options', COALESCE((SELECT json_agg(json_build_object('name', o.name, 'values', o.values) ORDER BY o.position)
                              FROM product_options o WHERE o.product_id = p.id), '[]'::json)
       ) AS product
FROM product_variants v JOIN products p ON p.id = v.product_id
WHERE v.product_id = ANY(${items.map((item) => item.productId)}::uuid[]) AND v.archived_at IS NULL
  AND p.archived_at IS NULL -- lib/catalog/on-sale.ts ON_SALE`);
  const unknown = items.filter((item) => !variants.some((variant) => variant.productId === item.productId));
  if (unknown.length > 0)
    throw refused(422, "unknown_product", `no product with id ${unknown.map((item) => item.productId).join(", ")}`);

  const lines = items.map((item): ResolvedLine => {
    const ofProduct = variants.filter((variant) => variant.productId === item.productId);
    const variant = item.variantId
      ? ofProduct.find((candidate) => candidate.id === item.variantId)
      : ofProduct.length === 1
        ? ofProduct[0]
        : undefined;
    if (!variant && item.variantId)
      throw refused(422, "unknown_variant", `product ${item.productId} has no variant ${item.variantId} on sale`);
    if (!variant)
      throw refused(
        422,
        "variant_required",
        `product ${item.productId} is sold in several variants; name one with variantId`,
      );
    const title = variantTitle(variant.product.options, readVariantOptions(variant.options));
    return {
      productId: item.productId,
      variantId: variant.id,
      quantity: item.quantity,
      productName: variant.product.name,
      variantTitle: title,
      name: lineName(variant.product.name, title),
      sku: variant.sku,
      unitPriceAoa: variant.priceAoa,
      imagePath: shownImage(variant.imagePath) ?? variant.product.imagePath,
      stock: variant.stock,
    };
  });
  if (new Set(lines.map((line) => line.variantId)).size !== lines.length)
    throw refused(422, "duplicate_variant", "items lists a variant more than once");
  return lines;
}

/**
 * The caps on units (MAX_UNITS_PER_LINE, MAX_UNITS_PER_ORDER), so that no client holds most of
 * the stock; on the resolved lines, one per variant (resolveVariants refuses a variant named twice).
 */
export function refuseOverUnitCaps(lines: readonly ResolvedLine[], units: UnitLimits): void {
  const overLine = lines.find((line) => line.quantity > units.perLine);
  if (overLine)
    throw refused(
      422,
      "too_many_units",
      `at most ${units.perLine} units of ${overLine.name} per order (asked for ${overLine.quantity})`,
    );
  const total = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (total > units.perOrder)
    throw refused(422, "too_many_units", `at most ${units.perOrder} units per order (asked for ${total})`);
}
