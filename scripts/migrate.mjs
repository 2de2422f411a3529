// `npm run db:migrate`: applies pending SQL migrations from prisma/migrations to the database,
// recording them in _prisma_migrations as `prisma migrate deploy` would (docs/database.md).
// Connects to DATABASE_URL_UNPOOLED when set, else DATABASE_URL (scripts/db/connection.mjs).
// Plain JavaScript: it runs after `npm prune --omit=dev` and in the container's migrate step.
import { describeDatabase, directDatabaseUrl, migratorTimeouts, loadEnvFiles } from "./db/connection.mjs";
import { applyMigrations } from "./db/migrate.mjs";

const log = (line) => console.log(`[migrate] ${line}`);

try {
  loadEnvFiles();
  const { url, variable } = directDatabaseUrl();
  log(`database ${describeDatabase(url)} (${variable})`);
  const { applied, alreadyApplied } = await applyMigrations({
    connectionString: url,
    log,
    timeouts: migratorTimeouts(),
  });
  const earlier = `${alreadyApplied.length} applied earlier`;
  log(
    applied.length === 0 ? `database schema is up to date (${earlier})` : `applied ${applied.join(", ")} (${earlier})`,
  );
} catch (error) {
  console.error(`[migrate] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
