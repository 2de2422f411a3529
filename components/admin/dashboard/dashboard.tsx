"use client";

import Link from "next/link";
import { useMemo } from "react";
import type { Compared, Dashboard } from "@/lib/dashboard/dashboard-admin";
import type { DashboardSeries } from "@/lib/dashboard/dashboard-csv-admin";
import { PERIOD_KINDS, periodQuery, type PeriodProblem } from "@/lib/dashboard/period-names";
import { readShownJson, type ShownDashboard, type ShownJson } from "@/lib/dashboard/weeks-admin";
import { backOfficeTexts, type BackOfficeTexts } from "@/lib/i18n/back-office";
import type { Lang } from "@/lib/i18n/dictionaries";
import { SHOP_CALENDAR } from "@/lib/luanda-time";
import { formatAoa, formatCount } from "@/lib/money";
import { BarsChart, RevenueChart } from "./charts-lazy";
import { DataTable, Panel, shortSpan, span } from "./panel";
import { RefundsPanel } from "./refunds-panel";

/**
 * The owner's dashboard (lib/dashboard/dashboard-admin.ts) on the back office's home: the period
 * form, the figures beside the previous period's, and a panel per picture, each with its title, a
 * sentence that says what it shows, the picture, its table (a toggle) and its CSV. A client
 * component: the page sends the dashboard once, as one JSON string, and this renders its HTML on
 * the server and in the browser alike (docs/dashboard.md).
 */

type Words = BackOfficeTexts["dashboard"];

const fieldClass = "rounded-md border border-stone-300 bg-white px-3 py-2";

/** The change from the previous period, in whole percent; null when that period had nothing. */
export function changePercent({ current, previous }: Compared): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / previous) * 100);
}

/** The formatters, made once (making one costs far more than using it: a year's tables use thousands). */
const decimal = new Intl.NumberFormat("pt-AO", { maximumFractionDigits: 1 });
const percents = new Map<string, Intl.NumberFormat>();
function percentFormat(locale: string): Intl.NumberFormat {
  let format = percents.get(locale);
  if (!format)
    percents.set(locale, (format = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 })));
  return format;
}

export function DashboardView({
  json,
  lang,
  locale,
  problem,
}: {
  /** The dashboard, as one string (lib/dashboard/weeks-admin.ts). */
  json: ShownJson;
  lang: Lang;
  /** The page's locale (percentages); amounts are always kwanza as the shop writes them. */
  locale: string;
  /** The period asked for could not be shown (the default is): what was wrong with it. */
  problem?: Pick<PeriodProblem, "field" | "reason">;
}) {
  const data = useMemo(() => readShownJson(json), [json]);
  const { dashboard: text, refundFigures } = backOfficeTexts(lang);
  const { period, figures } = data;
  const count = formatCount;
  const percent = percentFormat(locale);
  const share = (part: number, whole: number) => (whole === 0 ? "0 %" : percent.format(part / whole));
  const csvHref = (series: DashboardSeries) => `/api/admin/dashboard/export?series=${series}&${periodQuery(period)}`;
  const sentence = (label: string, figure: Compared, format: (value: number) => string) =>
    text.summary(label, format(figure.current), changePercent(figure), format(figure.previous), period.days);

  const outcomes = [
    { key: "paid", colour: "blue" },
    { key: "serviceCancelled", colour: "vermillion" },
    { key: "expired", colour: "orange" },
    { key: "pending", colour: "sky" },
    { key: "other", colour: "grey" },
  ] as const;

  const paidList = `/admin/orders?paidFrom=${period.from}&paidTo=${period.to}`;
  const figureCards: {
    id: string;
    label: string;
    figure: Compared;
    format: (value: number) => string;
    href?: string;
    detail?: string;
    /** A sentence under the figure. */
    note?: string;
  }[] = [
    { id: "revenue", label: text.figures.revenue, figure: figures.revenueAoa, format: formatAoa, href: paidList },
    {
      id: "refunds",
      label: refundFigures.refunds,
      figure: figures.refundsAoa,
      format: formatAoa,
      note:
        figures.refundsOutsideRevenueAoa.current !== 0
          ? refundFigures.outsideRevenue(formatAoa(figures.refundsOutsideRevenueAoa.current))
          : undefined,
    },
    { id: "net-revenue", label: refundFigures.netRevenue, figure: figures.netRevenueAoa, format: formatAoa },
    { id: "paid-orders", label: text.figures.paidOrders, figure: figures.paidOrders, format: count, href: paidList },
    { id: "average", label: text.figures.average, figure: figures.averageOrderAoa, format: formatAoa },
    { id: "checkouts", label: text.figures.checkouts, figure: figures.checkouts, format: count },
    ...outcomes.map(({ key }) => ({
      id: `outcome-${key}`,
      label: text.figures[key],
      figure: figures.outcomes[key],
      format: count,
      detail: share(figures.outcomes[key].current, figures.checkouts.current),
    })),
    { id: "references", label: text.figures.references, figure: figures.references, format: count },
    {
      id: "references-paid",
      label: text.figures.referencesPaid,
      figure: figures.referencesPaid,
      format: count,
      detail: share(figures.referencesPaid.current, figures.references.current),
    },
    { id: "discounts", label: text.figures.discounts, figure: figures.discountsAoa, format: formatAoa },
    { id: "fees", label: text.figures.fees, figure: figures.deliveryFeesAoa, format: formatAoa },
  ];

  // A long period's revenue and checkouts come by week (lib/dashboard/weeks-admin.ts); a day is a week of one.
  const { weekly, revenue, checkouts } = data;

  const checkoutsTotal = figures.checkouts.current;
  const topRevenue = data.topProducts.byRevenue[0];
  const topUnits = data.topProducts.byUnits[0];
  const productName = (row: { productName: string; variantTitle: string }) =>
    row.variantTitle ? `${row.productName} (${row.variantTitle})` : row.productName;
  const methodName = (method: keyof typeof text.methods) => text.methods[method];
  const deliveryLabel = (row: Dashboard["delivery"][number]) =>
    row.method === "delivery" && row.zone ? row.zone : methodName(row.method);
  const zoneLeader = data.delivery.filter((row) => row.method === "delivery")[0];
  const busiest = data.byHour.reduce<(typeof data.byHour)[number] | undefined>(
    (best, hour) => (hour.orders > (best?.orders ?? 0) ? hour : best),
    undefined,
  );
  const ordersBy = (method: string) =>
    data.delivery.filter((row) => row.method === method).reduce((sum, row) => sum + row.orders, 0);
  const discountTotal = data.promoCodes.reduce((sum, row) => sum + row.discountAoa, 0);

  return (
    <section aria-labelledby="dashboard-title" data-testid="dashboard" className="flex flex-col gap-6">
      <h2 id="dashboard-title" className="text-xl font-semibold tracking-tight">
        {text.title}
      </h2>
      <PeriodForm data={data} text={text} />
      {problem && (
        <div role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p data-testid="dashboard-invalid-period">{text.invalidPeriod}</p>
          <p data-testid="dashboard-period-problem">
            {text.periodProblem(problem.reason, problem.field === "period" ? text.period : text[problem.field])}
          </p>
        </div>
      )}
      <p className="text-sm text-stone-700" data-testid="dashboard-range">
        {text.range(period.from, period.to, period.days)}
        {weekly && ` ${text.charts.weeks(period.days)}`}
      </p>

      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        {figureCards.map((card) => (
          <div key={card.id} className="rounded-xl border border-stone-200 bg-white px-4 py-3">
            <dt className="text-sm text-stone-700">{card.label}</dt>
            <dd className="flex flex-col">
              <span data-testid={`dashboard-figure-${card.id}`} className="text-xl font-semibold tabular-nums">
                {card.format(card.figure.current)}
                {card.detail && <span className="ml-2 text-base font-normal text-stone-700">{card.detail}</span>}
              </span>
              <span className="text-sm text-stone-700">
                <ChangeBadge figure={card.figure} text={text} /> ·{" "}
                {text.previousValue(card.format(card.figure.previous))}
              </span>
              {card.note && (
                <span className="text-sm text-stone-700" data-testid={`dashboard-note-${card.id}`}>
                  {card.note}
                </span>
              )}
              {card.href && (
                <Link href={card.href} className="text-sm underline">
                  {text.seeOrders}
                </Link>
              )}
            </dd>
          </div>
        ))}
        <div className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3">
          <dt className="text-sm text-stone-800">{text.figures.paidAfterCancel}</dt>
          <dd data-testid="dashboard-figure-paid-after-cancel" className="text-sm text-stone-800">
            <span className="block text-xl font-semibold tabular-nums">{count(data.paidAfterCancel.orders)}</span>
            {text.paidAfterCancelHint(data.paidAfterCancel.orders, formatAoa(data.paidAfterCancel.amountAoa))}
          </dd>
        </div>
      </dl>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <a href={`/api/admin/orders/export?from=${period.from}&to=${period.to}&by=paid`} className="underline">
          {text.exportPaid}
        </a>
        <a
          href={`/api/admin/refunds/export?from=${period.from}&to=${period.to}`}
          className="underline"
          data-testid="dashboard-export-refunds"
        >
          {refundFigures.exportPeriod}
        </a>
      </p>

      <div className="grid gap-6 xl:grid-cols-2">
        <Panel
          id="revenue"
          title={weekly ? text.charts.revenueByWeek : text.charts.revenue}
          summary={sentence(text.figures.revenue, figures.revenueAoa, formatAoa)}
          csv={csvHref("revenue")}
          text={text}
          chart={(summary) => (
            <RevenueChart
              summary={summary}
              testId="dashboard-chart-revenue"
              names={text.charts.revenueSeries}
              points={revenue.map((point) => ({
                label: shortSpan(point),
                current: point.revenueAoa,
                previous: point.previousRevenueAoa,
              }))}
            />
          )}
          headers={[
            weekly ? text.columns.week : text.columns.date,
            text.columns.revenue,
            text.columns.orders,
            weekly ? text.columns.previousWeek : text.columns.previousDate,
            text.columns.previous,
          ]}
          rows={() =>
            revenue.map((point) => [
              span(point),
              formatAoa(point.revenueAoa),
              count(point.orders),
              span({ date: point.previousDate, to: point.previousTo }),
              formatAoa(point.previousRevenueAoa),
            ])
          }
        />
        <RefundsPanel
          data={data}
          text={text}
          words={refundFigures}
          summary={sentence(refundFigures.refunds, figures.refundsAoa, formatAoa)}
          csv={csvHref("refunds")}
        />
        <Panel
          id="checkouts"
          title={weekly ? text.charts.checkoutsByWeek : text.charts.checkouts}
          summary={text.charts.checkoutsSummary(
            checkoutsTotal,
            share(figures.outcomes.paid.current, checkoutsTotal),
            share(figures.outcomes.expired.current, checkoutsTotal),
          )}
          csv={csvHref("checkouts")}
          text={text}
          chart={(summary) => (
            <BarsChart
              summary={summary}
              testId="dashboard-chart-checkouts"
              unit="count"
              series={outcomes.map(({ key, colour }) => ({ key, name: text.figures[key], colour }))}
              points={checkouts.map(({ date, to, ...counts }) => ({ label: shortSpan({ date, to }), ...counts }))}
            />
          )}
          headers={[weekly ? text.columns.week : text.columns.date, ...outcomes.map(({ key }) => text.figures[key])]}
          rows={() => checkouts.map((point) => [span(point), ...outcomes.map(({ key }) => count(point[key]))])}
        />
        <Panel
          id="top-revenue"
          title={text.charts.topRevenue}
          summary={text.charts.topSummary(
            topRevenue ? productName(topRevenue) : null,
            formatAoa(topRevenue?.revenueAoa ?? 0),
          )}
          csv={csvHref("products")}
          text={text}
          chart={(summary) => (
            <BarsChart
              summary={summary}
              testId="dashboard-chart-top-revenue"
              unit="aoa"
              layout="rows"
              series={[{ key: "value", name: text.columns.revenue, colour: "blue" }]}
              points={data.topProducts.byRevenue.map((row) => ({ label: productName(row), value: row.revenueAoa }))}
            />
          )}
          headers={[text.columns.product, text.columns.revenue, text.columns.units]}
          rows={() =>
            data.topProducts.byRevenue.map((row) => [productName(row), formatAoa(row.revenueAoa), count(row.units)])
          }
        />
        <Panel
          id="top-units"
          title={text.charts.topUnits}
          summary={text.charts.topSummary(topUnits ? productName(topUnits) : null, count(topUnits?.units ?? 0))}
          csv={csvHref("products")}
          text={text}
          chart={(summary) => (
            <BarsChart
              summary={summary}
              testId="dashboard-chart-top-units"
              unit="count"
              layout="rows"
              series={[{ key: "value", name: text.columns.units, colour: "green" }]}
              points={data.topProducts.byUnits.map((row) => ({ label: productName(row), value: row.units }))}
            />
          )}
          headers={[text.columns.product, text.columns.units, text.columns.revenue]}
          rows={() =>
            data.topProducts.byUnits.map((row) => [productName(row), count(row.units), formatAoa(row.revenueAoa)])
          }
        />
        <Panel
          id="delivery"
          title={text.charts.delivery}
          summary={text.charts.deliverySummary(
            ordersBy("pickup"),
            ordersBy("delivery"),
            zoneLeader?.zone || null,
            formatAoa(zoneLeader?.revenueAoa ?? 0),
          )}
          csv={csvHref("zones")}
          text={text}
          chart={(summary) => (
            <BarsChart
              summary={summary}
              testId="dashboard-chart-delivery"
              unit="aoa"
              layout="rows"
              series={[{ key: "value", name: text.columns.revenue, colour: "orange" }]}
              points={data.delivery.map((row) => ({ label: deliveryLabel(row), value: row.revenueAoa }))}
            />
          )}
          headers={[
            text.columns.method,
            text.columns.zone,
            text.columns.orders,
            text.columns.revenue,
            text.columns.fees,
          ]}
          rows={() =>
            data.delivery.map((row) => [
              methodName(row.method),
              row.zone || text.none,
              count(row.orders),
              formatAoa(row.revenueAoa),
              formatAoa(row.deliveryFeesAoa),
            ])
          }
        />
        <Panel
          id="hours"
          title={text.charts.hours}
          summary={text.charts.hoursSummary(busiest?.hour ?? null, busiest?.orders ?? 0)}
          csv={csvHref("hours")}
          text={text}
          chart={(summary) => (
            <BarsChart
              summary={summary}
              testId="dashboard-chart-hours"
              unit="count"
              series={[{ key: "value", name: text.columns.orders, colour: "blue" }]}
              points={data.byHour.map((row) => ({ label: `${row.hour}h`, value: row.orders }))}
            />
          )}
          headers={[text.columns.hour, text.columns.orders, text.columns.revenue]}
          rows={() => data.byHour.map((row) => [`${row.hour}h`, count(row.orders), formatAoa(row.revenueAoa)])}
        />
        <Panel
          id="promo-codes"
          title={text.charts.promoCodes}
          summary={text.charts.promoSummary(data.promoCodes.length, formatAoa(discountTotal))}
          csv={csvHref("promo-codes")}
          text={text}
          open
          headers={[text.columns.code, text.columns.orders, text.columns.discount, text.columns.revenue]}
          rows={() =>
            data.promoCodes.map((row) => [
              row.code,
              count(row.orders),
              formatAoa(row.discountAoa),
              formatAoa(row.revenueAoa),
            ])
          }
        />
        <StockPanel data={data} text={text} csv={csvHref("stock")} />
      </div>
    </section>
  );
}

function ChangeBadge({ figure, text }: { figure: Compared; text: Words }) {
  const change = changePercent(figure);
  // The sign is in the words as well as the arrow: nothing is said by colour alone.
  const arrow = change === null || change === 0 ? "" : change > 0 ? "▲ " : "▼ ";
  return (
    <span className="tabular-nums">
      <span aria-hidden="true">{arrow}</span>
      {text.change(change)}
    </span>
  );
}

function PeriodForm({ data, text }: { data: ShownDashboard; text: Words }) {
  const { period } = data;
  return (
    <form method="get" action="/admin" className="flex flex-wrap items-end gap-3" data-testid="dashboard-period">
      <div className="flex flex-col gap-1">
        <label htmlFor="dashboard-period" className="text-sm font-medium">
          {text.period}
        </label>
        <select id="dashboard-period" name="period" defaultValue={period.kind} className={fieldClass}>
          {PERIOD_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {text.periods[kind]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="dashboard-from" className="text-sm font-medium">
          {text.from}
        </label>
        <input
          id="dashboard-from"
          name="from"
          type="date"
          min={SHOP_CALENDAR.first}
          max={SHOP_CALENDAR.last}
          defaultValue={period.from}
          className={fieldClass}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="dashboard-to" className="text-sm font-medium">
          {text.to}
        </label>
        <input
          id="dashboard-to"
          name="to"
          type="date"
          min={SHOP_CALENDAR.first}
          max={SHOP_CALENDAR.last}
          defaultValue={period.to}
          className={fieldClass}
        />
      </div>
      <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600">
        {text.show}
      </button>
      <p className="w-full text-sm text-stone-700">{text.customHint}</p>
    </form>
  );
}

function StockPanel({ data, text, csv }: { data: ShownDashboard; text: Words; csv: string }) {
  const { stock, period } = data;
  const headers = [
    text.columns.product,
    text.columns.sku,
    text.columns.stock,
    text.columns.sold,
    text.columns.perDay,
    text.columns.daysLeft,
  ];
  const rows = (list: Dashboard["stock"]["lowStock"]) =>
    list.map((row) => [
      row.variantTitle ? `${row.productName} (${row.variantTitle})` : row.productName,
      row.sku ?? text.none,
      String(row.stock),
      String(row.unitsSold),
      decimal.format(row.perDay),
      row.daysLeft === null ? text.none : decimal.format(Math.floor(row.daysLeft)),
    ]);
  const groups = [
    { id: "sold-out", title: text.charts.soldOut, list: stock.soldOut, total: stock.soldOutTotal },
    { id: "low-stock", title: text.charts.lowStock, list: stock.lowStock, total: stock.lowStockTotal },
  ];
  return (
    <section
      aria-labelledby="dashboard-stock-title"
      data-testid="dashboard-panel-stock"
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h3 id="dashboard-stock-title" className="font-semibold">
        {text.charts.stock}
      </h3>
      <p className="text-sm text-stone-700" data-testid="dashboard-summary-stock">
        {text.charts.stockSummary(stock.lowStockTotal, stock.soldOutTotal, stock.threshold)} {text.charts.stockRate}
      </p>
      {groups.map((group) => (
        <div key={group.id}>
          <h4 className="text-sm font-medium">
            {group.title} <span className="tabular-nums">({group.total})</span>
          </h4>
          {group.list.length > 0 && (
            <DataTable
              caption={`${group.title}, ${period.from} – ${period.to}`}
              label={text.tableOf(group.title)}
              headers={headers}
              rows={rows(group.list)}
              testId={`dashboard-table-${group.id}`}
            />
          )}
          {group.total > group.list.length && (
            <p className="text-sm text-stone-700">{text.charts.more(group.total - group.list.length)}</p>
          )}
        </div>
      ))}
      <a href={csv} download className="text-sm underline" data-testid="dashboard-csv-stock">
        {text.download}
      </a>
    </section>
  );
}
