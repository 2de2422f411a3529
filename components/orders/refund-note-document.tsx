import type { ReactNode } from "react";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { formatAoa, formatSignedAoa } from "@/lib/money";
import { receiptNumber, type ReceiptSeller } from "@/lib/orders/receipt";
import { refundNoteNumber, type RefundNote } from "@/lib/orders/refund-note";
import type { PrintFormat } from "./print-controls";
import { documentTime, SellerDetails } from "./receipt-document";

/**
 * A refund's note as it prints (lib/orders/refund-note.ts), laid out as the order's receipt: on A4
 * or an 80 mm roll, the seller, the note's number, the order and its receipt, who is refunded,
 * when, how and how much, the units returned, and that it is not a certified credit note. A
 * correcting entry prints as the correction of the note it corrects, with its negative amount.
 */
export function RefundNoteDocument({
  t,
  note,
  seller,
  format,
  testMode,
}: {
  t: Dictionary;
  note: RefundNote;
  seller: ReceiptSeller;
  format: PrintFormat;
  /** The shop runs on the service's sandbox: the order's payment was a test. */
  testMode: boolean;
}) {
  const text = t.refundNote;
  const thermal = format === "80mm";
  const time = documentTime(t.locale);
  const corrected = note.correctsNumber === null ? null : refundNoteNumber(note.correctsNumber);
  const details: { label: string; value: ReactNode; testId?: string }[] = [
    { label: text.issuedAt, value: time(note.recordedAt) },
    { label: text.order, value: <span className="font-mono">{note.orderNumber}</span>, testId: "refund-note-order" },
    ...(note.invoiceNumber === null
      ? []
      : [{ label: text.receipt, value: <span className="font-mono">{receiptNumber(note.invoiceNumber)}</span> }]),
    { label: text.orderedAt, value: time(note.orderedAt) },
    ...(note.paidAt ? [{ label: text.paidAt, value: time(note.paidAt) }] : []),
    { label: text.refundedTo, value: note.customerName ?? t.receipt.noName, testId: "refund-note-customer" },
    { label: text.refundedAt, value: time(note.refundedAt) },
    { label: text.method, value: text.methods[note.method], testId: "refund-note-method" },
    ...(note.reference ? [{ label: text.reference, value: note.reference, testId: "refund-note-reference" }] : []),
  ];
  const totals: [label: string, value: string, testId: string][] = [
    [note.amountAoa < 0 ? text.correctionAmount : text.amount, formatSignedAoa(note.amountAoa), "refund-note-amount"],
    [text.orderPaid, formatAoa(note.paidAoa), "refund-note-paid"],
    [text.refundedToDate, formatSignedAoa(note.refundedToDateAoa), "refund-note-refunded"],
  ];

  return (
    <article
      data-testid="refund-note"
      data-format={format}
      aria-labelledby="refund-note-heading"
      className={
        thermal
          ? "mx-auto flex w-[72mm] flex-col gap-3 bg-white p-3 text-xs text-black shadow-sm print:p-0 print:shadow-none"
          : "mx-auto flex max-w-3xl flex-col gap-6 rounded-xl border border-stone-200 bg-white p-4 text-sm text-black sm:p-8 print:max-w-none print:rounded-none print:border-0 print:p-0"
      }
    >
      <header className={thermal ? "flex flex-col gap-2 text-center" : "flex flex-wrap justify-between gap-6"}>
        <SellerDetails t={t} seller={seller} thermal={thermal} />
        <div className={thermal ? "flex flex-col gap-0.5" : "flex flex-col gap-0.5 sm:text-right print:text-right"}>
          <h1 id="refund-note-heading" className={thermal ? "text-base font-bold" : "text-2xl font-bold"}>
            {corrected ? text.correctionHeading(corrected) : note.amountAoa < 0 ? text.correctionOf : text.heading}
          </h1>
          <p>
            {text.number}{" "}
            <span data-testid="refund-note-number" className="font-mono font-semibold">
              {refundNoteNumber(note.number)}
            </span>
          </p>
        </div>
      </header>

      {testMode && <p className="border border-black px-2 py-1 text-center font-semibold">{t.receipt.testMode}</p>}

      <dl
        className={
          thermal
            ? "grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5"
            : "grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr_auto_1fr]"
        }
      >
        {details.map(({ label, value, testId }) => (
          <Detail key={label} label={label} testId={testId}>
            {value}
          </Detail>
        ))}
      </dl>

      <section aria-labelledby="refund-note-returned" className="flex flex-col gap-1">
        <h2 id="refund-note-returned" className="font-semibold">
          {text.returned}
        </h2>
        {note.units.length === 0 ? (
          <p data-testid="refund-note-no-units">{text.nothingReturned}</p>
        ) : (
          <ul
            className={`flex flex-col gap-1 border-y py-2 ${thermal ? "border-dashed border-black" : "border-stone-300"}`}
          >
            {note.units.map((unit, index) => (
              <li key={index} data-testid="refund-note-unit" className="flex justify-between gap-3">
                <span>
                  <span className="font-medium">{unit.productName}</span>
                  {unit.variantTitle && <span className="block">{unit.variantTitle}</span>}
                </span>
                <span className="tabular-nums whitespace-nowrap">
                  {text.quantity} {unit.quantity}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <dl className={thermal ? "flex flex-col gap-0.5" : "ml-auto flex w-full max-w-xs flex-col gap-1"}>
        {totals.map(([label, value, testId], index) => (
          <div
            key={testId}
            className={`flex justify-between gap-4 ${index === 0 ? `border-b-2 border-black pb-1 font-bold ${thermal ? "text-sm" : "text-base"}` : ""}`}
          >
            <dt>{label}</dt>
            <dd data-testid={testId} className="tabular-nums whitespace-nowrap">
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <footer className={thermal ? "flex flex-col gap-1 text-center" : "flex flex-col gap-1"}>
        <p data-testid="refund-note-not-credit-note" className="font-semibold">
          {text.notCreditNote}
        </p>
        <p>{text.notCertified}</p>
        <p>{t.receipt.luandaTime}</p>
      </footer>
    </article>
  );
}

function Detail({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}
