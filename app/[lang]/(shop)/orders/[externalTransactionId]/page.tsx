import type { Metadata } from "next";
import { OrderProgressDetails } from "@/components/orders/order-progress";
import { OrderResult } from "@/components/orders/order-result";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";
import { orderProgress } from "@/lib/orders/fulfilment";
import { shortOrderId } from "@/lib/orders/order-number";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  return { title: t.order.title(shortOrderId(externalTransactionId)), robots: { index: false } };
}

// The order (OrderResult, shared with the checkout's result pages), then its delivery and, once
// paid, its fulfilment steps (lib/orders/fulfilment.ts).
export default async function OrderPage({ params }: Props) {
  const { externalTransactionId } = await params;
  const [{ t }, progress] = await Promise.all([getLang(), orderProgress(db(), externalTransactionId)]);
  return (
    <OrderResult externalTransactionId={externalTransactionId} page="order">
      {progress && <OrderProgressDetails progress={progress} t={t} />}
    </OrderResult>
  );
}
