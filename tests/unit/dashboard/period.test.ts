import { describe, expect, it } from "vitest";
import { namedPeriod, periodDates } from "@/lib/dashboard/period";
import { MAX_PERIOD_DAYS, periodQuery } from "@/lib/dashboard/period-names";
import { parsePeriod } from "@/lib/dashboard/period-query";

// The dashboard's periods (lib/dashboard/period.ts): Luanda days (UTC+1), from midnight to midnight,
// each with the previous period of the same length; a bad query string falls back, never throws.

/** 00:30 on 1 March 2026 in Luanda: still 28 February in UTC. */
const NOW = new Date("2026-02-28T23:30:00Z");

describe("the named periods", () => {
  it.each([
    ["today", "2026-03-01", "2026-03-01", "2026-02-28", "2026-02-28"],
    ["7d", "2026-02-23", "2026-03-01", "2026-02-16", "2026-02-22"],
    ["30d", "2026-01-31", "2026-03-01", "2026-01-01", "2026-01-30"],
    ["90d", "2025-12-02", "2026-03-01", "2025-09-03", "2025-12-01"],
    ["month", "2026-03-01", "2026-03-01", "2026-02-28", "2026-02-28"],
    ["last-month", "2026-02-01", "2026-02-28", "2026-01-04", "2026-01-31"],
  ] as const)("%s is %s to %s, after %s to %s", (kind, from, to, previousFrom, previousTo) => {
    expect(namedPeriod(kind, NOW)).toMatchObject({ kind, from, to, previousFrom, previousTo });
  });

  it("starts and ends at Luanda midnight, 23:00 UTC", () => {
    const period = namedPeriod("today", NOW);
    expect(period.start).toEqual(new Date("2026-02-28T23:00:00Z"));
    expect(period.end).toEqual(new Date("2026-03-01T23:00:00Z"));
    expect(period.previousStart).toEqual(new Date("2026-02-27T23:00:00Z"));
    expect(period.days).toBe(1);
  });

  it("lists its dates", () => {
    expect(periodDates("2026-02-27", 3)).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });
});

describe("the query string", () => {
  it("defaults to the last 30 days", () => {
    expect(parsePeriod({}, NOW)).toEqual({ period: namedPeriod("30d", NOW), invalid: false });
  });

  it("reads a name, or a custom range of dates", () => {
    expect(parsePeriod({ period: "7d" }, NOW).period.kind).toBe("7d");
    const custom = parsePeriod({ period: "custom", from: "2025-12-31", to: "2026-01-01" }, NOW);
    expect(custom).toMatchObject({ invalid: false, period: { kind: "custom", days: 2, previousFrom: "2025-12-29" } });
    expect(parsePeriod({ from: "2026-01-01", to: "2026-01-01" }, NOW).period).toMatchObject({
      kind: "custom",
      days: 1,
    });
    expect(parsePeriod({ period: ["month", "7d"] }, NOW).period.kind).toBe("month");
  });

  it.each([
    ["an unknown name", { period: "year" }, "period", "unknown-period"],
    ["custom without dates", { period: "custom" }, "from", "not-a-date"],
    ["a date that does not exist", { from: "2026-02-30", to: "2026-03-01" }, "from", "not-a-date"],
    ["from after to", { from: "2026-03-02", to: "2026-03-01" }, "to", "backwards"],
    ["too long a range", { from: "2024-01-01", to: "2025-01-01" }, "to", "too-long"],
    ["a time for a date", { from: "2026-01-01T00:00", to: "2026-01-02" }, "from", "not-a-date"],
    ["SQL", { period: "30d' OR 1=1" }, "period", "unknown-period"],
    // Real dates, but of no period the database can count (year 0, 1) or the shop ever had.
    ["year 0", { from: "0000-01-01", to: "0000-01-02" }, "from", "not-a-date"],
    ["year 1", { from: "0001-01-01", to: "0001-01-02" }, "from", "not-a-date"],
    ["year 9999", { from: "2026-01-01", to: "9999-12-31" }, "to", "not-a-date"],
    ["the day before 2000", { from: "1999-12-31", to: "2000-01-01" }, "from", "not-a-date"],
    ["the day after 2100", { from: "2100-12-31", to: "2101-01-01" }, "to", "not-a-date"],
    ["a five-digit year", { from: "10000-01-01", to: "10000-01-02" }, "from", "not-a-date"],
    ["a negative year", { from: "-0001-01-01", to: "2026-01-02" }, "from", "not-a-date"],
  ])("%s falls back to the default, marked invalid, naming the field", (_what, params, field, reason) => {
    expect(parsePeriod(params, NOW)).toEqual({
      period: namedPeriod("30d", NOW),
      invalid: true,
      problem: { field, reason, message: expect.stringMatching(new RegExp(`^${field} `)) },
    });
  });

  it("accepts the first and the last day of the shop's calendar", () => {
    expect(parsePeriod({ from: "2000-01-01", to: "2000-01-01" }, NOW)).toMatchObject({ invalid: false });
    expect(parsePeriod({ from: "2100-12-31", to: "2100-12-31" }, NOW)).toMatchObject({ invalid: false });
  });

  it(`accepts ${MAX_PERIOD_DAYS} days`, () => {
    expect(parsePeriod({ from: "2024-01-01", to: "2024-12-31" }, NOW).invalid).toBe(false);
  });

  it("writes a period back as a query string", () => {
    expect(periodQuery(namedPeriod("last-month", NOW))).toBe("period=last-month");
    expect(periodQuery({ kind: "custom", from: "2026-01-01", to: "2026-01-31" })).toBe(
      "period=custom&from=2026-01-01&to=2026-01-31",
    );
  });
});
