import type { Metadata } from "next";
import { OrderResult, shortOrderId } from "@/components/order-result";
import { getLang } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  return { title: t.order.title(shortOrderId(externalTransactionId)), robots: { index: false } };
}

export default async function OrderPage({ params }: Props) {
  const { externalTransactionId } = await params;
  return <OrderResult externalTransactionId={externalTransactionId} page="order" />;
}
