/**
 * What the shop sells: a product archived in the back office (lib/catalog/products-admin.ts) leaves the
 * catalogue, `/api/products`, its page, carts and checkout. One definition for all of them.
 */

/** The condition of every query for products a shopper may see or buy. */
export const ON_SALE = { archivedAt: null } as const;

/** Units a shopper may buy of a product already in a cart: none once it is archived (the cart asks to remove it). */
export const unitsForSale = (product: { stock: number; archivedAt: Date | null }): number =>
  product.archivedAt ? 0 : product.stock;
