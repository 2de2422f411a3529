import type { ReactNode } from "react";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { formatAoa } from "@/lib/money";
import { addressLine, type OrderDelivery } from "@/lib/orders/delivery-details";

/**
 * How an order's goods reach the shopper (method, zone and address, or pickup point and its
 * hours) and what its amount is made of, as snapshotted at checkout (lib/orders/delivery-details.ts):
 * on the shopper's order page and the back office's. Nothing for an order placed before the shop
 * stored them, which has neither a method nor a subtotal. Customer-typed text is rendered as text.
 */
export function OrderDeliveryDetails({
  delivery,
  t,
  showEmail = false,
}: {
  delivery: OrderDelivery;
  t: Dictionary;
  /** The back office shows the shopper's email; the shopper's own page does not need to. */
  showEmail?: boolean;
}) {
  const text = t.fulfilment;
  const { breakdown } = delivery;
  if (!delivery.method && !breakdown && !(showEmail && delivery.customerEmail)) return null;
  return (
    <div data-testid="order-delivery" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 className="text-lg font-semibold">{text.deliveryTitle}</h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <Item label={text.method}>{delivery.method ? text.methods[delivery.method] : text.noMethod}</Item>
        {delivery.method === "delivery" && delivery.zone && (
          <Item label={text.zone}>
            {delivery.zone.name}
            {delivery.zone.estimatedDays !== null && (
              <span className="block text-stone-600">{text.estimatedDays(delivery.zone.estimatedDays)}</span>
            )}
          </Item>
        )}
        {delivery.method === "delivery" && delivery.address && (
          <Item label={text.address}>
            <span data-testid="delivery-address">{addressLine(delivery.address)}</span>
          </Item>
        )}
        {delivery.method === "pickup" && delivery.pickup && (
          <>
            <Item label={text.pickupPoint}>
              <span data-testid="pickup-point">{delivery.pickup.name}</span>
              <span className="block text-stone-600">{delivery.pickup.address}</span>
            </Item>
            <Item label={text.hours}>{delivery.pickup.hours}</Item>
          </>
        )}
        {showEmail && <Item label={text.email}>{delivery.customerEmail ?? "—"}</Item>}
      </dl>
      {breakdown && (
        <dl data-testid="order-breakdown" className="flex flex-col gap-1 border-t border-stone-100 pt-3 text-sm">
          <Row label={text.subtotal} value={formatAoa(breakdown.subtotalAoa)} />
          {breakdown.discountAoa > 0 && (
            <Row label={text.discount(breakdown.promoCode)} value={`−${formatAoa(breakdown.discountAoa)}`} />
          )}
          {(delivery.method === "delivery" || breakdown.deliveryFeeAoa > 0) && (
            <Row label={text.deliveryFee} value={formatAoa(breakdown.deliveryFeeAoa)} />
          )}
          <Row label={text.total} value={formatAoa(breakdown.totalAoa)} strong />
        </dl>
      )}
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-stone-600">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 ${strong ? "font-semibold" : ""}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
