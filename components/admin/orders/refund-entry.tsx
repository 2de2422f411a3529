import { buttonClass, Field, fieldClass } from "@/components/admin/product-form";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import { luandaSecond } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import type { CorrectionField } from "@/lib/orders/refund-correction-rules";
import { REFUND_LIMITS } from "@/lib/orders/refund-rules";
import type { RefundView } from "@/lib/orders/refund-views-admin";
import { describedWhen } from "./refund-flash";
import { ReturnedUnits } from "./refund-parts";

type Words = BackOfficeTexts["refunds"];

/**
 * One refund or correcting entry of the order, as recorded: number, amount, method, when, proof,
 * note, who, and a return's units. A refund with something left to correct has its "Corrigir"
 * form, open again when its last correction was refused.
 */
export function RefundEntry({
  refund,
  left,
  action,
  words,
  refused,
}: {
  refund: RefundView;
  /** What of the refund its corrections have not taken back. */
  left: number;
  action: string;
  words: Words;
  /** Set when this refund's last correction was refused: the field it named, if any. */
  refused?: { field?: CorrectionField };
}) {
  const text = words.entry;
  const isCorrection = refund.correctsNumber !== null;
  return (
    <li
      data-testid="refund-entry"
      data-number={refund.number}
      className="flex flex-col gap-1 rounded-lg border border-stone-200 bg-white p-3 text-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <strong>
          {refund.correctsNumber === null
            ? text.refund(refund.number)
            : text.correction(refund.number, refund.correctsNumber)}
        </strong>
        <span data-testid="refund-amount" className="font-medium tabular-nums">
          {formatAoa(refund.amountAoa)}
        </span>
      </div>
      {!isCorrection && (
        <span>
          {text.method}: {words.methods[refund.method]} · {text.refundedAt} {luandaSecond(refund.refundedAt)}
        </span>
      )}
      {refund.reference && (
        <span className="break-words">
          {text.reference}: {refund.reference}
        </span>
      )}
      {refund.deliveryFeeAoa > 0 && <span>{text.deliveryFee(formatAoa(refund.deliveryFeeAoa))}</span>}
      {refund.lines.length > 0 && <ReturnedUnits lines={refund.lines} words={words} />}
      {refund.note && (
        <span className="break-words whitespace-pre-wrap text-stone-700">
          {isCorrection ? text.why : text.note}: {refund.note}
        </span>
      )}
      <span className="text-xs text-stone-500">
        {text.recordedBy(refund.staffName, luandaSecond(refund.createdAt))}
      </span>
      {!isCorrection &&
        (left > 0 ? (
          <CorrectionForm refund={refund} left={left} action={action} words={words} refused={refused} />
        ) : (
          <span className="text-xs text-stone-600">{words.correct.done}</span>
        ))}
    </li>
  );
}

function CorrectionForm({
  refund,
  left,
  action,
  words,
  refused,
}: {
  refund: RefundView;
  left: number;
  action: string;
  words: Words;
  refused?: { field?: CorrectionField };
}) {
  const text = words.correct;
  const id = (field: string) => `correction-${refund.number}-${field}`;
  return (
    <details open={refused !== undefined} className="mt-1">
      <summary className="cursor-pointer font-medium">
        {text.open}
        <span className="sr-only"> {words.entry.refund(refund.number)}</span>
      </summary>
      <form method="post" action={action} data-testid="correction-form" className="mt-2 flex flex-col gap-3">
        <Field label={text.amount} htmlFor={id("amount")} hint={text.amountHint(formatAoa(left))}>
          <input
            id={id("amount")}
            name="amountAoa"
            type="number"
            inputMode="numeric"
            min={1}
            max={left}
            step={1}
            className={fieldClass}
            {...describedWhen(refused?.field === "amountAoa", `${id("amount")}-hint`)}
          />
        </Field>
        <Field label={text.note} htmlFor={id("note")} hint={text.noteHint}>
          <textarea
            id={id("note")}
            name="note"
            required
            rows={2}
            maxLength={REFUND_LIMITS.noteMax}
            className={fieldClass}
            {...describedWhen(refused?.field === "note", `${id("note")}-hint`)}
          />
        </Field>
        <div>
          <button type="submit" className={buttonClass}>
            {text.submit}
          </button>
        </div>
      </form>
    </details>
  );
}
