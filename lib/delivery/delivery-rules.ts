/**
 * What a delivery to a zone costs: its fee, or nothing from its free-delivery threshold on. Pure
 * and without imports, because the checkout form shows the fee as the shopper chooses; the server
 * charges by the same function (lib/checkout/reserve.ts).
 */

/** The threshold is on the subtotal after any promo discount: what the goods cost the shopper. */
export function deliveryFee(zone: { feeAoa: number; freeFromAoa: number | null }, subtotalAoa: number): number {
  if (zone.freeFromAoa !== null && subtotalAoa >= zone.freeFromAoa) return 0;
  return zone.feeAoa;
}
