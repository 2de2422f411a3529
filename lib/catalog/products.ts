import "server-only";
import { db } from "../db/client";
import { shownImage } from "./gallery";
import { Prisma } from "../generated/prisma/client";
import { ON_SALE } from "./on-sale";
import { PRODUCT_COLUMNS } from "./product-rules";
import { type ProductOptionDefinition, readVariantOptions, type ShopVariant, variantTitle } from "./variants";

/** A product as the app shows it; prices are integer AOA. */
export interface CatalogProduct {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** The lowest price of its variants: the price, or "desde" when `pricesVary`. */
  priceAoa: number;
  /** Its variants do not all cost the same (the card says "desde"). */
  pricesVary: boolean;
  /** It has options (Tamanho, Cor…): a card sends the shopper to its page to choose. */
  hasOptions: boolean;
  /** Path of the image the shop serves: under public/, or an upload at /api/images/<id>; null for none (a placeholder shows). */
  image: string | null;
  /**
   * Units a shopper can buy now: the shelf, plus units still kept by pending orders whose stock
   * hold has run out (adding to the cart or checking out ends those holds on the spot,
   * lib/orders/holds.ts), so a product hoarded by unpaid orders never looks sold out for good.
   * For a product with options, its variants' together.
   */
  stock: number;
}

/** A product's own columns as read (./product-rules.ts PRODUCT_COLUMNS). */
type ProductColumns = Prisma.ProductGetPayload<{ select: typeof PRODUCT_COLUMNS }>;

/** The product page's product: its own columns, its options and every variant on sale, in order. */
export interface ProductDetail extends CatalogProduct, Omit<ProductColumns, "imagePath" | keyof CatalogProduct> {
  options: ProductOptionDefinition[];
  variants: ShopVariant[];
}

const catalogFields = {
  ...PRODUCT_COLUMNS,
  options: { select: { name: true, values: true }, orderBy: { position: "asc" as const } },
  variants: {
    where: { archivedAt: null },
    select: { id: true, sku: true, options: true, priceAoa: true, stock: true, imagePath: true },
    orderBy: [{ position: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }],
  },
} satisfies Prisma.ProductSelect;

type CatalogRow = Prisma.ProductGetPayload<{ select: typeof catalogFields }>;

function toDetail({ imagePath, options, variants, ...product }: CatalogRow): ProductDetail {
  const prices = variants.map((variant) => variant.priceAoa);
  return {
    ...product,
    image: shownImage(imagePath),
    pricesVary: prices.length > 0 && Math.min(...prices) !== Math.max(...prices),
    hasOptions: options.length > 0,
    options,
    variants: variants.map((variant) => {
      const values = readVariantOptions(variant.options);
      return {
        id: variant.id,
        sku: variant.sku,
        options: values,
        title: variantTitle(options, values),
        priceAoa: variant.priceAoa,
        stock: variant.stock,
        image: shownImage(variant.imagePath) ?? shownImage(imagePath),
      };
    }),
  };
}

/** The listing's product: the fields it names, not every column the product page shows. */
const toCatalogProduct = (row: CatalogRow): CatalogProduct => {
  const { id, slug, name, description, priceAoa, stock, image, pricesVary, hasOptions } = toDetail(row);
  return { id, slug, name, description, priceAoa, stock, image, pricesVary, hasOptions };
};

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

/**
 * The product shown at /products/[slug], with its options and variants; null for a slug the
 * catalogue does not have, or an archived product.
 */
export async function findProductBySlug(slug: string): Promise<ProductDetail | null> {
  const row = await db().product.findUnique({ where: { slug, ...ON_SALE }, select: catalogFields });
  if (!row) return null;
  const product = toDetail(row);
  const held = new Map((await expiredHoldUnits([product.id])).map((hold) => [hold.variantId, hold.units]));
  if (held.size === 0) return product;
  const variants = product.variants.map((variant) => ({
    ...variant,
    stock: variant.stock + (held.get(variant.id) ?? 0),
  }));
  return { ...product, variants, stock: variants.reduce((sum, variant) => sum + variant.stock, 0) };
}

/** The slugs of the `take` products on sale changed last: the product pages built ahead (lib/catalog/cached-pages.ts). */
export async function recentlyUpdatedProductSlugs(take: number): Promise<string[]> {
  const rows = await db().product.findMany({
    where: ON_SALE,
    select: { slug: true },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take,
  });
  return rows.map((row) => row.slug);
}

/**
 * The statement of {@link expiredHoldUnits}, built without running it: the bench's baselines send
 * the very same SQL through `pg`.
 */
export function expiredHoldUnitsSql(productIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`
SELECT l.product_id AS "productId", l.variant_id AS "variantId", sum(l.quantity)::int AS units
FROM orders o JOIN order_lines l ON l.order_id = o.id
WHERE o.status = 'PEN' AND o.hold_expires_at <= now() AND l.product_id = ANY(${[...productIds]}::uuid[])
GROUP BY l.product_id, l.variant_id`;
}

/**
 * Units of these products' variants kept by pending orders whose hold ran out (usually none: one
 * indexed query), by variant, with the product each belongs to.
 */
async function expiredHoldUnits(
  productIds: readonly string[],
): Promise<{ productId: string; variantId: string; units: number }[]> {
  return db().$queryRaw(expiredHoldUnitsSql(productIds));
}

/** Adds the units of these products kept by pending orders whose hold ran out. */
export async function withExpiredHolds<P extends CatalogProduct>(products: P[]): Promise<P[]> {
  if (products.length === 0) return products;
  const held = await expiredHoldUnits(products.map((product) => product.id));
  if (held.length === 0) return products;
  const units = new Map<string, number>();
  for (const row of held) units.set(row.productId, (units.get(row.productId) ?? 0) + row.units);
  return products.map((product) => ({ ...product, stock: product.stock + (units.get(product.id) ?? 0) }));
}
