import { firstOf as first, flashOf, type FlashParams, type PageQuery } from "../../flash";
import { PROBLEM_CODES, emptySummary, problem, type CsvProblem, type ImportSummary } from "./format";

/**
 * The back office's import form without JavaScript: the route answers its post with a redirect to
 * /admin/catalogue carrying the outcome in the query, which the page reads back here. A check that
 * found problems carries the first FLASH_PROBLEMS of them (line, column, code, value; no data of
 * the file beyond the names a problem quotes); a clean check carries the file's SHA-256, which
 * the page's "import" form sends back so that what is imported is the file that was checked.
 */

export const CATALOG_PAGE = "/admin/catalogue";
/** The problems a redirect carries (its address stays a few kilobytes); the JSON API and the CLI give them all. */
export const FLASH_PROBLEMS = 30;
const VALUE_MAX = 120;

export const IMPORT_ERRORS = [
  "file_required",
  "file_too_large",
  "unsupported_media_type",
  "unreadable",
  "not_checked",
  "conflict",
] as const;
export type ImportError = (typeof IMPORT_ERRORS)[number];

const SUMMARY_KEYS = [
  "rows",
  "created",
  "updated",
  "unchanged",
  "archived",
  "categoriesCreated",
  "imagesStored",
] as const satisfies (keyof ImportSummary)[];

export type ImportFlash =
  | { kind: "none" }
  | { kind: "error"; error: ImportError }
  | { kind: "checked"; summary: ImportSummary; checked: string }
  | { kind: "applied"; summary: ImportSummary }
  | { kind: "invalid"; dryRun: boolean; problems: CsvProblem[]; total: number };

/** The query of the page's address (CATALOG_PAGE) for an outcome. */
export function importFlashParams(flash: Exclude<ImportFlash, { kind: "none" }>): FlashParams {
  if (flash.kind === "error") return { error: flash.error };
  if (flash.kind === "invalid")
    return {
      outcome: "invalid",
      dryRun: flash.dryRun ? "1" : undefined,
      total: flash.total,
      p: flash.problems
        .slice(0, FLASH_PROBLEMS)
        .map(({ line, column, code, value }) =>
          JSON.stringify([line, column ?? "", code, (value ?? "").slice(0, VALUE_MAX)]),
        ),
    };
  const summary = Object.fromEntries(SUMMARY_KEYS.map((key) => [key, flash.summary[key]]));
  return { outcome: flash.kind, ...summary, checked: flash.kind === "checked" ? flash.checked : undefined };
}

const count = (value: string | string[] | undefined) => {
  const number = Number(first(value));
  return Number.isSafeInteger(number) && number >= 0 ? number : 0;
};

/** The outcome in the page's query; anything malformed is ignored. */
export function importFlashOf(query: PageQuery): ImportFlash {
  const error = flashOf(query.error, IMPORT_ERRORS);
  if (error) return { kind: "error", error };
  const outcome = first(query.outcome);
  if (outcome === "checked" || outcome === "applied") {
    const summary = emptySummary();
    for (const key of SUMMARY_KEYS) summary[key] = count(query[key]);
    if (outcome === "applied") return { kind: "applied", summary };
    const checked = first(query.checked) ?? "";
    return /^[0-9a-f]{64}$/.test(checked) ? { kind: "checked", summary, checked } : { kind: "none" };
  }
  if (outcome === "invalid") {
    const raw = query.p === undefined ? [] : Array.isArray(query.p) ? query.p : [query.p];
    const problems: CsvProblem[] = [];
    for (const entry of raw.slice(0, FLASH_PROBLEMS)) {
      try {
        const [line, column, code, value] = JSON.parse(entry) as unknown[];
        const known = PROBLEM_CODES.find((candidate) => candidate === code);
        if (!known || typeof line !== "number" || typeof column !== "string" || typeof value !== "string") continue;
        problems.push(problem(line, column === "" ? null : column, known, value === "" ? undefined : value));
      } catch {
        // Not one of ours.
      }
    }
    return {
      kind: "invalid",
      dryRun: first(query.dryRun) === "1",
      problems,
      total: Math.max(count(query.total), problems.length),
    };
  }
  return { kind: "none" };
}
