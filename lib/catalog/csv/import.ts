import "server-only";
import { createHash } from "node:crypto";
import type { Database } from "../../db/client";
import { Rollback, rolledBack } from "../../refusal";
import { Prisma } from "../../generated/prisma/client";
import type { ImageStore } from "../images/store";
import { prepareImage } from "../images/validate";
import type { ImageFiles } from "./files";
import { problem, sortProblems, type CsvProblem, type ImportSummary, type ProblemCode } from "./format";
import { parseCatalogCsv, type CsvProduct } from "./parse";
import { planImport, type FileImage, type Plan } from "./import-plan";
import { writePlan } from "./import-write";
import { CATALOGUE_SUBJECT, recordStaffEvent, type Actor } from "../../admin/staff-events";

/**
 * The catalog CSV into the database: products matched by slug, created or updated, with their
 * categories (missing ones created), galleries, options and variants; each variant's stock set to
 * the file's, each change kept as a stock adjustment. A dry run and an import check the same
 * things and answer every problem by line and column; an import with a problem writes nothing.
 * An import is recorded (lib/admin/staff-events.ts) with its summary, in its transaction.
 */

/** Long enough for 20 000 lines on a slow machine; Prisma's default (5 s) is for a form's transaction. */
const TRANSACTION_TIMEOUT_MS = 10 * 60_000;

export interface ImportOptions {
  dryRun: boolean;
  /** Where relative image names are read (the CLI: the CSV's folder); absent, they are problems. */
  files?: ImageFiles;
  /** Who imports: the back office's person, or null for the command line (scripts/catalogue-import.ts), which names nobody. */
  actor: Actor | null;
}

export interface ImportDeps {
  db: Database;
  images: ImageStore;
}

export type ImportResult =
  | { ok: true; dryRun: boolean; summary: ImportSummary; problems: [] }
  | { ok: false; dryRun: boolean; summary: ImportSummary; problems: CsvProblem[] }
  /** Another change of the catalogue collided with this import (a slug or category created meanwhile): nothing was written. */
  | { ok: false; conflict: true; message: string };

/**
 * Checks the file against the database once before anything is written, then again inside one
 * transaction on the rows it has locked, so that what changed in between is still caught.
 * Image files (the CLI's) are stored first in that transaction, before it locks any product's
 * row: re-encoding and storing thousands of files takes seconds, and a checkout waits for the
 * rows it needs, not for them; an import that fails leaves none behind.
 */
export async function importCatalogCsv(
  bytes: Uint8Array,
  options: ImportOptions,
  deps: ImportDeps,
): Promise<ImportResult> {
  const parsed = parseCatalogCsv(bytes);
  const files = await readImageFiles(parsed.products, options.files);
  const lines = parsed.products.map((product) =>
    files.badLines.has(product.line) ? { ...product, valid: false } : product,
  );
  const { optionColumns } = parsed;
  const before = await planImport(deps.db, lines, files.images, { lock: false, optionColumns });
  const problems = sortProblems([...parsed.problems, ...files.problems, ...before.problems]);
  const summary = { ...before.summary, rows: parsed.rows };
  if (problems.length > 0) return { ok: false, dryRun: options.dryRun, summary, problems };
  if (options.dryRun) return { ok: true, dryRun: true, summary, problems: [] };

  try {
    return await deps.db.$transaction(
      async (tx): Promise<ImportResult> => {
        // The slow part first, no product's row locked yet; the locked plan below finds these
        // files in product_images (this transaction's rows) and names them by their paths.
        const stored = await storeFiles(before.filesToStore, options.files, deps.images, tx);
        const locked = await planImport(tx, lines, files.images, { lock: true, optionColumns });
        const summary = { ...locked.summary, rows: parsed.rows, imagesStored: stored.size };
        // Thrown, not returned: returning would commit the images stored above.
        if (locked.problems.length > 0)
          throw new Rollback<ImportResult>({
            ok: false,
            dryRun: false,
            summary,
            problems: sortProblems(locked.problems),
          });
        // Empty unless a stored image the first plan counted on was deleted since (none ever is).
        for (const [sha256, path] of await storeFiles(locked.filesToStore, options.files, deps.images, tx))
          stored.set(sha256, path);
        await writePlan(tx, locked, stored);
        const written = { ...summary, imagesStored: stored.size };
        await recordStaffEvent(tx, options.actor, {
          kind: "catalogue.import",
          subject: CATALOGUE_SUBJECT,
          details: { ...written, ...(options.actor ? {} : { commandLine: true }) },
        });
        return { ok: true, dryRun: false, summary: written, problems: [] };
      },
      { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
    );
  } catch (error) {
    const refused = rolledBack<ImportResult>(error);
    if (refused) return refused;
    if (isCollision(error))
      return {
        ok: false,
        conflict: true,
        message:
          "another change of the catalogue (a product or category created, a category moved) collided with this import; nothing was written: import again",
      };
    throw error;
  }
}

/**
 * A unique slug taken, or the tree's two levels broken (the categories_two_levels trigger), by
 * someone else meanwhile; or a deadlock or serialization failure with them; or a row another
 * transaction kept locked past the session's lock_timeout (DATABASE_LOCK_TIMEOUT_MS). Prisma
 * reports a raw statement's error as P2010 with the driver's SQLSTATE.
 */
function isCollision(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002" || error.code === "P2034") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string; originalMessage?: string } })
    ?.cause;
  const code = cause?.originalCode ?? "";
  return (
    ["23505", "40P01", "40001", "55P03"].includes(code) ||
    (code === "23514" && /third level|cannot have a parent/.test(cause?.originalMessage ?? ""))
  );
}

/**
 * Stores the files the shop does not have, in the import's transaction, one after the other (they
 * share its one connection); answers each one's path by the sha256 its check gave. Each file is
 * read and re-encoded again rather than kept in memory since its check: the same file gives the
 * same bytes, so what was checked is what is stored, and a file changed meanwhile is an error.
 */
async function storeFiles(
  filesToStore: Plan["filesToStore"],
  files: ImageFiles | undefined,
  images: ImageStore,
  tx: Prisma.TransactionClient,
): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for (const [sha256, file] of filesToStore) {
    const bytes = await files?.read(file.name);
    const prepared = bytes ? await prepareImage(bytes) : null;
    if (!prepared?.ok || sha256Of(prepared.bytes) !== sha256)
      throw new Error(`${file.name} changed or disappeared during the import; nothing was written`);
    stored.set(sha256, (await images.put(prepared.bytes, prepared.contentType, tx)).path);
  }
  return stored;
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Reads, checks, re-encodes (like an upload, lib/catalog/images/validate.ts) and hashes every
 * file the lines name, once each; the bytes are not kept. The store keeps one copy per content
 * (the sha256 of the re-encoded bytes, the same for the same file), so a file named on many lines,
 * or imported again, is stored once, and a dry run can say exactly what changes.
 */
async function readImageFiles(
  products: CsvProduct[],
  files: ImageFiles | undefined,
): Promise<{ images: Map<string, FileImage>; problems: CsvProblem[]; badLines: Set<number> }> {
  const images = new Map<string, FileImage>();
  const refused = new Map<string, ProblemCode>();
  const problems: CsvProblem[] = [];
  const badLines = new Set<number>();
  for (const product of products) {
    for (const { ref } of product.images ?? []) {
      if (ref.kind !== "file") continue;
      let code: ProblemCode | undefined = refused.get(ref.name);
      if (!code && !images.has(ref.name)) {
        if (!files) code = "image_file_not_allowed";
        else {
          const bytes = await files.read(ref.name);
          const prepared = bytes ? await prepareImage(bytes) : null;
          if (!prepared) code = "image_not_found";
          else if (!prepared.ok) code = prepared.code;
          else images.set(ref.name, { sha256: sha256Of(prepared.bytes), contentType: prepared.contentType });
        }
        if (code) refused.set(ref.name, code);
      }
      if (code) {
        problems.push(problem(product.line, "images", code, ref.name));
        badLines.add(product.line);
      }
    }
  }
  return { images, problems, badLines };
}
