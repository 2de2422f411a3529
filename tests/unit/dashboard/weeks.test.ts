import { describe, expect, it } from "vitest";
import { inWeeks } from "@/lib/dashboard/weeks";

describe("inWeeks", () => {
  const days = Array.from({ length: 16 }, (_, index) => ({
    date: `2026-01-${String(index + 1).padStart(2, "0")}`,
    previousDate: `2025-12-${String(index + 16).padStart(2, "0")}`,
    revenueAoa: 1_000 * (index + 1),
    orders: 1,
  }));

  it("sums each run of seven days from the first, the last run shorter", () => {
    expect(inWeeks(days)).toEqual([
      { date: "2026-01-01", to: "2026-01-07", previousDate: "2025-12-16", revenueAoa: 28_000, orders: 7 },
      { date: "2026-01-08", to: "2026-01-14", previousDate: "2025-12-23", revenueAoa: 77_000, orders: 7 },
      { date: "2026-01-15", to: "2026-01-16", previousDate: "2025-12-30", revenueAoa: 31_000, orders: 2 },
    ]);
  });

  it("loses nothing: the weeks add up to the days", () => {
    const total = (points: { revenueAoa: number }[]) => points.reduce((sum, point) => sum + point.revenueAoa, 0);
    expect(total(inWeeks(days))).toBe(total(days));
    expect(inWeeks([])).toEqual([]);
  });
});
