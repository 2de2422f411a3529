import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaMinute } from "@/lib/luanda-time";
import { formatAoa, formatSignedAoa } from "@/lib/money";
import { lineName } from "@/lib/catalog/variants";
import { refundNoteNumber, refundNotePath, type ShopperRefunds } from "@/lib/orders/refund-note";

/**
 * Below the shopper's order (/orders/<id>), once the shop has recorded a refund of it
 * (lib/orders/refund-note.ts): each refund, and each correcting entry as its own entry with its
 * negative amount, with its date (Luanda time), amount, method, reference and units returned and a
 * link to its printable note; then what was paid, what went back and what remains paid.
 */
export function OrderRefundsDetails({
  externalTransactionId,
  refunds,
  t,
}: {
  externalTransactionId: string;
  refunds: ShopperRefunds;
  t: Dictionary;
}) {
  const text = t.orderRefunds;
  return (
    <section
      aria-labelledby="order-refunds-title"
      data-testid="order-refunds"
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h2 id="order-refunds-title" className="text-lg font-semibold">
        {text.title}
      </h2>
      <ol className="flex flex-col gap-3">
        {refunds.refunds.map((refund) => {
          const number = refundNoteNumber(refund.number);
          const corrected = refund.correctsNumber === null ? null : refundNoteNumber(refund.correctsNumber);
          return (
            <li
              key={refund.number}
              data-testid="order-refund"
              data-number={refund.number}
              className="flex flex-col gap-1 border-b border-stone-100 pb-3 text-sm last:border-b-0 last:pb-0"
            >
              <p className="flex flex-wrap justify-between gap-x-4 font-semibold">
                <span>{refund.amountAoa < 0 ? text.correction(number, corrected) : text.refund(number)}</span>
                <span data-testid="order-refund-amount" className="tabular-nums">
                  {formatSignedAoa(refund.amountAoa)}
                </span>
              </p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-stone-700">
                <dt>{text.refundedAt}</dt>
                <dd>
                  <time dateTime={refund.refundedAt.toISOString()} className="tabular-nums">
                    {luandaMinute(refund.refundedAt)}
                  </time>
                </dd>
                <dt>{text.method}</dt>
                <dd>{t.refundNote.methods[refund.method]}</dd>
                {refund.reference && (
                  <>
                    <dt>{text.reference}</dt>
                    <dd className="break-words">{refund.reference}</dd>
                  </>
                )}
                {refund.units.length > 0 && (
                  <>
                    <dt>{text.returned}</dt>
                    <dd data-testid="order-refund-units">
                      <ul>
                        {refund.units.map((unit, index) => (
                          <li key={index} className="break-words">
                            {unit.quantity} × {lineName(unit.productName, unit.variantTitle)}
                          </li>
                        ))}
                      </ul>
                    </dd>
                  </>
                )}
              </dl>
              <a
                href={refundNotePath(externalTransactionId, refund.number)}
                data-testid="refund-note-link"
                className="self-start text-brand-700 hover:underline"
              >
                {text.openNote(number)}
              </a>
            </li>
          );
        })}
      </ol>
      <dl data-testid="order-refund-totals" className="flex flex-col gap-1 border-t border-stone-200 pt-3 text-sm">
        <Row label={text.paid} value={formatAoa(refunds.paidAoa)} />
        <Row label={text.refunded} value={formatSignedAoa(refunds.refundedAoa)} />
        <Row label={text.netPaid} value={formatSignedAoa(refunds.netPaidAoa)} testId="order-net-paid" strong />
      </dl>
    </section>
  );
}

function Row({
  label,
  value,
  testId,
  strong = false,
}: {
  label: string;
  value: string;
  testId?: string;
  strong?: boolean;
}) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? "font-semibold" : ""}`}>
      <dt>{label}</dt>
      <dd data-testid={testId} className="tabular-nums">
        {value}
      </dd>
    </div>
  );
}
