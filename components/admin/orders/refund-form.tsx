import { buttonClass, Field, fieldClass } from "@/components/admin/product-form";
import { lineName } from "@/lib/catalog/variants";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import { formatAoa } from "@/lib/money";
import { REFUND_LIMITS, REFUND_METHODS, type RefundField } from "@/lib/orders/refund-rules";
import type { OrderRefunds } from "@/lib/orders/refund-views-admin";
import { describedWhen } from "./refund-flash";

/**
 * A new refund of a paid order, with its return (POST `<actionPath>/refunds`, a plain form: the
 * server goes back to the page's #refund with the outcome). For each line that may still come
 * back, how many units go back to stock and how many are damaged; the amount (empty: the server
 * works it out, as the hint says), the delivery fee, the method, the proof, a note and when. A
 * cancelled order paid afterwards has no lines to return: the server refuses units then.
 */
export function RefundForm({
  refunds,
  action,
  words,
  invalid,
}: {
  refunds: OrderRefunds;
  action: string;
  words: BackOfficeTexts["refunds"];
  /** The field the last refusal of this form named. */
  invalid?: RefundField;
}) {
  const text = words.form;
  const returnable = refunds.lines.filter((line) => line.variantId !== null && line.returnable > 0);
  const feeLeft = refunds.deliveryFeeAoa - refunds.deliveryFeeRefundedAoa;
  return (
    <form
      method="post"
      action={action}
      data-testid="refund-form"
      className="flex flex-col gap-4 border-t border-stone-200 pt-4"
    >
      <h3 className="font-semibold">{text.title}</h3>
      {!refunds.returnsAllowed ? (
        <p className="text-sm text-stone-600">{text.noReturns}</p>
      ) : returnable.length === 0 ? (
        <p className="text-sm text-stone-600">{text.allReturned}</p>
      ) : (
        <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby="refund-returns-hint">
          <legend className="text-sm font-medium">{text.returns}</legend>
          <p id="refund-returns-hint" className="text-sm text-stone-600">
            {text.returnsHint}
          </p>
          {returnable.map((line) => (
            <fieldset
              key={line.id}
              data-testid="refund-line"
              className="flex min-w-0 flex-col gap-2 rounded-lg border border-stone-200 p-3"
              aria-describedby={`refund-line-${line.id}-left`}
            >
              <legend className="px-1 text-sm font-medium">{lineName(line.productName, line.variantTitle)}</legend>
              <p id={`refund-line-${line.id}-left`} className="text-sm text-stone-600">
                {text.returnable(line.returnable, line.quantity)}
              </p>
              <div className="grid grid-cols-2 gap-3">
                {(["restock", "damaged"] as const).map((state) => (
                  <Field key={state} label={text[state]} htmlFor={`refund-${state}-${line.id}`}>
                    <input
                      id={`refund-${state}-${line.id}`}
                      name={`returns.${line.variantId}.${state}`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={line.returnable}
                      step={1}
                      className={fieldClass}
                      {...describedWhen(invalid === "returns")}
                    />
                  </Field>
                ))}
              </div>
            </fieldset>
          ))}
        </fieldset>
      )}

      <Field label={text.amount} htmlFor="refund-amount" hint={text.amountHint(formatAoa(refunds.remainingAoa))}>
        <input
          id="refund-amount"
          name="amountAoa"
          type="number"
          inputMode="numeric"
          min={1}
          max={refunds.remainingAoa}
          step={1}
          className={fieldClass}
          {...describedWhen(invalid === "amountAoa", "refund-amount-hint")}
        />
      </Field>
      {feeLeft > 0 && (
        <div className="flex items-center gap-2">
          <input id="refund-fee" type="checkbox" name="includeDeliveryFee" value="on" className="h-4 w-4" />
          <label htmlFor="refund-fee" className="text-sm font-medium">
            {text.includeDeliveryFee(formatAoa(feeLeft))}
          </label>
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label={text.method} htmlFor="refund-method">
          <select
            id="refund-method"
            name="method"
            required
            defaultValue=""
            className={fieldClass}
            {...describedWhen(invalid === "method")}
          >
            <option value="" disabled>
              {text.choose}
            </option>
            {REFUND_METHODS.map((method) => (
              <option key={method} value={method}>
                {words.methods[method]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={text.reference} htmlFor="refund-reference">
          <input
            id="refund-reference"
            name="reference"
            maxLength={REFUND_LIMITS.referenceMax}
            autoComplete="off"
            className={fieldClass}
            {...describedWhen(invalid === "reference")}
          />
        </Field>
        <Field label={text.refundedAt} htmlFor="refund-at" hint={text.refundedAtHint}>
          <input
            id="refund-at"
            name="refundedAt"
            type="datetime-local"
            className={fieldClass}
            {...describedWhen(invalid === "refundedAt", "refund-at-hint")}
          />
        </Field>
      </div>
      <Field label={text.note} htmlFor="refund-note">
        <textarea
          id="refund-note"
          name="note"
          rows={2}
          maxLength={REFUND_LIMITS.noteMax}
          className={fieldClass}
          {...describedWhen(invalid === "note")}
        />
      </Field>
      <div>
        <button type="submit" className={buttonClass}>
          {text.submit}
        </button>
      </div>
    </form>
  );
}
