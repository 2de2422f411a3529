import "server-only";
import type { SqlExecutor } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";

/**
 * Every change of a variant's stock (checkout, release, back office, CSV import) goes through
 * here, inside the caller's transaction, in one lock order: the products' rows first, by id, then
 * their variants'. A trigger adds each variant's change to its product's total (products.stock)
 * after the variant's row; taking the products first is what keeps two transactions on sibling
 * variants from each holding what the other waits for. Every writer of a variant holds its
 * product's row first, so no two transactions ever wait on each other's variants, and one
 * statement may change several variants in whatever order it reaches them.
 */

/** The caller's transaction: Prisma's, or one on a connection of the pool (lib/db/sql-runner.ts). */
type Transaction = SqlExecutor;

export interface UnitsLine {
  productId: string;
  variantId: string;
  quantity: number;
}

/** Locks the rows of these products, in id order, until the transaction ends. */
export async function lockProducts(tx: Transaction, productIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  await tx.$queryRaw(Prisma.sql`SELECT id FROM products WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR NO KEY UPDATE`);
}

/** The lines by variant (quantities of one variant added up), in lock order. */
function byVariant(lines: readonly UnitsLine[]): UnitsLine[] {
  const merged = new Map<string, UnitsLine>();
  for (const line of lines) {
    const seen = merged.get(line.variantId);
    merged.set(line.variantId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()].sort(
    (a, b) => a.productId.localeCompare(b.productId) || a.variantId.localeCompare(b.variantId),
  );
}

/**
 * Takes the units of every line, or says which line is short: the first in lock order whose
 * variant has fewer units than asked is returned, and the caller rolls its transaction back (the
 * other lines' units, taken by the same statement, go back with it). One conditional UPDATE for
 * all the lines, so concurrent checkouts never sell a unit twice.
 */
export async function takeUnits(tx: Transaction, lines: readonly UnitsLine[]): Promise<UnitsLine | null> {
  const sorted = byVariant(lines);
  if (sorted.length === 0) return null;
  await lockProducts(
    tx,
    sorted.map((line) => line.productId),
  );
  const taken = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
UPDATE product_variants v SET stock = v.stock - line.quantity, updated_at = now()
FROM unnest(${sorted.map((line) => line.variantId)}::uuid[], ${sorted.map((line) => line.quantity)}::int[])
  AS line (id, quantity)
WHERE v.id = line.id AND v.stock >= line.quantity
RETURNING v.id`);
  const took = new Set(taken.map((row) => row.id));
  return sorted.find((line) => !took.has(line.variantId)) ?? null;
}

/** Puts the units of every line back on the shelf (a cancelled order's release), in one statement. */
export async function returnUnits(tx: Transaction, lines: readonly UnitsLine[]): Promise<void> {
  const sorted = byVariant(lines);
  if (sorted.length === 0) return;
  await lockProducts(
    tx,
    sorted.map((line) => line.productId),
  );
  await tx.$executeRaw(Prisma.sql`
UPDATE product_variants v SET stock = v.stock + line.quantity, updated_at = now()
FROM unnest(${sorted.map((line) => line.variantId)}::uuid[], ${sorted.map((line) => line.quantity)}::int[])
  AS line (id, quantity)
WHERE v.id = line.id`);
}
