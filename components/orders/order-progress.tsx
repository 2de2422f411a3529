import { OrderDeliveryDetails } from "@/components/orders/order-delivery";
import { luandaMinute } from "@/lib/luanda-time";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { fulfilmentPath, type FulfilmentState } from "@/lib/orders/fulfilment-states";
import type { OrderProgress } from "@/lib/orders/fulfilment";

/**
 * Below the shopper's order (/orders/<id>): how the goods come (lib/orders/delivery-details.ts)
 * and, once paid, the steps — to prepare, then shipped and delivered or ready for pickup and
 * collected — each with its date (Luanda time) and the shop's note, the next ones "to come".
 */
export function OrderProgressDetails({ progress, t }: { progress: OrderProgress; t: Dictionary }) {
  const text = t.fulfilment;
  const current = progress.delivery.fulfilmentState;
  const eventOf = (state: FulfilmentState) => progress.events.find((event) => event.state === state);
  const steps: { key: string; label: string; at: Date | null; note: string | null }[] = [
    { key: "to_prepare", label: text.states.to_prepare, at: progress.paidAt, note: null },
    ...fulfilmentPath(progress.delivery.method, current).map((state) => {
      const event = eventOf(state);
      return { key: state, label: text.states[state], at: event?.createdAt ?? null, note: event?.note ?? null };
    }),
  ];
  const currentKey = current ?? "to_prepare";
  return (
    <>
      <OrderDeliveryDetails delivery={progress.delivery} t={t} />
      {progress.status === "CON" && (
        <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
          <h2 className="text-lg font-semibold">{text.stepsTitle}</h2>
          <ol data-testid="fulfilment-steps" className="flex flex-col gap-3 border-l-2 border-stone-200 pl-4">
            {steps.map((step) => (
              <li
                key={step.key}
                data-testid="fulfilment-step"
                data-state={step.key}
                data-done={step.at ? "true" : "false"}
                aria-current={step.key === currentKey ? "step" : undefined}
                className="text-sm"
              >
                <span className={step.at ? "font-semibold" : "text-stone-600"}>{step.label}</span>{" "}
                {step.at ? (
                  <time dateTime={step.at.toISOString()} className="text-stone-600 tabular-nums">
                    {text.stepDone(luandaMinute(step.at))}
                  </time>
                ) : (
                  <span className="text-stone-600">({text.stepToCome})</span>
                )}
                {step.note && (
                  <span className="block break-words text-stone-700">
                    {text.note}: {step.note}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </>
  );
}
