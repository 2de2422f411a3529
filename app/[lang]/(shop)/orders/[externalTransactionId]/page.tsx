import type { Metadata } from "next";
import { OrderProgressDetails } from "@/components/orders/order-progress";
import { OrderRefundsDetails } from "@/components/orders/order-refunds";
import { OrderResult } from "@/components/orders/order-result";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";
import { orderProgress } from "@/lib/orders/fulfilment";
import { shortOrderId } from "@/lib/orders/order-number";
import { shopperRefunds } from "@/lib/orders/refund-note";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  return { title: t.order.title(shortOrderId(externalTransactionId)), robots: { index: false } };
}

// The order (OrderResult, shared with the checkout's result pages), then its delivery and, once
// paid, its fulfilment steps (lib/orders/fulfilment.ts) and its refunds (lib/orders/refund-note.ts).
export default async function OrderPage({ params }: Props) {
  const { externalTransactionId } = await params;
  const [{ t }, progress, refunds] = await Promise.all([
    getLang(),
    orderProgress(db(), externalTransactionId),
    shopperRefunds(db(), externalTransactionId),
  ]);
  return (
    <OrderResult externalTransactionId={externalTransactionId} page="order">
      {progress && <OrderProgressDetails progress={progress} t={t} />}
      {refunds && <OrderRefundsDetails externalTransactionId={externalTransactionId} refunds={refunds} t={t} />}
    </OrderResult>
  );
}
