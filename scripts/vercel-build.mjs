// The database half of a Vercel build (`npm run vercel-build`, which Vercel runs instead of
// `npm run build`; docs/deploy.md). Runs before `next build`.
//
// - Production deployments (VERCEL_ENV=production) apply pending migrations over the direct
//   connection (DATABASE_URL_UNPOOLED, else DATABASE_URL) and, with SEED_DEMO_CATALOGUE=1, load
//   the demo catalogue into a products table that has never held a product.
// - Every other build (preview, development, a local `vercel build` without VERCEL_ENV) leaves the
//   database alone: a preview must never migrate the production database. Previews get their own
//   (a Neon branch per preview, say) and it is migrated on purpose: `npm run db:migrate` with its URL.
//
// A failure fails the build, so a deployment never goes live against a schema it does not know.
import { describeDatabase, directDatabaseUrl, migratorTimeouts } from "./db/connection.mjs";
import { applyMigrations } from "./db/migrate.mjs";
import { seedCatalogIfEmpty } from "./db/seed.mjs";

const log = (line) => console.log(`[vercel-build] ${line}`);

async function main() {
  const target = process.env.VERCEL_ENV;
  if (target !== "production") {
    log(
      `${target ? `a ${target}` : "a non-production"} build (VERCEL_ENV=${target ?? "unset"}): ` +
        "the database is left alone; only production deployments migrate",
    );
    return;
  }
  const { url, variable } = directDatabaseUrl();
  log(`production build: migrating ${describeDatabase(url)} (${variable})`);
  const { applied, alreadyApplied } = await applyMigrations({
    connectionString: url,
    log,
    timeouts: migratorTimeouts(),
  });
  log(
    applied.length
      ? `applied ${applied.join(", ")} (${alreadyApplied.length} applied earlier)`
      : `schema is up to date (${alreadyApplied.length} migrations)`,
  );
  if (process.env.SEED_DEMO_CATALOGUE === "1") {
    const { inserted } = await seedCatalogIfEmpty(url);
    log(
      inserted
        ? `SEED_DEMO_CATALOGUE=1: loaded the demo catalogue (${inserted} products)`
        : "SEED_DEMO_CATALOGUE=1: the shop already has products; the demo catalogue was not loaded",
    );
  }
}

try {
  await main();
} catch (error) {
  console.error(`[vercel-build] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
