// `npm run db:seed`: loads the demo catalogue into DATABASE_URL. Re-running updates names,
// descriptions, images and prices but never resets stock (lib/db/seed.ts).
import { seedCatalog } from "../lib/db/seed";
import { getDatabaseEnv } from "../lib/env";

try {
  const { databaseUrl } = getDatabaseEnv();
  const { products, inserted, updated } = await seedCatalog(databaseUrl);
  console.log(`[seed] catalogue ready: ${products} products (${inserted} inserted, ${updated} updated)`);
} catch (error) {
  console.error(`[seed] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
