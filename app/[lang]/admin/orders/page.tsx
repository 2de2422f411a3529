import type { Metadata } from "next";
import Link from "next/link";
import { luandaDate, luandaMinute } from "@/lib/luanda-time";
import { requireStaff } from "@/lib/http/admin-guard";
import { listAdminOrders, ORDER_STATUSES, parseOrdersQuery, type OrdersQuery } from "@/lib/orders/orders-admin";
import { DELIVERY_METHODS, FULFILMENT_FILTERS, isFulfilmentState } from "@/lib/orders/fulfilment-states";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";
import { backOfficeTexts } from "@/lib/i18n/back-office";
import { formatAoa } from "@/lib/money";
import { mayCallRoute } from "@/lib/admin/roles";
import { RefundsExportForm } from "@/components/admin/orders/refunds-export-form";

// The back office's orders list and CSV export form (lib/orders/orders-admin.ts, lib/orders/export-admin.ts), and
// for the owner the refunds' (lib/orders/refund-export-admin.ts).
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.orders.title, robots: { index: false, follow: false } };
}

type Query = Record<string, string | string[] | undefined>;

/** This list's address with `query`, e.g. for the next page. */
function hrefOf(query: OrdersQuery): string {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (query.search) params.set("q", query.search);
  if (query.fulfilment) params.set("fulfilment", query.fulfilment);
  if (query.method) params.set("method", query.method);
  if (query.paid) {
    params.set("paidFrom", query.paid.from);
    params.set("paidTo", query.paid.to);
  }
  if (query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `/admin/orders?${search}` : "/admin/orders";
}

const fieldClass = "rounded-md border border-stone-300 bg-white px-3 py-2";
const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";

export default async function AdminOrdersPage({ searchParams }: { searchParams: Promise<Query> }) {
  const actor = await requireStaff("/admin/orders");
  const [{ t, lang }, params] = await Promise.all([getLang(), searchParams]);
  const query = parseOrdersQuery(params);
  const list = await listAdminOrders(db(), query);
  const text = t.admin.orders;
  const { paidOrders: paidText, refundFigures } = backOfficeTexts(lang);
  const today = luandaDate(new Date());
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>

      <form method="get" action="/admin/orders" role="search" className="flex flex-wrap items-end gap-3">
        {query.paid && (
          <>
            <input type="hidden" name="paidFrom" value={query.paid.from} />
            <input type="hidden" name="paidTo" value={query.paid.to} />
          </>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="orders-status" className="text-sm font-medium">
            {text.status}
          </label>
          <select id="orders-status" name="status" defaultValue={query.status ?? ""} className={fieldClass}>
            <option value="">{text.allStatuses}</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t.order.status[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="orders-fulfilment" className="text-sm font-medium">
            {text.fulfilment}
          </label>
          <select id="orders-fulfilment" name="fulfilment" defaultValue={query.fulfilment ?? ""} className={fieldClass}>
            <option value="">{text.allFulfilment}</option>
            {FULFILMENT_FILTERS.map((state) => (
              <option key={state} value={state}>
                {t.fulfilment.states[state]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="orders-method" className="text-sm font-medium">
            {text.method}
          </label>
          <select id="orders-method" name="method" defaultValue={query.method ?? ""} className={fieldClass}>
            <option value="">{text.allMethods}</option>
            {DELIVERY_METHODS.map((method) => (
              <option key={method} value={method}>
                {t.fulfilment.methods[method]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 grow flex-col gap-1 sm:max-w-sm">
          <label htmlFor="orders-search" className="text-sm font-medium">
            {text.search}
          </label>
          <input
            id="orders-search"
            name="q"
            type="search"
            defaultValue={query.search ?? ""}
            maxLength={100}
            aria-describedby="orders-search-hint"
            className={fieldClass}
          />
        </div>
        <button type="submit" className={buttonClass}>
          {text.filter}
        </button>
        <p id="orders-search-hint" className="w-full text-sm text-stone-600">
          {text.searchHint}
        </p>
      </form>

      {query.paid ? (
        // Linked from the dashboard's figures: the same orders, by the same definition of paid (lib/orders/paid.ts).
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
          <p className="font-medium">{paidText.paidFilter(query.paid.from, query.paid.to)}</p>
          <p className="text-stone-600" data-testid="orders-count">
            {paidText.paidTotal(text.count(list.total), formatAoa(list.amountAoa))}
          </p>
          <Link href={hrefOf({ ...query, paid: undefined, page: 1 })} className="underline">
            {paidText.clearPaidFilter}
          </Link>
        </div>
      ) : (
        <p className="text-sm text-stone-600" data-testid="orders-count">
          {text.count(list.total)}
        </p>
      )}

      {list.orders.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        // A table from the sm breakpoint; on a phone each row is a card, each cell with its own label.
        <div className="overflow-hidden rounded-xl border border-stone-200 bg-white">
          <table className="block w-full text-left text-sm sm:table">
            <thead className="hidden border-b border-stone-200 bg-stone-50 text-stone-600 sm:table-header-group">
              <tr>
                {[text.created, text.orderId, text.customer, text.amount, text.status].map((heading, index) => (
                  <th key={heading} scope="col" className={`px-3 py-2 font-medium ${index === 3 ? "text-right" : ""}`}>
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="block sm:table-row-group">
              {list.orders.map((order) => (
                <tr
                  key={order.externalTransactionId}
                  data-testid="admin-order"
                  className="grid grid-cols-2 gap-x-3 gap-y-2 border-b border-stone-100 p-3 last:border-0 sm:table-row sm:p-0"
                >
                  <td className="col-start-1 row-start-1 tabular-nums sm:table-cell sm:px-3 sm:py-2 sm:whitespace-nowrap">
                    <CellLabel>{text.created}</CellLabel>
                    {luandaMinute(order.createdAt)}
                  </td>
                  <td className="order-last col-span-2 font-mono text-xs break-all sm:order-none sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.orderId}</CellLabel>
                    <Link href={`/admin/orders/${order.externalTransactionId}`} className="underline">
                      {order.externalTransactionId}
                    </Link>
                    {order.referenceNumber && (
                      <span className="block text-stone-600 tabular-nums">{order.referenceNumber}</span>
                    )}
                  </td>
                  <td className="sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.customer}</CellLabel>
                    {order.customerName ?? "—"}
                    {order.customerPhone && <span className="block text-stone-600">{order.customerPhone}</span>}
                  </td>
                  <td className="col-start-2 row-start-1 text-right tabular-nums sm:table-cell sm:px-3 sm:py-2 sm:whitespace-nowrap">
                    <CellLabel>{text.amount}</CellLabel>
                    {formatAoa(order.amountAoa)}
                  </td>
                  <td className="text-right sm:table-cell sm:px-3 sm:py-2 sm:text-left">
                    <CellLabel>{text.status}</CellLabel>
                    {t.order.status[order.status]}
                    {order.status === "CON" && (order.deliveryMethod || order.fulfilmentState) && (
                      <span data-testid="order-fulfilment-state" className="block text-xs text-stone-600">
                        {
                          t.fulfilment.states[
                            isFulfilmentState(order.fulfilmentState) ? order.fulfilmentState : "to_prepare"
                          ]
                        }
                        {order.deliveryMethod === "pickup" || order.deliveryMethod === "delivery"
                          ? ` · ${t.fulfilment.methods[order.deliveryMethod]}`
                          : ""}
                      </span>
                    )}
                    {order.attentionReason && (
                      <span
                        data-testid="attention"
                        title={order.attentionReason}
                        className="mt-1 ml-auto block w-fit rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 sm:ml-0"
                      >
                        {text.attention}: {order.attentionReason}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {list.pageCount > 1 && (
        <nav aria-label={text.pagination} className="flex items-center justify-between gap-3 text-sm">
          {list.page > 1 ? (
            <Link
              href={hrefOf({ ...query, page: Math.min(list.page - 1, list.pageCount) })}
              rel="prev"
              className="underline"
            >
              {text.previous}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-stone-600">{text.pageOf(list.page, list.pageCount)}</span>
          {list.page < list.pageCount ? (
            <Link href={hrefOf({ ...query, page: list.page + 1 })} rel="next" className="underline">
              {text.next}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}

      <form
        method="get"
        action="/api/admin/orders/export"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white px-4 py-3"
      >
        <h2 className="text-lg font-semibold">{text.exportTitle}</h2>
        <p className="text-sm text-stone-600">{text.exportHint}</p>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor="export-from" className="text-sm font-medium">
              {text.from}
            </label>
            <input id="export-from" name="from" type="date" required defaultValue={today} className={fieldClass} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="export-to" className="text-sm font-medium">
              {text.to}
            </label>
            <input id="export-to" name="to" type="date" required defaultValue={today} className={fieldClass} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="export-by" className="text-sm font-medium">
              {paidText.exportBasis}
            </label>
            <select id="export-by" name="by" defaultValue="created" className={fieldClass}>
              <option value="created">{paidText.basisCreated}</option>
              <option value="paid">{paidText.basisPaid}</option>
            </select>
          </div>
          <p className="w-full text-sm text-stone-600">{paidText.basisHint}</p>
          <button type="submit" className={buttonClass}>
            {text.download}
          </button>
        </div>
      </form>
      {mayCallRoute(actor.role, "/api/admin/refunds/export", "GET") && (
        <RefundsExportForm words={refundFigures} today={today} />
      )}
    </section>
  );
}

/** A cell's column name, shown only where the table is a stack of cards (a phone). */
function CellLabel({ children }: { children: string }) {
  return <span className="block font-sans text-xs text-stone-500 sm:hidden">{children}</span>;
}
