import type { PaymentReferenceItem } from "./types";

/**
 * The items the payment button hands to the SDK's addAllPaymentReferences (contract 2.10), built
 * on the server from the order as stored, so they add up to the amount the service charges.
 */

export interface ReferenceLine {
  /** The product's name and variant, as lib/catalog/variants.ts lineName writes it. */
  name: string;
  unitPriceAoa: number;
  quantity: number;
  /** This line's share of the promo discount. */
  discountAoa: number;
  /** The variant's stock left once the order holds its units (`referenceTotalQuantity`). */
  stock: number;
}

/**
 * - one item per order line: its name with the variant ("Camisola…, M, Preta"), its unit price
 *   and quantity;
 * - a line that carries a share of a promo discount is priced after it. When that total does not
 *   divide by the quantity, the line becomes two items, one a kwanza dearer than the other
 *   (3 units for 10 000 → 2 × 3 333 and 1 × 3 334), because an item's amount is whole kwanza and
 *   never negative (contract 8, and our decision in docs/contract-decisions.md): no item is a
 *   negative "discount";
 * - the delivery fee, when there is one, as an item of its own.
 *
 * Every item carries the order's one referenceNumber.
 */
export function paymentReferenceItems(order: {
  referenceNumber: string;
  lines: readonly ReferenceLine[];
  promoCode: string | null;
  deliveryFeeAoa: number;
  /** "Entrega: Talatona". */
  deliveryDescription: string | null;
}): PaymentReferenceItem[] {
  const items: PaymentReferenceItem[] = [];
  for (const line of order.lines) {
    const item = (amount: number, quantity: number, description: string): PaymentReferenceItem => ({
      referenceNumber: order.referenceNumber,
      referenceDescription: description,
      referenceAmount: amount,
      referenceQuantity: quantity,
      referenceTotalQuantity: Math.max(line.stock, 0),
    });
    if (line.discountAoa <= 0) {
      items.push(item(line.unitPriceAoa, line.quantity, line.name));
      continue;
    }
    const description = `${line.name} (desconto ${order.promoCode ?? ""})`.replace(" )", ")");
    const total = line.unitPriceAoa * line.quantity - line.discountAoa;
    const base = Math.floor(total / line.quantity);
    const dearer = total - base * line.quantity;
    if (dearer > 0) items.push(item(base + 1, dearer, description));
    if (line.quantity - dearer > 0) items.push(item(base, line.quantity - dearer, description));
  }
  if (order.deliveryFeeAoa > 0)
    items.push({
      referenceNumber: order.referenceNumber,
      referenceDescription: order.deliveryDescription ?? "Entrega",
      referenceAmount: order.deliveryFeeAoa,
      referenceQuantity: 1,
      referenceTotalQuantity: 1,
    });
  return items;
}

/** What the items charge together: the order's amount, when they were built from it. */
export const referencesTotal = (items: readonly PaymentReferenceItem[]) =>
  items.reduce((sum, item) => sum + item.referenceAmount * item.referenceQuantity, 0);
