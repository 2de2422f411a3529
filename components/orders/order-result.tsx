import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ForgetThisPhone } from "@/components/offline/forget-this-phone";
import { ServiceWorkerRegistration } from "@/components/offline/service-worker-registration";
import { OrderStatus } from "@/components/orders/order-status";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { EXTERNAL_TRANSACTION_ID, shortOrderId } from "@/lib/orders/order-number";
import { getOrderSummary } from "@/lib/orders/summary";
import { whatsappLink } from "@/lib/whatsapp";

/**
 * The body of /checkout/success/[id], /checkout/pending/[id] and /orders/[id]: the order as the
 * database has it, then kept current by OrderStatus, and the link to the shop's WhatsApp when
 * SHOP_WHATSAPP is set. A malformed or unknown id is a 404. Showing an order installs the service
 * worker that keeps it readable offline, so each of these pages also offers to forget what this
 * browser keeps ("Esquecer este telefone").
 */
export async function OrderResult({
  externalTransactionId,
  page,
  children,
}: {
  externalTransactionId: string;
  page: "success" | "pending" | "order";
  /** What the page shows of the order below it (the order page: its delivery and steps). */
  children?: ReactNode;
}) {
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) notFound();
  const [{ lang, t }, order] = await Promise.all([getLang(), getOrderSummary(db(), externalTransactionId)]);
  if (!order) notFound();
  const number = shortOrderId(externalTransactionId);
  const whatsapp = getEnv().shop.whatsapp;
  const title =
    page === "success" ? t.order.successTitle : page === "pending" ? t.order.pendingTitle : t.order.title(number);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {page !== "order" && <p className="mt-1 text-sm text-stone-500">{t.order.title(number)}</p>}
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
        paidAfterCancel={order.paidAfterCancel}
        {...(order.referenceValidUntil ? { referenceValidUntil: order.referenceValidUntil } : {})}
      />
      {whatsapp && (
        // The order's number only: the shopper's phone and name never go into a link's text.
        <a
          href={whatsappLink(whatsapp, t.order.whatsappText(number))}
          target="_blank"
          rel="noopener"
          data-testid="order-whatsapp"
          className="self-start text-sm text-brand-700 hover:underline"
        >
          {t.order.talkToUs}
        </a>
      )}
      {children}
      <ForgetThisPhone texts={t.offline.forget} />
      <ServiceWorkerRegistration />
    </div>
  );
}
