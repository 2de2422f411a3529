import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaSecond } from "@/lib/luanda-time";
import { MAX_FULFILMENT_NOTE } from "@/lib/orders/fulfilment";
import type { AdminOrderHeader } from "@/lib/orders/timeline-admin";

const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";

/** A paid order's preparation and delivery: its state, and the next steps as buttons (POST `<actionPath>/fulfilment`). */
export function FulfilmentSection({
  order,
  actionPath,
  t,
}: {
  order: AdminOrderHeader;
  actionPath: string;
  t: Dictionary;
}) {
  const text = t.admin.order;
  return (
    <div data-testid="order-fulfilment" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 className="text-lg font-semibold">{text.fulfilment.title}</h2>
      <p className="text-sm">
        {text.fulfilment.current}:{" "}
        <strong data-testid="fulfilment-state">
          {t.fulfilment.states[order.delivery.fulfilmentState ?? "to_prepare"]}
        </strong>
        {order.fulfilmentUpdatedAt && (
          <span className="text-stone-600"> · {luandaSecond(order.fulfilmentUpdatedAt)}</span>
        )}
      </p>
      {order.nextFulfilmentSteps.length === 0 ? (
        <p className="text-sm text-stone-600">{text.fulfilment.finished}</p>
      ) : (
        <form method="post" action={`${actionPath}/fulfilment`} className="flex flex-col gap-2">
          <label htmlFor="fulfilment-note" className="text-sm font-medium">
            {text.fulfilment.note}
          </label>
          <input
            id="fulfilment-note"
            name="note"
            type="text"
            maxLength={MAX_FULFILMENT_NOTE}
            aria-describedby="fulfilment-note-hint"
            className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm"
          />
          <p id="fulfilment-note-hint" className="text-sm text-stone-600">
            {text.fulfilment.noteHint}
          </p>
          <div className="flex flex-wrap gap-2">
            {order.nextFulfilmentSteps.map((state) => (
              <button key={state} type="submit" name="state" value={state} className={buttonClass}>
                {text.fulfilment.mark[state]}
              </button>
            ))}
          </div>
        </form>
      )}
    </div>
  );
}
