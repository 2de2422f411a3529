import "server-only";
import { createHash } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { refuseWithoutAdminSession } from "./admin-guard";
import { isMultipart, refuseCrossSite, seeOther, wantsJson } from "./admin-requests";
import { catalogChanged } from "../catalog/cached-pages";
import { importFlashUrl, type ImportError } from "../catalog/csv/flash";
import { CSV_LIMITS, type CsvProblem } from "../catalog/csv/format";
import { importCatalogCsv, type ImportDeps } from "../catalog/csv/import";
import { jsonError } from "./json-error";
import { readBodyCapped } from "./request-body";

/**
 * POST /api/admin/catalogue/import (lib/catalog/csv/import.ts over HTTP): the session guard and
 * the cross-site check, then the CSV, as a multipart form's `file` (the back office's page) or
 * as a text/csv body; `?dryRun=1` checks without writing.
 *
 * - A JSON client gets `{ ok, dryRun, summary, problems }`: 200 when the file is good (and, without
 *   dryRun, imported), 400 with the problems by line and column when it is not (nothing written),
 *   413, 415 or 400 for a body it cannot read, 409 when another change collided with the import.
 * - The page's form (multipart, no `Accept: application/json`) gets a 303 back to the page with
 *   the outcome (lib/catalog/csv/flash.ts). Its "import" form sends `checked`, the SHA-256 the
 *   dry run answered: another file is refused (not_checked), so what is imported was checked.
 */

/** The file and a form's few other fields. */
export const MAX_IMPORT_BODY_BYTES = CSV_LIMITS.bytesMax + 64 * 1024;
/** The problems a JSON answer lists (a 20 000-line file could have far more); `problemsOmitted` says how many it left out. */
export const JSON_PROBLEMS_MAX = 1000;

const isCsv = (request: Request) => /^text\/csv\s*(;|$)/i.test(request.headers.get("content-type") ?? "");

type Refusal = { status: 400 | 413 | 415; code: ImportError; message: string };
type CsvBody = { ok: true; bytes: Uint8Array; checked?: string } | { ok: false; refusal: Refusal };

const refused = (status: Refusal["status"], code: ImportError, message: string): CsvBody => ({
  ok: false,
  refusal: { status, code, message },
});

async function readCsv(request: NextRequest): Promise<CsvBody> {
  const multipart = isMultipart(request);
  if (!multipart && !isCsv(request))
    return refused(415, "unsupported_media_type", "send the CSV as text/csv or as a multipart form's `file`");
  const body = await readBodyCapped(request, MAX_IMPORT_BODY_BYTES);
  if (!body.ok)
    return body.reason === "too_large"
      ? refused(413, "file_too_large", `a catalogue CSV has at most ${CSV_LIMITS.bytesMax} bytes`)
      : refused(400, "unreadable", "the body could not be read to its end");
  if (!multipart) return { ok: true, bytes: body.bytes };
  try {
    // readBodyCapped allocates a plain ArrayBuffer.
    const form = await new Response(body.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": request.headers.get("content-type")! },
    }).formData();
    const file = form.get("file");
    const checked = form.get("checked");
    if (typeof file === "string" || file === null || file.size === 0)
      return refused(400, "file_required", "choose the CSV file (the form's `file`)");
    return {
      ok: true,
      bytes: new Uint8Array(await file.arrayBuffer()),
      ...(typeof checked === "string" ? { checked } : {}),
    };
  } catch {
    return refused(400, "unreadable", "the body is not the multipart form it says it is");
  }
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export async function catalogueImport(request: NextRequest, deps: () => ImportDeps): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const dryRun = ["1", "true"].includes(request.nextUrl.searchParams.get("dryRun") ?? "");
  const form = isMultipart(request) && !wantsJson(request);
  const answer = (error: ImportError, status: number, message: string) =>
    form ? seeOther(importFlashUrl({ kind: "error", error })) : jsonError(status, error, message);

  const body = await readCsv(request);
  if (!body.ok) return answer(body.refusal.code, body.refusal.status, body.refusal.message);
  const hash = sha256(body.bytes);
  if (form && !dryRun && body.checked !== hash)
    return answer("not_checked", 409, "this is not the file that was checked: check it first");

  const result = await importCatalogCsv(body.bytes, { dryRun }, deps());
  if ("conflict" in result) return answer("conflict", 409, result.message);
  // New products, prices, stock, categories, images: the cached pages follow.
  if (result.ok && !dryRun) catalogChanged();

  if (form) {
    if (!result.ok)
      return seeOther(
        importFlashUrl({ kind: "invalid", dryRun, problems: result.problems, total: result.problems.length }),
      );
    return seeOther(
      importFlashUrl(
        dryRun
          ? { kind: "checked", summary: result.summary, checked: hash }
          : { kind: "applied", summary: result.summary },
      ),
    );
  }
  const problems: CsvProblem[] = result.problems.slice(0, JSON_PROBLEMS_MAX);
  return NextResponse.json(
    {
      ok: result.ok,
      dryRun,
      summary: result.summary,
      problems,
      ...(result.problems.length > problems.length
        ? { problemsOmitted: result.problems.length - problems.length }
        : {}),
    },
    { status: result.ok ? 200 : 400, headers: { "Cache-Control": "no-store" } },
  );
}
