// `npm run db:lint` (part of `npm test`): checks the migrations that are not released yet with
// squawk, configured by .squawk.toml, plus the rules squawk lacks (scripts/db/lint.mjs). Exits 1
// on any problem. Run in the repository's root: paths are taken from there.
import { formatLintResult, lintMigrations } from "./db/lint.mjs";

try {
  const result = await lintMigrations({ root: process.cwd() });
  const report = formatLintResult(result);
  if (result.problems.length) {
    console.error(`[db:lint] ${report}`);
    process.exit(1);
  }
  console.log(`[db:lint] ${report}`);
} catch (error) {
  console.error(`[db:lint] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
