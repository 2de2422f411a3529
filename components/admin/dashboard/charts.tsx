"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatAoa, formatCount } from "@/lib/money";

/**
 * The dashboard's pictures (Recharts, SVG), loaded by ./charts-lazy.tsx alone, in the browser, so
 * the chart library is a chunk that the back office's home asks for and no page of the shop. Each picture is one
 * image to assistive technology (role="img", named by its summary sentence); its numbers are in
 * the table beside it, which is also the keyboard's way in. Colours are the Okabe–Ito palette,
 * told apart by readers with any common colour blindness, and in grey print by their lightness
 * and the previous period's dashes.
 */

/** Okabe–Ito: blue, vermillion, orange, sky blue, and a grey for "the rest". */
export const CHART_COLOURS = {
  blue: "#0072B2",
  vermillion: "#D55E00",
  orange: "#E69F00",
  sky: "#56B4E9",
  green: "#009E73",
  grey: "#8C8C8C",
} as const;

const HEIGHT = 260;
const axisTick = { fill: "#44403c", fontSize: 12 };
/** 1 234 500 Kz → "1,2 M": the axis's ticks; the tooltip and the table say it whole. */
const compact = new Intl.NumberFormat("pt-AO", { notation: "compact", maximumFractionDigits: 1 });

type Unit = "aoa" | "count";
const valueOf = (unit: Unit) => (value: unknown) =>
  unit === "aoa" ? formatAoa(Number(value)) : formatCount(Number(value));

interface Frame {
  /** The sentence that says what the picture shows: its accessible name. */
  summary: string;
  testId: string;
}

function Picture({ summary, testId, children }: Frame & { children: React.ReactElement }) {
  return (
    <div role="img" aria-label={summary} data-testid={testId} className="h-[260px] w-full">
      {/* The drawing itself says nothing more to assistive technology than its name (and its legend's icons would). */}
      <div aria-hidden="true" className="h-full w-full">
        <ResponsiveContainer width="100%" height={HEIGHT}>
          {children}
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** Revenue per day, the previous period's beside it: faint and dashed. */
export function RevenueChart({
  points,
  names,
  ...frame
}: Frame & {
  points: { label: string; current: number; previous: number }[];
  names: { current: string; previous: string };
}) {
  return (
    <Picture {...frame}>
      <LineChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e7e5e4" vertical={false} />
        <XAxis dataKey="label" tick={axisTick} minTickGap={16} />
        <YAxis tick={axisTick} tickFormatter={(value: number) => compact.format(value)} width={48} />
        <Tooltip formatter={valueOf("aoa")} />
        <Legend />
        <Line
          dataKey="previous"
          name={names.previous}
          stroke={CHART_COLOURS.grey}
          strokeDasharray="5 4"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="current"
          name={names.current}
          stroke={CHART_COLOURS.blue}
          strokeWidth={2.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </Picture>
  );
}

/** Bars per category, stacked when there are several series (checkouts per day by outcome). */
export function BarsChart({
  points,
  series,
  unit,
  layout = "columns",
  ...frame
}: Frame & {
  points: ({ label: string } & Record<string, number | string>)[];
  series: { key: string; name: string; colour: keyof typeof CHART_COLOURS }[];
  unit: Unit;
  /** "rows" for long labels (product names): horizontal bars. */
  layout?: "columns" | "rows";
}) {
  const stacked = series.length > 1;
  const rows = layout === "rows";
  return (
    <Picture {...frame}>
      <BarChart
        data={points}
        layout={rows ? "vertical" : "horizontal"}
        accessibilityLayer={false}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke="#e7e5e4" vertical={rows} horizontal={!rows} />
        {rows ? (
          <>
            <XAxis type="number" tick={axisTick} tickFormatter={(value: number) => compact.format(value)} />
            <YAxis type="category" dataKey="label" tick={axisTick} width={140} interval={0} />
          </>
        ) : (
          <>
            <XAxis dataKey="label" tick={axisTick} minTickGap={8} />
            <YAxis
              tick={axisTick}
              tickFormatter={(value: number) => compact.format(value)}
              width={48}
              allowDecimals={false}
            />
          </>
        )}
        <Tooltip formatter={valueOf(unit)} />
        {stacked && <Legend />}
        {series.map((one) => (
          <Bar
            key={one.key}
            dataKey={one.key}
            name={one.name}
            stackId={stacked ? "all" : undefined}
            fill={CHART_COLOURS[one.colour]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </Picture>
  );
}
