// `npm test`: every check, one after the other, stopping at the first that fails, each step
// headed in the log with how long it took (docs/testing.md says what each one covers).
//
// `TEST_DATABASE_ONLY=1` runs only the steps whose outcome depends on the database (the
// integration tests and the browser tests). CI runs the whole of `npm test` against PostgreSQL,
// then again with DATABASE_URL unset, against the embedded PGlite: in that second pass the type
// check, the migration lint, the sandbox package's tests and the unit tests would run the very
// same code against the very same input a second time, so .ci/run sets it there.
import { spawnSync } from "node:child_process";

const databaseOnly = process.env.TEST_DATABASE_ONLY === "1";

/** [what, command, run with TEST_DATABASE_ONLY=1 too (the database steps, and what they need)] */
const STEPS = [
  ["Prisma client", "node scripts/prisma-generate.mjs", true],
  ["type check", "npm run typecheck", false],
  ["migration lint", "npm run db:lint", false],
  ["sandbox package", "npm test -w pay-sandbox", false],
  ["unit tests", "npm run test:unit", false],
  ["integration tests", "npm run test:integration", true],
  ["browser tests", "npx playwright test", true],
];

const database = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite (DATABASE_URL unset)";
const timings = [];
for (const [what, command, neededForDatabase] of STEPS) {
  if (databaseOnly && !neededForDatabase) {
    console.log(`\n== ${what}: skipped (TEST_DATABASE_ONLY=1: it does not depend on the database) ==`);
    continue;
  }
  console.log(`\n== ${what}: ${command} (${database}) ==`);
  const startedAt = Date.now();
  const result = spawnSync(command, { stdio: "inherit", shell: true });
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  timings.push(`${what} ${seconds} s`);
  if (result.status !== 0) {
    console.error(`\n== ${what} failed after ${seconds} s (${timings.join(", ")}) ==`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n== npm test passed: ${timings.join(", ")} ==`);
