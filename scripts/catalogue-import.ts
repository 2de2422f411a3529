// `npm run catalogue:import -- <file.csv> [--dry-run]`: the catalogue CSV into the database of
// DATABASE_URL (lib/catalog/csv/import.ts; docs/catalog-csv.md), with its image files read
// from the CSV's folder, which the back office's upload cannot do. Prints every problem by line
// and column (exit 1, nothing written) or what the file changed (or, with --dry-run, would change).
// Loads .env files as `next start` does.
import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import nextEnv from "@next/env";
import { CATALOG_PAGE_SECONDS } from "../lib/catalog/cached-pages";
import { folderFiles } from "../lib/catalog/csv/files";
import { CSV_LIMITS, type ImportSummary } from "../lib/catalog/csv/format";
import { importCatalogCsv } from "../lib/catalog/csv/import";
import { db } from "../lib/db/client";
import { EnvError, getDatabaseEnv } from "../lib/env";
import { postgresImageStore } from "../lib/catalog/images/postgres-store";

const log = (line: string) => console.log(`[catalogue] ${line}`);
function fail(line: string, code = 1): never {
  console.error(`[catalogue] ${line}`);
  process.exit(code);
}

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const files = args.filter((arg) => !arg.startsWith("--"));
const unknown = args.filter((arg) => arg.startsWith("--") && arg !== "--dry-run");
if (files.length !== 1 || unknown.length > 0) fail("usage: npm run catalogue:import -- <file.csv> [--dry-run]", 2);
const path = resolve(files[0]!);

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
try {
  getDatabaseEnv();
} catch (error) {
  fail(error instanceof EnvError || error instanceof Error ? error.message : String(error));
}

const size = await stat(path).then(
  (info) => info.size,
  () => fail(`cannot read ${path}`),
);
if (size > CSV_LIMITS.bytesMax) fail(`${path} has more than ${CSV_LIMITS.bytesMax} bytes; split it`);

const started = performance.now();
const result = await importCatalogCsv(
  await readFile(path),
  // Nobody is signed in here: the import is recorded as the command line's.
  { dryRun, files: folderFiles(dirname(path)), actor: null },
  { db: db(), images: postgresImageStore(db()) },
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
await db().$disconnect();

if ("conflict" in result) fail(result.message);
const counts = (summary: ImportSummary) =>
  `${summary.rows} lines: ${summary.created} new, ${summary.updated} changed, ${summary.unchanged} unchanged` +
  (summary.archived > 0 ? ` (${summary.archived} archived, staying archived)` : "") +
  `; ${summary.categoriesCreated} new categories, ${summary.imagesStored} new images`;
if (!result.ok) {
  for (const problem of result.problems)
    console.error(
      `[catalogue] ${problem.line === 0 ? "file" : `line ${problem.line}`}` +
        `${problem.column === null ? "" : `, ${problem.column}`}: ${problem.message}`,
    );
  fail(`${result.problems.length} problems in ${path}; nothing was written`);
}
if (dryRun) log(`checked ${path} in ${seconds} s, nothing written. Importing it would give ${counts(result.summary)}`);
else {
  log(`imported ${path} in ${seconds} s: ${counts(result.summary)}`);
  // The running shop's cache is another process's: its pages expire on their own.
  log(`the shop's cached pages show the changes within ${CATALOG_PAGE_SECONDS} s (CATALOG_PAGE_SECONDS)`);
}
