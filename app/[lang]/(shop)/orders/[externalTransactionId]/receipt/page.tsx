import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PrintButton } from "@/components/orders/print-button";
import { ReceiptDocument, type ReceiptFormat } from "@/components/orders/receipt-document";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { orderReceipt, receiptNumber, receiptSeller } from "@/lib/orders/receipt";

// A paid order's receipt (lib/orders/receipt.ts), beside its order page and under the same rule:
// whoever has the order's unguessable id may open it; never indexed. `?format=80mm` lays it out
// for an 80 mm thermal roll, anything else on A4; the @page rule below sets the paper accordingly.
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

const formatOf = (query: Record<string, string | string[] | undefined>): ReceiptFormat =>
  query.format === "80mm" ? "80mm" : "a4";

/**
 * The paper: A4 with the margins most printers keep, or an 80 mm roll (72 mm printed) as long as
 * an A4 is tall, which a roll printer's driver cuts after the last line.
 */
const PAGE_RULE: Record<ReceiptFormat, string> = {
  a4: "@page { size: A4; margin: 15mm; }",
  "80mm": "@page { size: 80mm 297mm; margin: 4mm; }",
};

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
  const format = formatOf(query);
  const env = getEnv();
  const path = `${orderPath}/receipt`;
  // Plain links: a whole page load, whose @page rule is the only one in the document.
  const formatLink = (target: ReceiptFormat, label: string) => (
    <a
      href={target === "a4" ? path : `${path}?format=80mm`}
      aria-current={format === target ? "page" : undefined}
      className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100 aria-[current=page]:border-stone-900 aria-[current=page]:font-semibold"
    >
      {label}
    </a>
  );
  return (
    <>
      <style>{PAGE_RULE[format]}</style>
      <div className="mb-6 flex flex-wrap items-center gap-3 print:hidden">
        <Link href={orderPath} className="text-sm text-brand-700 hover:underline">
          {t.receipt.backToOrder}
        </Link>
        <nav aria-label={t.receipt.formats} className="flex gap-2">
          {formatLink("a4", t.receipt.a4)}
          {formatLink("80mm", t.receipt.thermal)}
        </nav>
        <PrintButton label={t.receipt.print} />
      </div>
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
