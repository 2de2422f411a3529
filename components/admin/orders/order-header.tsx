import Link from "next/link";
import { Field } from "@/components/admin/field";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaSecond } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import { receiptNumber } from "@/lib/orders/receipt";
import type { AdminOrderHeader } from "@/lib/orders/timeline-admin";

/** An order's facts at the top of its back-office page: status, amount, customer, references, dates, attention. */
export function OrderHeader({ order, t }: { order: AdminOrderHeader; t: Dictionary }) {
  const text = t.admin.order;
  return (
    <dl
      data-testid="order-header"
      className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-xl border border-stone-200 bg-white p-4 text-sm sm:grid-cols-2"
    >
      <Field label={text.status}>{t.order.status[order.status]}</Field>
      <Field label={text.amount}>{formatAoa(order.amountAoa)}</Field>
      <Field label={text.customer}>{order.customerName ?? "—"}</Field>
      <Field label={text.phone}>{order.customerPhone ?? "—"}</Field>
      <Field label={text.nif}>
        <span data-testid="order-nif" className="font-mono">
          {order.customerNif ?? "—"}
        </span>
      </Field>
      {order.invoiceNumber !== null && (
        <Field label={text.receipt}>
          {/* The shopper's receipt page: the back office opens the same document the shopper prints. */}
          <Link
            href={`/orders/${order.externalTransactionId}/receipt`}
            data-testid="order-receipt"
            className="underline"
          >
            {t.receipt.openAdmin(receiptNumber(order.invoiceNumber))}
          </Link>
        </Field>
      )}
      <Field label={text.referenceNumber}>{order.referenceNumber ?? "—"}</Field>
      <Field label={text.paymentReference}>
        {order.paymentReference ?? "—"}
        {order.entityNumber && ` (${text.entity} ${order.entityNumber})`}
      </Field>
      <Field label={text.created}>{luandaSecond(order.createdAt)}</Field>
      <Field label={text.finalized}>{order.finalizedAt ? luandaSecond(order.finalizedAt) : "—"}</Field>
      {order.cancelReason && <Field label={text.cancelReason}>{order.cancelReason}</Field>}
      {order.attentionReason && (
        <Field label={text.attention}>
          <span data-testid="attention">{order.attentionReason}</span>
          {order.paidAfterCancelAt && (
            <span className="block text-stone-600">
              {text.paidAfterCancel}: {luandaSecond(order.paidAfterCancelAt)}
            </span>
          )}
        </Field>
      )}
      {order.attentionResolvedAt && (
        <Field label={text.resolve.resolved(luandaSecond(order.attentionResolvedAt))}>
          <span data-testid="attention-note" className="break-words whitespace-pre-wrap">
            {order.attentionNote}
          </span>
        </Field>
      )}
    </dl>
  );
}
