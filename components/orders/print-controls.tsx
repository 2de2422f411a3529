import Link from "next/link";
import { PrintButton } from "@/components/orders/print-button";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * What a printable page of an order (its receipt, a refund note) shows above the document and
 * hides on paper: the way back to the order, the paper's two formats and the print button; and
 * the @page rule of the format chosen. `?format=80mm` lays the document out for an 80 mm thermal
 * roll, anything else on A4.
 */

export type PrintFormat = "a4" | "80mm";

export const printFormatOf = (query: Record<string, string | string[] | undefined>): PrintFormat =>
  query.format === "80mm" ? "80mm" : "a4";

/**
 * The paper: A4 with the margins most printers keep, or an 80 mm roll (72 mm printed) as long as
 * an A4 is tall, which a roll printer's driver cuts after the last line.
 */
const PAGE_RULE: Record<PrintFormat, string> = {
  a4: "@page { size: A4; margin: 15mm; }",
  "80mm": "@page { size: 80mm 297mm; margin: 4mm; }",
};

export function PrintControls({
  t,
  orderPath,
  path,
  format,
}: {
  t: Dictionary;
  orderPath: string;
  /** The printable page's own path, without the query. */
  path: string;
  format: PrintFormat;
}) {
  // Plain links: a whole page load, whose @page rule is the only one in the document.
  const formatLink = (target: PrintFormat, label: string) => (
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
    </>
  );
}
