import { notFound } from "next/navigation";
import { OrderStatus } from "@/components/orders/order-status";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";
import { EXTERNAL_TRANSACTION_ID } from "@/lib/orders/status";
import { getOrderSummary } from "@/lib/orders/summary";

/**
 * The body of /checkout/success/[id], /checkout/pending/[id] and /orders/[id]: the order as the
 * database has it, then kept current by OrderStatus. A malformed or unknown id is a 404.
 */
export async function OrderResult({
  externalTransactionId,
  page,
}: {
  externalTransactionId: string;
  page: "success" | "pending" | "order";
}) {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) notFound();
  const [{ lang, t }, order] = await Promise.all([getLang(), getOrderSummary(db(), externalTransactionId)]);
  if (!order) notFound();
  const title =
    page === "success"
      ? t.order.successTitle
      : page === "pending"
        ? t.order.pendingTitle
        : t.order.title(shortOrderId(externalTransactionId));
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {page !== "order" && (
          <p className="mt-1 text-sm text-stone-500">{t.order.title(shortOrderId(externalTransactionId))}</p>
        )}
      </div>
      <OrderStatus
        lang={lang}
        page={page}
        externalTransactionId={order.externalTransactionId}
        initial={{
          status: order.status,
          ...(order.paymentReference ? { paymentReference: order.paymentReference } : {}),
          ...(order.entityNumber ? { entityNumber: order.entityNumber } : {}),
          ...(order.payBy ? { payBy: order.payBy } : {}),
        }}
        amountAoa={order.amountAoa}
        lines={order.lines}
        cartCleared={order.cartCleared}
      />
    </div>
  );
}

/** The first block of the UUID, enough for a person to tell orders apart. */
export function shortOrderId(externalTransactionId: string): string {
  return externalTransactionId.slice("order_".length, "order_".length + 8).toUpperCase();
}
