import type { StorefrontTexts } from "@/lib/i18n/storefront-texts";

/**
 * What a shopper reads about a product's stock: "Esgotado" when none is left (still listed, not
 * addable), "Só restam N" at or below LOW_STOCK_THRESHOLD, otherwise "Em stock" (the exact count
 * of a well-stocked product is the shop's business).
 */
export function stockLabel(t: Pick<StorefrontTexts, "catalog">, stock: number, lowStockThreshold: number): string {
  if (stock <= 0) return t.catalog.soldOut;
  if (stock <= lowStockThreshold) return t.catalog.lowStock(stock);
  return t.catalog.inStock;
}
