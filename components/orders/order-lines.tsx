import type { Dictionary } from "@/lib/i18n/dictionaries";
import { formatAoa } from "@/lib/money";
import { lineName } from "@/lib/catalog/variants";

export interface OrderLineView {
  productName: string;
  variantTitle: string;
  unitPriceAoa: number;
  quantity: number;
  lineTotalAoa: number;
}

/** The lines of an order (its snapshot, not today's prices) and its total. */
export function OrderLines({ t, lines, totalAoa }: { t: Dictionary; lines: OrderLineView[]; totalAoa: number }) {
  return (
    <div>
      <h2 className="mb-2 font-medium">{t.order.lines}</h2>
      <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
        {lines.map((line, index) => (
          <li key={index} className="flex justify-between gap-4 px-4 py-2">
            <span>
              {line.quantity} × {lineName(line.productName, line.variantTitle)}
            </span>
            <span className="tabular-nums">{formatAoa(line.lineTotalAoa)}</span>
          </li>
        ))}
        <li className="flex justify-between gap-4 px-4 py-2 font-semibold">
          <span>{t.order.total}</span>
          <span className="tabular-nums" data-testid="order-total">
            {formatAoa(totalAoa)}
          </span>
        </li>
      </ul>
    </div>
  );
}
