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

/**
 * [what, command, run with TEST_DATABASE_ONLY=1 too (the database steps, and what they need),
 * PostgreSQL only (skipped without DATABASE_URL)]
 */
const STEPS = [
  ["Prisma client", "node scripts/prisma-generate.mjs", true],
  ["type check", "npm run typecheck", false],
  ["migration lint", "npm run db:lint", false],
  ["sandbox package", "npm test -w pay-sandbox", false],
  ["unit tests", "npm run test:unit", false],
  ["integration tests", "npm run test:integration", true],
  ["browser tests", "npx playwright test", true],
  // On the browser tests' build: every bench scenario's answers compared once, no load (bench/README.md).
  // PostgreSQL only: its 100 000 dashboard orders and 10 000 products are minutes of work for PGlite.
  ["bench answer checks", "BENCH_CHECK_ONLY=1 BENCH_SKIP_BUILD=1 npm run bench", false, true],
  // The short soak (soak/README.md), on the same build: a minute of shoppers through a PostgreSQL
  // restart and a killed instance, then every invariant checked. It runs its own cluster.
  ["soak", "SOAK_SKIP_BUILD=1 npm run soak", false, true],
];

const database = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite (DATABASE_URL unset)";
const timings = [];
for (const [what, command, neededForDatabase, postgresOnly = false] of STEPS) {
  if (databaseOnly && !neededForDatabase) {
    console.log(`\n== ${what}: skipped (TEST_DATABASE_ONLY=1: it does not depend on the database) ==`);
    continue;
  }
  if (postgresOnly && !process.env.DATABASE_URL) {
    console.log(`\n== ${what}: skipped (it runs against PostgreSQL only; DATABASE_URL is unset) ==`);
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
