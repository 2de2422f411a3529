import { z } from "zod";
import { isDeliveryMethod, isFulfilmentState, type DeliveryMethod, type FulfilmentState } from "./fulfilment-states";

/**
 * How an order's goods reach the shopper and what its amount is made of, from the order's
 * snapshot columns (the zone or pickup point as they were when it was placed), in one shape for
 * the back office's and the shopper's order pages, the shopper's mails and the CSV export. Orders
 * placed before the shop stored them have no method and no subtotal: both are null here, and the
 * pages show what they always did. Pure: no database.
 */

export interface DeliveryAddress {
  province: string;
  municipality: string;
  neighbourhood: string;
  street: string;
  reference: string;
}

export interface OrderDelivery {
  method: DeliveryMethod | null;
  /** A delivery's zone, its estimate in days, and the address the shopper typed. */
  zone: { name: string; estimatedDays: number | null } | null;
  address: DeliveryAddress | null;
  /** A pickup's point. */
  pickup: { name: string; address: string; hours: string } | null;
  /** Null for an order placed before amounts had parts (its amount is its subtotal). */
  breakdown: {
    subtotalAoa: number;
    discountAoa: number;
    promoCode: string | null;
    deliveryFeeAoa: number;
    totalAoa: number;
  } | null;
  customerEmail: string | null;
  fulfilmentState: FulfilmentState | null;
}

/** The columns read (Prisma's names). */
export interface OrderDeliveryColumns {
  amountAoa: number;
  subtotalAoa: number | null;
  discountAoa: number;
  deliveryFeeAoa: number;
  promoCode: string | null;
  deliveryMethod: string | null;
  deliveryZoneName: string | null;
  deliveryEstimatedDays: number | null;
  deliveryAddress: unknown;
  pickupPointName: string | null;
  pickupPointAddress: string | null;
  pickupPointHours: string | null;
  customerEmail: string | null;
  fulfilmentState: string | null;
}

/** Prisma's `select` of {@link OrderDeliveryColumns} but `amountAoa`, which every caller selects anyway. */
export const ORDER_DELIVERY_SELECT = {
  subtotalAoa: true,
  discountAoa: true,
  deliveryFeeAoa: true,
  promoCode: true,
  deliveryMethod: true,
  deliveryZoneName: true,
  deliveryEstimatedDays: true,
  deliveryAddress: true,
  pickupPointName: true,
  pickupPointAddress: true,
  pickupPointHours: true,
  customerEmail: true,
  fulfilmentState: true,
} as const;

const text = z.string().catch("");
const addressSchema = z.object({
  province: text,
  municipality: text,
  neighbourhood: text,
  street: text,
  reference: text,
});

export function orderDelivery(order: OrderDeliveryColumns): OrderDelivery {
  const method = isDeliveryMethod(order.deliveryMethod) ? order.deliveryMethod : null;
  const address = addressSchema.safeParse(order.deliveryAddress);
  return {
    method,
    zone: order.deliveryZoneName ? { name: order.deliveryZoneName, estimatedDays: order.deliveryEstimatedDays } : null,
    address: address.success ? address.data : null,
    pickup: order.pickupPointName
      ? { name: order.pickupPointName, address: order.pickupPointAddress ?? "", hours: order.pickupPointHours ?? "" }
      : null,
    breakdown:
      order.subtotalAoa === null
        ? null
        : {
            subtotalAoa: order.subtotalAoa,
            discountAoa: order.discountAoa,
            promoCode: order.promoCode,
            deliveryFeeAoa: order.deliveryFeeAoa,
            totalAoa: order.amountAoa,
          },
    customerEmail: order.customerEmail,
    fulfilmentState: isFulfilmentState(order.fulfilmentState) ? order.fulfilmentState : null,
  };
}

/** An address on one line, its empty parts left out: "Rua 1, Maianga, Luanda, Luanda (ao lado da escola)". */
export function addressLine(address: DeliveryAddress): string {
  const parts = [address.street, address.neighbourhood, address.municipality, address.province]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(", ");
  return address.reference.trim() ? `${parts} (${address.reference.trim()})` : parts;
}
