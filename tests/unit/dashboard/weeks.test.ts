import { describe, expect, it } from "vitest";
import type { Dashboard } from "@/lib/dashboard/dashboard-admin";
import { periodOf } from "@/lib/dashboard/period";
import { asShown, inWeeks } from "@/lib/dashboard/weeks-admin";

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

describe("asShown", () => {
  const dashboard = (from: string, to: string, days: number) =>
    ({
      period: periodOf("custom", from, to),
      revenueByDay: Array.from({ length: days }, (_, index) => ({
        date: `d${index}`,
        previousDate: `p${index}`,
        revenueAoa: 10,
        previousRevenueAoa: 1,
        orders: 1,
      })),
      checkoutsByDay: Array.from({ length: days }, (_, index) => ({
        date: `d${index}`,
        paid: 1,
        serviceCancelled: 0,
        expired: 0,
        pending: 0,
        other: 0,
      })),
    }) as unknown as Dashboard;

  it("keeps a day a point up to 90 days, each its own last day", () => {
    const shown = asShown(dashboard("2026-01-01", "2026-03-31", 90));
    expect(shown.weekly).toBe(false);
    expect(shown.revenue).toHaveLength(90);
    expect(shown.revenue[89]).toMatchObject({ date: "d89", to: "d89", previousTo: "p89", revenueAoa: 10 });
    expect(shown.checkouts[0]).toMatchObject({ date: "d0", to: "d0", paid: 1 });
    expect(shown).not.toHaveProperty("revenueByDay");
  });

  it("sends a longer period's days as weeks", () => {
    const shown = asShown(dashboard("2026-01-01", "2026-04-01", 91));
    expect(shown.weekly).toBe(true);
    expect(shown.revenue).toHaveLength(13);
    expect(shown.revenue[0]).toMatchObject({
      date: "d0",
      to: "d6",
      previousDate: "p0",
      previousTo: "p6",
      revenueAoa: 70,
    });
    expect(shown.revenue[12]).toMatchObject({ date: "d84", to: "d90", previousDate: "p84", previousTo: "p90" });
    expect(shown.checkouts.reduce((sum, week) => sum + week.paid, 0)).toBe(91);
  });
});
