import "server-only";
import { db } from "./db/client";

/** A product as the app shows it; prices are integer AOA. */
export interface CatalogProduct {
  id: string;
  slug: string;
  name: string;
  description: string;
  priceAoa: number;
  /** Path of a local image under public/. */
  image: string;
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

export async function listProducts(): Promise<CatalogProduct[]> {
  const rows = await db().product.findMany({ select: catalogFields, orderBy: [{ name: "asc" }] });
  return rows.map(toCatalogProduct);
}

/** The product shown at /products/[slug]; null for a slug the catalogue does not have. */
export async function findProductBySlug(slug: string): Promise<CatalogProduct | null> {
  const row = await db().product.findUnique({ where: { slug }, select: catalogFields });
  return row ? toCatalogProduct(row) : null;
}
