import { mayCallRoute, type Role } from "@/lib/admin/roles";
import { lineName } from "@/lib/catalog/variants";
import type { PaidAfterCancelTexts } from "@/lib/i18n/paid-after-cancel-texts";
import type { ShortLine } from "@/lib/orders/fulfil-after-cancel-admin";
import { orderPagePath } from "@/lib/orders/order-flash";
import { REFUND_LIMITS, REFUND_METHODS } from "@/lib/orders/refund-rules";

/**
 * The owner's decision on an order paid after the shop had cancelled it, on its attention item
 * (the home's list and the order's page): "Reembolsar" (the refund route, the whole payment by
 * default) or "Cumprir" (lib/orders/fulfil-after-cancel-admin.ts). Either closes the item; both
 * go to the order's page, which shows the outcome (the refund's in its refunds section, at
 * `#refund`; the other with the page's own flash). Plain forms: they work without JavaScript.
 */

/** Whether `role` may take the decision: both routes are in lib/admin/roles.ts, the owner's alone. */
export const decidesPaidAfterCancel = (role: Role) =>
  mayCallRoute(role, "/api/admin/orders/[externalTransactionId]/refunds", "POST") &&
  mayCallRoute(role, "/api/admin/orders/[externalTransactionId]/fulfil-after-cancel", "POST");

const buttonClass = "self-start rounded-md bg-brand-700 px-3 py-1 text-sm font-medium text-white hover:bg-brand-600";
const inputClass = "rounded-md border border-stone-300 bg-white px-3 py-2 text-sm";

export function PaidAfterCancelActions({
  externalTransactionId,
  amountAoa,
  idPrefix,
  text,
  short = [],
  intro = false,
}: {
  externalTransactionId: string;
  /** What the order paid: the refund's amount unless the owner changes it. */
  amountAoa: number;
  /** Keeps the labels' targets unique when a page lists several orders. */
  idPrefix: string;
  text: PaidAfterCancelTexts["paidAfterCancel"];
  /** What is short for "Cumprir" now, when the page knows (the order's page). */
  short?: ShortLine[];
  /** Say what happened first (the order's page; the home's list says it once for all its items). */
  intro?: boolean;
}) {
  const action = orderPagePath(externalTransactionId).replace("/admin/", "/api/admin/");
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div data-testid="paid-after-cancel-actions" className="flex flex-col gap-3">
      {intro && <p className="text-sm text-stone-700">{text.hint}</p>}
      <details className="rounded-md border border-stone-200 bg-white p-3">
        <summary className="cursor-pointer text-sm font-medium">{text.refund}</summary>
        <form method="post" action={`${action}/refunds`} className="mt-2 flex flex-col gap-2">
          <label htmlFor={id("amount")} className="text-sm font-medium">
            {text.amount}
          </label>
          <input
            id={id("amount")}
            name="amountAoa"
            type="number"
            inputMode="numeric"
            min={1}
            max={REFUND_LIMITS.amountMax}
            step={1}
            defaultValue={amountAoa}
            aria-describedby={id("amount-hint")}
            className={inputClass}
          />
          <p id={id("amount-hint")} className="text-sm text-stone-600">
            {text.amountHint}
          </p>
          <label htmlFor={id("method")} className="text-sm font-medium">
            {text.method}
          </label>
          <select id={id("method")} name="method" required className={inputClass}>
            {REFUND_METHODS.map((method) => (
              <option key={method} value={method}>
                {text.methods[method]}
              </option>
            ))}
          </select>
          <label htmlFor={id("reference")} className="text-sm font-medium">
            {text.reference}
          </label>
          <input
            id={id("reference")}
            name="reference"
            type="text"
            maxLength={REFUND_LIMITS.referenceMax}
            className={inputClass}
          />
          <label htmlFor={id("note")} className="text-sm font-medium">
            {text.note}
          </label>
          <textarea id={id("note")} name="note" maxLength={REFUND_LIMITS.noteMax} rows={2} className={inputClass} />
          <button type="submit" className={buttonClass}>
            {text.submitRefund}
          </button>
        </form>
      </details>
      <form method="post" action={`${action}/fulfil-after-cancel`} className="flex flex-col gap-2">
        <p id={id("fulfil-hint")} className="text-sm text-stone-700">
          {text.fulfilHint}
        </p>
        {short.length > 0 && (
          <div data-testid="fulfil-short" className="text-sm text-amber-900">
            <p>{text.short}</p>
            <ul className="list-disc pl-5">
              {short.map((line, index) => {
                const name = lineName(line.productName, line.variantTitle);
                return (
                  <li key={index}>
                    {line.inStock === null ? text.gone(name) : text.shortLine(name, line.needed, line.inStock)}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        <button type="submit" aria-describedby={id("fulfil-hint")} className={buttonClass}>
          {text.fulfil}
        </button>
      </form>
    </div>
  );
}
