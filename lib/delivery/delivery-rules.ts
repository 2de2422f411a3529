/**
 * What a delivery to a zone costs (issue 25): its fee, or nothing from its free-delivery
 * threshold on. The threshold is compared with the subtotal after any promo discount (what the
 * goods cost the shopper). Pure and without imports, because the checkout form shows the fee as
 * the shopper chooses; the server charges by the same function (lib/checkout/reserve.ts).
 */
export function deliveryFee(zone: { feeAoa: number; freeFromAoa: number | null }, subtotalAoa: number): number {
  if (zone.freeFromAoa !== null && subtotalAoa >= zone.freeFromAoa) return 0;
  return zone.feeAoa;
}
