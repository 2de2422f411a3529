import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PrintControls, printFormatOf } from "@/components/orders/print-controls";
import { RefundNoteDocument } from "@/components/orders/refund-note-document";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { receiptSeller } from "@/lib/orders/receipt";
import { refundNote, refundNoteNumber, refundNotePath } from "@/lib/orders/refund-note";

// A refund's printable note (lib/orders/refund-note.ts), beside its order page and under the same
// rule: whoever has the order's unguessable id may open it; a number that is not one of this
// order's refunds is the not-found page, as an unknown order is. Never indexed, and never kept by
// any cache (Next's no-store for a page rendered per request; the service worker keeps only the
// order pages themselves). `?format=80mm` for an 80 mm roll, else A4, as the receipt.
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ externalTransactionId: string; number: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Read once per request, for the title and the page alike; only plain digits name a note. */
const noteOf = cache((externalTransactionId: string, number: string) =>
  /^[1-9]\d{0,9}$/.test(number) ? refundNote(db(), externalTransactionId, Number(number)) : null,
);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ t }, { externalTransactionId, number }] = await Promise.all([getLang(), params]);
  const note = await noteOf(externalTransactionId, number);
  return {
    title: note ? t.refundNote.title(refundNoteNumber(note.number)) : t.refundNote.heading,
    robots: { index: false, follow: false },
  };
}

export default async function RefundNotePage({ params, searchParams }: Props) {
  const [{ t }, { externalTransactionId, number }, query] = await Promise.all([getLang(), params, searchParams]);
  const note = await noteOf(externalTransactionId, number);
  if (!note) notFound();
  const format = printFormatOf(query);
  const env = getEnv();
  return (
    <>
      <PrintControls
        t={t}
        orderPath={`/orders/${externalTransactionId}`}
        path={refundNotePath(externalTransactionId, note.number)}
        format={format}
      />
      <RefundNoteDocument
        t={t}
        note={note}
        seller={receiptSeller(env.shop, t.shop.name)}
        format={format}
        testMode={env.pay.mode === "sandbox"}
      />
    </>
  );
}
