// `npm run db:seed`: adds what is missing of the demo catalogue and changes nothing that exists,
// so a product edited in the back office stays as it was left (scripts/db/seed.mjs), and says
// what it did. `--if-empty` loads it only into a products table that holds no product at all,
// and otherwise changes nothing (what a deployment with SEED_DEMO_CATALOGUE=1 does). Plain
// JavaScript: it runs after `npm prune --omit=dev`.
import { parseArgs } from "node:util";
import { describeDatabase, directDatabaseUrl, loadEnvFiles } from "./db/connection.mjs";
import { describeSeed, seedCatalog, seedCatalogIfEmpty } from "./db/seed.mjs";

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
    console.log(`[seed] ${describeDatabase(url)}: ${describeSeed(await seedCatalog(url))}`);
  }
} catch (error) {
  console.error(`[seed] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
