import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PrintControls, printFormatOf } from "@/components/orders/print-controls";
import { ReceiptDocument } from "@/components/orders/receipt-document";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { orderReceipt, receiptNumber, receiptSeller } from "@/lib/orders/receipt";

// A paid order's receipt (lib/orders/receipt.ts), beside its order page and under the same rule:
// whoever has the order's unguessable id may open it; never indexed. `?format=80mm` lays it out
// for an 80 mm thermal roll, anything else on A4 (PrintControls sets the paper accordingly).
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Read once per request, for the title and the page alike. */
const receiptOf = cache((externalTransactionId: string) => orderReceipt(db(), externalTransactionId));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  const found = await receiptOf(externalTransactionId);
  return {
    title: found?.state === "issued" ? t.receipt.title(receiptNumber(found.receipt.invoiceNumber)) : t.receipt.heading,
    robots: { index: false, follow: false },
  };
}

export default async function ReceiptPage({ params, searchParams }: Props) {
  const [{ t }, { externalTransactionId }, query] = await Promise.all([getLang(), params, searchParams]);
  const found = await receiptOf(externalTransactionId);
  if (!found) notFound();
  const orderPath = `/orders/${externalTransactionId}`;
  if (found.state === "preparing") {
    return (
      <section className="mx-auto flex max-w-2xl flex-col gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{t.receipt.preparingTitle}</h1>
        <p data-testid="receipt-preparing">{t.receipt.preparing}</p>
        <Link href={orderPath} className="self-start text-brand-700 hover:underline">
          {t.receipt.backToOrder}
        </Link>
      </section>
    );
  }
  const format = printFormatOf(query);
  const env = getEnv();
  return (
    <>
      <PrintControls t={t} orderPath={orderPath} path={`${orderPath}/receipt`} format={format} />
      <ReceiptDocument
        t={t}
        receipt={found.receipt}
        seller={receiptSeller(env.shop, t.shop.name)}
        format={format}
        testMode={env.pay.mode === "sandbox"}
      />
    </>
  );
}
