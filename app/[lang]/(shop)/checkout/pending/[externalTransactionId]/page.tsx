import type { Metadata } from "next";
import { OrderResult } from "@/components/orders/order-result";
import { getLang } from "@/lib/http/request-lang";

// Where the PayButton goes after onPending. The page shows what the server knows, never the callback's word.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.order.pendingTitle, robots: { index: false } };
}

export default async function CheckoutPendingPage({ params }: { params: Promise<{ externalTransactionId: string }> }) {
  const { externalTransactionId } = await params;
  return <OrderResult externalTransactionId={externalTransactionId} page="pending" />;
}
