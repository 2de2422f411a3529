import { PROBLEM_CODES, emptySummary, problem, type CsvProblem, type ImportSummary } from "./format";

/**
 * The back office's import form without JavaScript: the route answers its post with a redirect to
 * /admin/catalogue carrying the outcome in the query, which the page reads back here. A check that
 * found problems carries the first FLASH_PROBLEMS of them (line, column, code, value; no data of
 * the file beyond the names a problem quotes); a clean check carries the file's SHA-256, which
 * the page's "import" form sends back so that what is imported is the file that was checked.
 */

export const CATALOGUE_PAGE = "/admin/catalogue";
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

/** The page's address for an outcome. */
export function importFlashUrl(flash: Exclude<ImportFlash, { kind: "none" }>): string {
  const query = new URLSearchParams();
  if (flash.kind === "error") query.set("error", flash.error);
  else if (flash.kind === "invalid") {
    query.set("outcome", "invalid");
    if (flash.dryRun) query.set("dryRun", "1");
    query.set("total", String(flash.total));
    for (const { line, column, code, value } of flash.problems.slice(0, FLASH_PROBLEMS))
      query.append("p", JSON.stringify([line, column ?? "", code, (value ?? "").slice(0, VALUE_MAX)]));
  } else {
    query.set("outcome", flash.kind);
    for (const key of SUMMARY_KEYS) query.set(key, String(flash.summary[key]));
    if (flash.kind === "checked") query.set("checked", flash.checked);
  }
  return `${CATALOGUE_PAGE}?${query}`;
}

type Query = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const count = (value: string | string[] | undefined) => {
  const number = Number(first(value));
  return Number.isSafeInteger(number) && number >= 0 ? number : 0;
};

/** The outcome in the page's query; anything malformed is ignored. */
export function importFlashOf(query: Query): ImportFlash {
  const error = IMPORT_ERRORS.find((code) => code === first(query.error));
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
