"use client";

import dynamic from "next/dynamic";

/**
 * The dashboard's pictures (./charts.tsx), loaded in the browser only and after the page: the
 * server renders no chart (its sentence and its table say the same numbers), and the chart
 * library is a chunk of its own that only the back office's home asks for. Until it has come,
 * each picture keeps its place, so nothing moves when it is drawn.
 */

const placeholder = () => <div className="h-[260px] w-full" />;

export const RevenueChart = dynamic(() => import("./charts").then((charts) => charts.RevenueChart), {
  ssr: false,
  loading: placeholder,
});

export const BarsChart = dynamic(() => import("./charts").then((charts) => charts.BarsChart), {
  ssr: false,
  loading: placeholder,
});
