import type { Database } from "../db/client";
import { municipalitiesByZone } from "./municipalities";

/**
 * The delivery methods the shop offers, as the checkout reads them: the active delivery zones (a
 * fee in kwanza, optionally free from a subtotal, an estimate in days, the municipalities each
 * serves) and pickup points (free), for GET /api/delivery-options and the checkout page. The back
 * office manages them (lib/delivery/zones-admin.ts); deliveryFee() is the rule the order charges by.
 */

/** By position, then name: how the checkout and the back office list zones and points. */
export const DELIVERY_METHOD_ORDER = [{ position: "asc" as const }, { name: "asc" as const }, { id: "asc" as const }];

/** What GET /api/delivery-options answers: the active zones and pickup points, by position then name. */
export interface DeliveryOptions {
  zones: {
    id: string;
    name: string;
    feeAoa: number;
    freeFromAoa: number | null;
    estimatedDays: number | null;
    /** The municipalities it serves, by name; none: it takes any address it is picked for. */
    municipalities: string[];
  }[];
  pickupPoints: { id: string; name: string; address: string; hours: string }[];
}

export async function deliveryOptions(db: Database): Promise<DeliveryOptions> {
  const [zones, pickupPoints, municipalities] = await Promise.all([
    db.deliveryZone.findMany({
      where: { active: true },
      select: { id: true, name: true, feeAoa: true, freeFromAoa: true, estimatedDays: true },
      orderBy: DELIVERY_METHOD_ORDER,
    }),
    db.pickupPoint.findMany({
      where: { active: true },
      select: { id: true, name: true, address: true, hours: true },
      orderBy: DELIVERY_METHOD_ORDER,
    }),
    municipalitiesByZone(db),
  ]);
  return { zones: zones.map((zone) => ({ ...zone, municipalities: municipalities.get(zone.id) ?? [] })), pickupPoints };
}
