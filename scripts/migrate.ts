// `npm run db:migrate`: applies pending SQL migrations from prisma/migrations to DATABASE_URL,
// recording them in _prisma_migrations as `prisma migrate deploy` would (docs/database.md).
import { applyMigrations } from "../lib/db/migrate";
import { getDatabaseEnv } from "../lib/env";

const log = (line: string) => console.log(`[migrate] ${line}`);

try {
  const { databaseUrl } = getDatabaseEnv();
  const { applied, alreadyApplied } = await applyMigrations({ connectionString: databaseUrl, log });
  const earlier = `${alreadyApplied.length} applied earlier`;
  log(
    applied.length === 0 ? `database schema is up to date (${earlier})` : `applied ${applied.join(", ")} (${earlier})`,
  );
} catch (error) {
  console.error(`[migrate] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
