import "server-only";
import { createHash } from "node:crypto";
import type { NextRequest } from "next/server";
import { adminAction, type ActionRefusal, type BodyRead } from "./admin-action";
import { isMultipart } from "./admin-requests";
import { CATALOG_PAGE, importFlashParams, type ImportError } from "../catalog/csv/flash";
import { CSV_LIMITS, type CsvProblem } from "../catalog/csv/format";
import { importCatalogCsv, type ImportDeps, type ImportResult } from "../catalog/csv/import";
import { formDataOf, readBodyCapped } from "./request-body";

/**
 * POST /api/admin/catalogue/import (lib/catalog/csv/import.ts over HTTP, through ./admin-action.ts):
 * the CSV, as a multipart form's `file` (the back office's page) or as a text/csv body;
 * `?dryRun=1` checks without writing.
 */

/** The file and a form's few other fields. */
export const MAX_IMPORT_BODY_BYTES = CSV_LIMITS.bytesMax + 64 * 1024;
/** The problems a JSON answer lists (a 20 000-line file could have far more); `problemsOmitted` says how many it left out. */
export const JSON_PROBLEMS_MAX = 1000;

const isCsv = (request: Request) => /^text\/csv\s*(;|$)/i.test(request.headers.get("content-type") ?? "");

type CsvBody = { bytes: Uint8Array; checked?: string };
type Checked = Exclude<ImportResult, { conflict: true }>;
type ImportAnswer = { ok: true; hash: string; result: Checked } | ActionRefusal;

const refused = (status: 400 | 409 | 413 | 415, code: ImportError, message: string): ActionRefusal => ({
  ok: false,
  status,
  code,
  message,
});

async function readCsv(request: NextRequest): Promise<BodyRead<CsvBody>> {
  const multipart = isMultipart(request);
  if (!multipart && !isCsv(request))
    return refused(415, "unsupported_media_type", "send the CSV as text/csv or as a multipart form's `file`");
  const body = await readBodyCapped(request, MAX_IMPORT_BODY_BYTES);
  if (!body.ok)
    return body.reason === "too_large"
      ? refused(413, "file_too_large", `a catalogue CSV has at most ${CSV_LIMITS.bytesMax} bytes`)
      : refused(400, "unreadable", "the body could not be read to its end");
  if (!multipart) return { ok: true, body: { bytes: body.bytes } };
  try {
    const form = await formDataOf(body.bytes, request.headers.get("content-type")!);
    const file = form.get("file");
    const checked = form.get("checked");
    if (typeof file === "string" || file === null || file.size === 0)
      return refused(400, "file_required", "choose the CSV file (the form's `file`)");
    return {
      ok: true,
      body: { bytes: new Uint8Array(await file.arrayBuffer()), ...(typeof checked === "string" ? { checked } : {}) },
    };
  } catch {
    return refused(400, "unreadable", "the body is not the multipart form it says it is");
  }
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The import's route:
 *
 * - A JSON client gets `{ ok, dryRun, summary, problems }`: 200 when the file is good (and, without
 *   dryRun, imported), 400 with the problems by line and column when it is not (nothing written),
 *   413, 415 or 400 for a body it cannot read, 409 when another change collided with the import.
 * - The page's form gets a 303 back to the page with the outcome (lib/catalog/csv/flash.ts). Its
 *   "import" form sends `checked`, the SHA-256 the dry run answered: another file is refused
 *   (not_checked), so what is imported was checked.
 */
export function catalogImport(request: NextRequest, deps: () => ImportDeps): Promise<Response> {
  const dryRun = ["1", "true"].includes(request.nextUrl.searchParams.get("dryRun") ?? "");
  return adminAction<ImportAnswer, CsvBody>(request, {
    page: CATALOG_PAGE,
    body: readCsv,
    action: async (body, { browser, actor }): Promise<ImportAnswer> => {
      const hash = sha256(body.bytes);
      if (browser && !dryRun && body.checked !== hash)
        return refused(409, "not_checked", "this is not the file that was checked: check it first");
      const result = await importCatalogCsv(body.bytes, { dryRun, actor }, deps());
      if ("conflict" in result) return refused(409, "conflict", result.message);
      return { ok: true, hash, result };
    },
    // New products, prices, stock, categories, images: the cached pages follow.
    changesShopPages: ({ result }) => result.ok && !dryRun,
    doneFlash: ({ hash, result }) =>
      importFlashParams(
        !result.ok
          ? { kind: "invalid", dryRun, problems: result.problems, total: result.problems.length }
          : dryRun
            ? { kind: "checked", summary: result.summary, checked: hash }
            : { kind: "applied", summary: result.summary },
      ),
    json: ({ result }) => {
      const problems: CsvProblem[] = result.problems.slice(0, JSON_PROBLEMS_MAX);
      const omitted = result.problems.length - problems.length;
      return {
        status: result.ok ? 200 : 400,
        body: {
          ok: result.ok,
          dryRun,
          summary: result.summary,
          problems,
          ...(omitted > 0 ? { problemsOmitted: omitted } : {}),
        },
        headers: { "Cache-Control": "no-store" },
      };
    },
  });
}
