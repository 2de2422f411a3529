import { lineName } from "@/lib/catalog/variants";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import { luandaSecond } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import type { RefundLineView, RefundView } from "@/lib/orders/refund-views-admin";

/** A refund's pieces shown both in the order's refunds section and in its timeline. */

/** The units a return brought back, one row per order line: how many went back to stock, how many were damaged. */
export function ReturnedUnits({ lines, words }: { lines: RefundLineView[]; words: BackOfficeTexts["refunds"] }) {
  const byLine = new Map<string, { name: string; restocked: number; damaged: number }>();
  for (const line of lines) {
    const entry = byLine.get(line.orderLineId) ?? {
      name: lineName(line.productName, line.variantTitle),
      restocked: 0,
      damaged: 0,
    };
    if (line.restock) entry.restocked += line.quantity;
    else entry.damaged += line.quantity;
    byLine.set(line.orderLineId, entry);
  }
  return (
    <ul aria-label={words.entry.units} className="flex flex-col gap-0.5">
      {[...byLine.values()].map((entry, index) => (
        <li key={index} data-testid="returned-line">
          {entry.restocked + entry.damaged} × {entry.name}:{" "}
          {[
            entry.restocked > 0 ? words.entry.restocked(entry.restocked) : null,
            entry.damaged > 0 ? words.entry.damaged(entry.damaged) : null,
          ]
            .filter(Boolean)
            .join(", ")}
        </li>
      ))}
    </ul>
  );
}

/** A refund (how much, how, when the money went back, the units of its return) or a correction, and who recorded it. */
export function RefundEventBody({ event, words }: { event: RefundView; words: BackOfficeTexts["refunds"] }) {
  const amount = formatAoa(event.amountAoa);
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-medium">
        {event.correctsNumber === null
          ? words.event.refund(event.number, amount, words.methods[event.method], event.staffName)
          : words.event.correction(event.number, event.correctsNumber, amount, event.staffName)}
      </span>
      {event.correctsNumber === null && (
        <span className="text-stone-600">
          {words.event.refundedAt(luandaSecond(event.refundedAt))}
          {event.reference && ` · ${words.entry.reference}: ${event.reference}`}
        </span>
      )}
      {event.lines.length > 0 && <ReturnedUnits lines={event.lines} words={words} />}
      {event.note && (
        <span className="break-words whitespace-pre-wrap text-stone-700">
          {event.correctsNumber === null ? words.entry.note : words.entry.why}: {event.note}
        </span>
      )}
    </div>
  );
}
