import "server-only";
import { db } from "./db/client";
import { Prisma } from "./generated/prisma/client";
import { ON_SALE } from "./on-sale";

/** A product as the app shows it; prices are integer AOA. */
export interface CatalogProduct {
  id: string;
  slug: string;
  name: string;
  description: string;
  priceAoa: number;
  /** Path of the image the shop serves: under public/, or an upload at /api/images/<id>. */
  image: string;
  /**
   * Units a shopper can buy now: the shelf, plus units still kept by pending orders whose stock
   * hold has run out (adding to the cart or checking out ends those holds on the spot,
   * lib/orders/holds.ts), so a product hoarded by unpaid orders never looks sold out for good.
   */
  stock: number;
}

const catalogFields = {
  id: true,
  slug: true,
  name: true,
  description: true,
  priceAoa: true,
  imagePath: true,
  stock: true,
} as const;

function toCatalogProduct({
  imagePath,
  ...product
}: { imagePath: string } & Omit<CatalogProduct, "image">): CatalogProduct {
  return { ...product, image: imagePath };
}

/** How many products one answer of GET /api/products holds; more come in pages. */
export const PRODUCTS_PAGE_SIZE = 500;

/** Products on sale by name: all of them, or a page (`skip`, `take`) in a total order (name, then id). */
export async function listProducts(page: { skip?: number; take?: number } = {}): Promise<CatalogProduct[]> {
  const rows = await db().product.findMany({
    where: ON_SALE,
    select: catalogFields,
    orderBy: [{ name: "asc" }, { id: "asc" }],
    ...page,
  });
  return withExpiredHolds(rows.map(toCatalogProduct));
}

/** The product shown at /products/[slug]; null for a slug the catalogue does not have, or an archived product. */
export async function findProductBySlug(slug: string): Promise<CatalogProduct | null> {
  const row = await db().product.findUnique({ where: { slug, ...ON_SALE }, select: catalogFields });
  return row ? (await withExpiredHolds([toCatalogProduct(row)]))[0]! : null;
}

/** The slugs of the `take` products on sale changed last: the product pages built ahead (lib/catalog-pages.ts). */
export async function recentlyUpdatedProductSlugs(take: number): Promise<string[]> {
  const rows = await db().product.findMany({
    where: ON_SALE,
    select: { slug: true },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take,
  });
  return rows.map((row) => row.slug);
}

/** Adds the units of these products kept by pending orders whose hold ran out (usually none: one indexed query). */
export async function withExpiredHolds(products: CatalogProduct[]): Promise<CatalogProduct[]> {
  if (products.length === 0) return products;
  const held = await db().$queryRaw<{ productId: string; units: number }[]>(Prisma.sql`
SELECT l.product_id AS "productId", sum(l.quantity)::int AS units
FROM orders o JOIN order_lines l ON l.order_id = o.id
WHERE o.status = 'PEN' AND o.hold_expires_at <= now() AND l.product_id = ANY(${products.map((p) => p.id)}::uuid[])
GROUP BY l.product_id`);
  if (held.length === 0) return products;
  const units = new Map(held.map((row) => [row.productId, row.units]));
  return products.map((product) => ({ ...product, stock: product.stock + (units.get(product.id) ?? 0) }));
}
