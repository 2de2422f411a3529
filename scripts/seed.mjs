// `npm run db:seed`: loads the demo catalogue. Re-running updates names, descriptions, images
// and prices but never resets stock (scripts/db/seed.mjs). `--if-empty` loads it only into a
// products table that holds no product at all, and otherwise changes nothing (what a deployment
// with SEED_DEMO_CATALOGUE=1 does). Plain JavaScript: it runs after `npm prune --omit=dev`.
import { parseArgs } from "node:util";
import { describeDatabase, directDatabaseUrl, loadEnvFiles } from "./db/connection.mjs";
import { seedCatalog, seedCatalogIfEmpty } from "./db/seed.mjs";

try {
  const { values } = parseArgs({ options: { "if-empty": { type: "boolean", default: false } } });
  loadEnvFiles();
  const { url } = directDatabaseUrl();
  if (values["if-empty"]) {
    const { inserted } = await seedCatalogIfEmpty(url);
    console.log(
      inserted
        ? `[seed] demo catalogue loaded into ${describeDatabase(url)}: ${inserted} products`
        : `[seed] ${describeDatabase(url)} already has products; the demo catalogue was not loaded`,
    );
  } else {
    const { products, inserted, updated } = await seedCatalog(url);
    console.log(`[seed] catalogue ready: ${products} products (${inserted} inserted, ${updated} updated)`);
  }
} catch (error) {
  console.error(`[seed] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
