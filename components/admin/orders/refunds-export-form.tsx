import type { BackOfficeTexts } from "@/lib/i18n/back-office";

/**
 * The refunds' CSV form beside the orders' export on the orders list (GET /api/admin/refunds/export,
 * lib/orders/refund-export-admin.ts): two Luanda dates, today by default. The owner's alone: the
 * page shows it only to a role that may call the route.
 */
export function RefundsExportForm({ words, today }: { words: BackOfficeTexts["refundFigures"]; today: string }) {
  const fieldClass = "rounded-md border border-stone-300 bg-white px-3 py-2";
  return (
    <form
      method="get"
      action="/api/admin/refunds/export"
      data-testid="refunds-export"
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white px-4 py-3"
    >
      <h2 className="text-lg font-semibold">{words.exportTitle}</h2>
      <p className="text-sm text-stone-600">{words.exportHint}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="refunds-export-from" className="text-sm font-medium">
            {words.from}
          </label>
          <input
            id="refunds-export-from"
            name="from"
            type="date"
            required
            defaultValue={today}
            className={fieldClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="refunds-export-to" className="text-sm font-medium">
            {words.to}
          </label>
          <input id="refunds-export-to" name="to" type="date" required defaultValue={today} className={fieldClass} />
        </div>
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600">
          {words.download}
        </button>
      </div>
    </form>
  );
}
