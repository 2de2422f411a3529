"use client";

import type { ShownDashboard } from "@/lib/dashboard/weeks-admin";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import { formatAoa } from "@/lib/money";
import { BarsChart } from "./charts-lazy";
import { Panel, shortSpan, span } from "./panel";

/**
 * The period's refunds a day (or a week) at a time, by when the money went back, and in the table
 * beside them that day's gross and net revenue (lib/dashboard/dashboard-admin.ts: net takes off
 * only the refunds of orders counted as paid).
 */
export function RefundsPanel({
  data,
  text,
  words,
  summary,
  csv,
}: {
  data: ShownDashboard;
  text: BackOfficeTexts["dashboard"];
  words: BackOfficeTexts["refundFigures"];
  /** The refunds' figure beside the previous period's, as a sentence. */
  summary: string;
  csv: string;
}) {
  const { weekly, revenue } = data;
  return (
    <Panel
      id="refunds"
      title={weekly ? words.chartByWeek : words.chart}
      summary={summary}
      csv={csv}
      text={text}
      chart={(named) => (
        <BarsChart
          summary={named}
          testId="dashboard-chart-refunds"
          unit="aoa"
          series={[{ key: "value", name: words.chartSeries, colour: "vermillion" }]}
          points={revenue.map((point) => ({ label: shortSpan(point), value: point.refundsAoa }))}
        />
      )}
      headers={[
        weekly ? text.columns.week : text.columns.date,
        words.columns.refunds,
        words.columns.revenue,
        words.columns.netRevenue,
      ]}
      rows={() =>
        revenue.map((point) => [
          span(point),
          formatAoa(point.refundsAoa),
          formatAoa(point.revenueAoa),
          formatAoa(point.netRevenueAoa),
        ])
      }
    />
  );
}
