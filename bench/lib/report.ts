import type { CpuUse } from "./cpu";
import type { LoadResult } from "./load";

export interface Measurement {
  scenario: string;
  mode: string;
  target: "baseline" | "app";
  result: LoadResult;
  /** Where the CPU went during the run (Linux only). */
  cpu?: CpuUse;
  /** CPUs of the machine, to say what share of it other processes took. */
  cpus: number;
}

const HEADINGS = [
  "scenario",
  "mode",
  "target",
  "req/s",
  "p50 ms",
  "p95 ms",
  "p99 ms",
  "errors/non-2xx",
  "req/s ×base",
  "p50 ×base",
  "p99 ×base",
  "server CPU ms/req",
  "db CPU ms/req",
  "other load",
];

/**
 * CPU milliseconds per answered request of the server under test (its process and children)
 * and of the database's processes, and the share of the machine's CPUs unrelated processes
 * took meanwhile: a run with a high "other load" measured a busy machine.
 */
function cpuCells({ cpu, result, cpus }: Measurement): string[] {
  const answered = result.requestsPerSecond * result.durationSeconds;
  if (!cpu || answered === 0) return ["—", "—", "—"];
  return [
    (cpu.server / answered).toFixed(2),
    cpu.database > 0 ? (cpu.database / answered).toFixed(2) : "—",
    `${Math.round((100 * cpu.others) / (cpu.wallMs * cpus))} %`,
  ];
}

/**
 * A plain-text table, one row per measurement. The ratio columns divide each row's figure by
 * the baseline's in the same scenario and mode (so the baseline rows read 1.00).
 */
export function formatTable(measurements: Measurement[]): string {
  const rows = measurements.map((measurement) => {
    const baseline = measurements.find(
      (other) =>
        other.target === "baseline" && other.scenario === measurement.scenario && other.mode === measurement.mode,
    )?.result;
    const { result } = measurement;
    const ratio = (value: number, base: number | undefined) => (base ? `${(value / base).toFixed(2)}×` : "—");
    return [
      measurement.scenario,
      measurement.mode,
      measurement.target,
      result.requestsPerSecond.toFixed(0),
      result.p50Ms.toFixed(2),
      result.p95Ms.toFixed(2),
      result.p99Ms.toFixed(2),
      `${result.errors}/${result.non2xx}`,
      ratio(result.requestsPerSecond, baseline?.requestsPerSecond),
      ratio(result.p50Ms, baseline?.p50Ms),
      ratio(result.p99Ms, baseline?.p99Ms),
      ...cpuCells(measurement),
    ];
  });
  const widths = HEADINGS.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  // Text columns read left-aligned, figures right-aligned.
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ");
  return [line(HEADINGS), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

export interface Check {
  scenario: string;
  target: "baseline" | "app";
  phase: string;
  summary: string;
  problems: string[];
}

/** One row per checked run: what the database shows after it, and whether that is right. */
export function formatChecks(checks: Check[]): string {
  const headings = ["scenario", "target", "run", "checked in the database", "result"];
  const rows = checks.map((check) => [
    check.scenario,
    check.target,
    check.phase,
    check.summary,
    check.problems.length === 0 ? "ok" : `FAILED (${check.problems.length})`,
  ]);
  const widths = headings.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  return [line(headings), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}
