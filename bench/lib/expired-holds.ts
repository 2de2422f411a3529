import type pg from "pg";
import { expiredHoldUnitsSql } from "../../lib/catalog/products";

/**
 * lib/catalog/products.ts withExpiredHolds for the baselines: the units of each product kept by
 * pending orders whose hold ran out, by the app's own statement sent through `pg`.
 */
export async function expiredHoldsByProduct(database: pg.Pool, productIds: string[]): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (productIds.length === 0) return held;
  const sql = expiredHoldUnitsSql(productIds);
  const { rows } = await database.query<{ productId: string; units: number }>(sql.text, sql.values);
  for (const row of rows) held.set(row.productId, (held.get(row.productId) ?? 0) + row.units);
  return held;
}
