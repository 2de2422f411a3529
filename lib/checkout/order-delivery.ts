import { servingZone } from "../delivery/municipalities";
import type { SqlRunner } from "../db/sql-runner";
import { Prisma } from "../generated/prisma/client";
import type { DeliveryMethod } from "../orders/fulfilment-states";
import type { DeliveryAddress, DeliveryChoice } from "./checkout-rules";
import { refused } from "./checkout-refusal";

/**
 * How an order's goods reach the shopper, from the database: the chosen pickup point, or the
 * zone serving the address's municipality (for its fee), and the snapshot the order keeps of it
 * (names, address, hours), so a later edit of the zone or point never rewrites the order.
 */

export interface ResolvedDelivery {
  /** The zone, for its fee; null for a pickup. */
  zone: { feeAoa: number; freeFromAoa: number | null } | null;
  description: string;
  /** The order's snapshot of the method. */
  columns: {
    deliveryMethod: DeliveryMethod;
    deliveryZoneId?: string;
    deliveryZoneName?: string;
    deliveryEstimatedDays?: number | null;
    deliveryAddress?: DeliveryAddress;
    pickupPointId?: string;
    pickupPointName?: string;
    pickupPointAddress?: string;
    pickupPointHours?: string;
  };
}

/** How the payment references and additionalInfo name the method: "Entrega: Talatona", "Levantamento: Loja…". */
export const deliveryDescription = (method: DeliveryMethod, name: string) =>
  `${method === "delivery" ? "Entrega" : "Levantamento"}: ${name}`;

/**
 * The chosen pickup point or zone, active, from the database; none chosen is only right for a
 * shop that offers neither. Refusals name the field (400), and roll the transaction back.
 */
export async function resolveDelivery(
  tx: SqlRunner,
  choice: DeliveryChoice | undefined,
): Promise<ResolvedDelivery | null> {
  if (!choice) {
    const [offered] = await tx.$queryRaw<{ any: boolean }[]>(Prisma.sql`
SELECT EXISTS (SELECT 1 FROM delivery_zones WHERE active) OR EXISTS (SELECT 1 FROM pickup_points WHERE active) AS any`);
    if (offered?.any)
      throw refused(400, "delivery_required", "delivery is required: choose a pickup point or a delivery zone");
    return null;
  }
  if (choice.method === "pickup") {
    const [point] = await tx.$queryRaw<{ id: string; name: string; address: string; hours: string }[]>(Prisma.sql`
SELECT id, name, address, hours FROM pickup_points WHERE id = ${choice.pickupPointId}::uuid AND active`);
    if (!point) throw refused(400, "unknown_pickup_point", "delivery.pickupPointId names no pickup point on offer");
    return {
      zone: null,
      description: deliveryDescription("pickup", point.name),
      columns: {
        deliveryMethod: "pickup",
        pickupPointId: point.id,
        pickupPointName: point.name,
        pickupPointAddress: point.address,
        pickupPointHours: point.hours,
      },
    };
  }
  const { zone, address } = await deliveryZoneOf(tx, choice);
  return {
    zone,
    description: deliveryDescription("delivery", zone.name),
    columns: {
      deliveryMethod: "delivery",
      deliveryZoneId: zone.id,
      deliveryZoneName: zone.name,
      deliveryEstimatedDays: zone.estimatedDays,
      deliveryAddress: address,
    },
  };
}

/**
 * The zone a delivery goes by: the active zone serving the address's municipality (its spelling
 * then kept on the address), never one the client names instead. A zone posted too must be that
 * one. With no zone serving the municipality, only a posted zone that lists no municipality yet
 * (lib/delivery/municipalities.ts, "not yet restricted") takes it.
 */
async function deliveryZoneOf(tx: SqlRunner, choice: Extract<DeliveryChoice, { method: "delivery" }>) {
  const { municipality } = choice.address;
  const serving = await servingZone(tx, municipality);
  if (serving) {
    if (choice.zoneId && choice.zoneId !== serving.id)
      throw refused(
        400,
        "delivery_zone_mismatch",
        `delivery.address.municipality: ${municipality} is delivered to by the zone "${serving.name}", not the zone delivery.zoneId names`,
      );
    return { zone: serving, address: { ...choice.address, municipality: serving.municipality } };
  }
  if (!choice.zoneId)
    throw refused(
      400,
      "municipality_not_served",
      `delivery.address.municipality: the shop does not deliver to ${municipality}; choose a pickup point or another address`,
    );
  const [zone] = await tx.$queryRaw<
    {
      id: string;
      name: string;
      feeAoa: number;
      freeFromAoa: number | null;
      estimatedDays: number | null;
      listsMunicipalities: boolean;
    }[]
  >(Prisma.sql`
SELECT z.id, z.name, z.fee_aoa AS "feeAoa", z.free_from_aoa AS "freeFromAoa", z.estimated_days AS "estimatedDays",
       EXISTS (SELECT 1 FROM delivery_zone_municipalities m WHERE m.zone_id = z.id) AS "listsMunicipalities"
FROM delivery_zones z WHERE z.id = ${choice.zoneId}::uuid AND z.active`);
  if (!zone) throw refused(400, "unknown_delivery_zone", "delivery.zoneId names no delivery zone on offer");
  if (zone.listsMunicipalities)
    throw refused(
      400,
      "delivery_zone_mismatch",
      `delivery.address.municipality: the zone "${zone.name}" does not deliver to ${municipality}`,
    );
  return { zone, address: choice.address };
}
