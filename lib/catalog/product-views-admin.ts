import "server-only";
import type { Database } from "../db/client";
import { productIdSchema } from "./product-rules";
import { productFields, type AdminProduct, type StockAdjustmentRow } from "./products-admin";

/** The back office's product pages' reads: the list, and one product with its stock history (./products-admin.ts writes). */

/** Every product, archived ones last, for /admin/products. */
export async function listAdminProducts(db: Database): Promise<AdminProduct[]> {
  return db.product.findMany({
    select: productFields,
    orderBy: [{ archivedAt: { sort: "desc", nulls: "first" } }, { name: "asc" }],
  });
}

export interface AdminProductDetail {
  product: AdminProduct;
  /** Newest first, at most ADJUSTMENTS_SHOWN. */
  adjustments: StockAdjustmentRow[];
  /** Order lines that name it: why it can only be archived. */
  orderLines: number;
  /** The categories it is in (the form's ticked boxes). */
  categoryIds: string[];
}

export const ADJUSTMENTS_SHOWN = 100;

export async function adminProductDetail(db: Database, productId: string): Promise<AdminProductDetail | null> {
  if (!productIdSchema.safeParse(productId).success) return null;
  const product = await db.product.findUnique({ where: { id: productId }, select: productFields });
  if (!product) return null;
  const [adjustments, orderLines, categories] = await Promise.all([
    db.stockAdjustment.findMany({
      where: { productId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: ADJUSTMENTS_SHOWN,
      select: { id: true, kind: true, delta: true, stockAfter: true, reason: true, createdAt: true, variantId: true },
    }),
    db.orderLine.count({ where: { productId } }),
    db.productCategory.findMany({ where: { productId }, select: { categoryId: true } }),
  ]);
  return {
    product,
    adjustments: adjustments.map((row) => ({ ...row, kind: row.kind as StockAdjustmentRow["kind"] })),
    orderLines,
    categoryIds: categories.map((row) => row.categoryId),
  };
}
