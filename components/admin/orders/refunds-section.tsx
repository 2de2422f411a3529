import { Flash } from "@/components/admin/flash";
import type { PageQuery } from "@/lib/flash";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import { formatAoa } from "@/lib/money";
import { CORRECTION_FIELDS, type CorrectionField } from "@/lib/orders/refund-correction-rules";
import { REFUND_FIELDS, type RefundField } from "@/lib/orders/refund-rules";
import type { OrderRefunds } from "@/lib/orders/refund-views-admin";
import { REFUND_FLASH_ID, refundFlashOf, type RefundFlash } from "./refund-flash";
import { RefundEntry } from "./refund-entry";
import { RefundForm } from "./refund-form";

/**
 * The refunds of a paid order on its back-office page, for a role that may record them (the
 * page reads them only then: lib/orders/order-page-admin.ts): what was paid, given back (net of
 * corrections) and what remains, each refund and correction, and the form for a new refund while
 * something remains. `#refund` is where the forms' outcomes come back to.
 */
export function RefundsSection({
  refunds,
  query,
  actionPath,
  words,
}: {
  refunds: OrderRefunds;
  query: PageQuery;
  /** The order's routes: `/api/admin/orders/<id>`. */
  actionPath: string;
  words: BackOfficeTexts["refunds"];
}) {
  if (refunds.paidAoa === 0 && refunds.refunds.length === 0) return null;
  const flash = refundFlashOf(query);
  const refundRefused = flash.error && flash.correcting === undefined;
  const left = (number: number) =>
    refunds.refunds
      .filter((entry) => entry.number === number || entry.correctsNumber === number)
      .reduce((sum, entry) => sum + entry.amountAoa, 0);
  const totals = [
    [words.paid, refunds.paidAoa, "refund-paid"],
    [words.refunded, refunds.refundedAoa, "refund-refunded"],
    [words.remaining, refunds.remainingAoa, "refund-remaining"],
  ] as const;
  return (
    <div
      id="refund"
      data-testid="order-refunds"
      className="flex scroll-mt-4 flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h2 className="text-lg font-semibold">{words.title}</h2>
      <RefundFlashMessage flash={flash} words={words} />
      <dl className="grid grid-cols-3 gap-3 text-sm">
        {totals.map(([label, amount, testId]) => (
          <div key={testId} className="min-w-0">
            <dt className="text-xs text-stone-500">{label}</dt>
            <dd data-testid={testId} className="font-medium tabular-nums">
              {formatAoa(amount)}
            </dd>
          </div>
        ))}
      </dl>
      {refunds.refunds.length === 0 ? (
        <p className="text-sm text-stone-600">{words.none}</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {refunds.refunds.map((refund) => (
            <RefundEntry
              key={refund.id}
              refund={refund}
              left={left(refund.number)}
              action={`${actionPath}/refunds/${refund.number}/correction`}
              words={words}
              refused={
                flash.error && flash.correcting === refund.number
                  ? { field: fieldOf(flash.field, CORRECTION_FIELDS) }
                  : undefined
              }
            />
          ))}
        </ol>
      )}
      {refunds.remainingAoa > 0 ? (
        <RefundForm
          refunds={refunds}
          action={`${actionPath}/refunds`}
          words={words}
          invalid={refundRefused ? fieldOf(flash.field, REFUND_FIELDS) : undefined}
        />
      ) : (
        <p className="text-sm text-stone-600">{words.form.fullyRefunded}</p>
      )}
    </div>
  );
}

const fieldOf = <F extends RefundField | CorrectionField>(field: string | undefined, fields: readonly F[]) =>
  fields.find((name) => name === field);

function RefundFlashMessage({ flash, words }: { flash: RefundFlash; words: BackOfficeTexts["refunds"] }) {
  if (flash.error)
    return (
      <Flash kind="error" testId="refund-flash" id={REFUND_FLASH_ID}>
        {flash.error === "invalid_input"
          ? words.errors.invalid_input(
              // A correction's note is its "why".
              flash.field === "note" && flash.correcting !== undefined
                ? words.correct.note
                : flash.field && words.fields[flash.field],
            )
          : words.errors[flash.error]}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="refund-flash" id={REFUND_FLASH_ID}>
        {words.done[flash.done]}
      </Flash>
    );
  return null;
}
