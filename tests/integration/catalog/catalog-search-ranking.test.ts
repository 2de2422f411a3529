import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../../harness/support/database";
import type { BrowseResult } from "@/lib/catalog/browse";
import type { BrowseQuery } from "@/lib/catalog/browse-query";

// Relevance in a catalogue of 3 000 products (lib/catalog/browse.ts), on a database of this
// file's own: 181 of them mention feijão, one is named exactly "Feijão", 60 have names that start
// with the word and 120 only contain it. The others say it more often (in their name and their
// description), which is what the text ranking alone rewards.

let database: TestDatabase;
const hotReloadCache = globalThis as { shopPrismaClient?: { $disconnect(): Promise<void> } };

const PREFIXED = 60;
const CONTAINING = 120;
const OTHERS = 3_000 - 1 - PREFIXED - CONTAINING;
const WORDY = "Feijão cozido com feijão e mais feijão: o feijão da casa, feijão de sempre.";

beforeAll(async () => {
  database = await createTestDatabase("search-ranking");
  await applyMigrations({ connectionString: database.url });
  await withPgClient(database.url, async (client) => {
    const insert = (select: string) =>
      client.query(`INSERT INTO products (slug, name, description, image_path, price_aoa, stock) ${select}`);
    // Written first, so that neither its id nor its age puts it ahead.
    await insert(`SELECT 'outro-' || n, 'Artigo ' || n, 'Um artigo da loja.', '/products/x.svg', 1000, 5
                  FROM generate_series(1, ${OTHERS}) AS n`);
    await insert(`SELECT 'com-feijao-' || n, 'Arroz com feijão ' || n, '${WORDY}', '/products/x.svg', 1500, 5
                  FROM generate_series(1, ${CONTAINING}) AS n`);
    await insert(`SELECT 'feijao-' || n, 'Feijão manteiga ' || n, '${WORDY}', '/products/x.svg', 1800, 5
                  FROM generate_series(1, ${PREFIXED}) AS n`);
    await insert(`VALUES ('feijao', 'Feijão', 'Leguminosa seca de Malanje.', '/products/x.svg', 1200, 5)`);
  });
  process.env.DATABASE_URL = database.url;
  hotReloadCache.shopPrismaClient = undefined;
});

afterAll(async () => {
  await hotReloadCache.shopPrismaClient?.$disconnect();
  await database.drop();
});

async function browse(query: Partial<BrowseQuery>): Promise<BrowseResult> {
  const { browseProducts } = await import("@/lib/catalog/browse");
  const { db } = await import("@/lib/db/client");
  const result = await browseProducts(db(), { sort: "relevance", inStock: false, page: 1, ...query });
  if (!result) throw new Error("unknown category");
  return result;
}

describe("relevance in a large catalogue", () => {
  it.each(["feijao", "Feijão", "FEIJAO", " feijão "])(
    "%j: the product named exactly so comes first, then the names that start with it, then the rest",
    async (q) => {
      const first = await browse({ q });
      expect(first.total).toBe(1 + PREFIXED + CONTAINING);
      expect(first.items[0]?.slug).toBe("feijao");
      const pages = [first];
      for (let page = 2; page <= Math.ceil(first.total / first.pageSize); page++) pages.push(await browse({ q, page }));
      const names = pages.flatMap((result) => result.items.map((item) => item.name));
      expect(names).toHaveLength(first.total);
      expect(new Set(names).size).toBe(first.total);
      const kinds = names.map((name) => (name === "Feijão" ? 0 : name.startsWith("Feijão") ? 1 : 2));
      expect(kinds).toEqual([...kinds].sort((a, b) => a - b));
    },
  );
});

describe("pages by relevance", () => {
  // The page statement ranks only the matches that may reach the page (lib/catalog/search-sql.ts
  // relevancePage); the pages must be those of ranking every match: the name first, then the text
  // rank plus half pg_trgm's word similarity, then the id (many ties here: one name a number apart).
  it.each(["feijao", "feijão manteiga", "arroz", "feijoa", "casa"])(
    "%j: every page is the slice of the whole ranking",
    async (q) => {
      const { tsqueryText } = await import("@/lib/catalog/search-sql");
      const first = await browse({ q });
      expect(first.total).toBeGreaterThan(first.pageSize);
      const pages = [first];
      for (let page = 2; page <= Math.ceil(first.total / first.pageSize); page++) pages.push(await browse({ q, page }));
      const listed = pages.flatMap((result) => result.items);
      expect(listed).toHaveLength(first.total);
      const ranked = await withPgClient(database.url, async (client) => {
        await client.query("SET pg_trgm.word_similarity_threshold = 0.45");
        const { rows } = await client.query<{ id: string }>(
          `SELECT p.id FROM products p WHERE p.id = ANY($1::uuid[])
           ORDER BY (CASE WHEN p.search_key = shop_search_key($2) THEN 2
                          WHEN starts_with(p.search_key, shop_search_key($2)) THEN 1 ELSE 0 END) DESC,
                    ts_rank(p.search_document, to_tsquery('portuguese', shop_unaccent($3)))
                      + 0.5 * word_similarity(shop_search_key($4), p.search_key) DESC,
                    p.id`,
          [listed.map((item) => item.id), q.trim().replace(/\s+/g, " "), tsqueryText(q), q],
        );
        return rows.map((row) => row.id);
      });
      expect(listed.map((item) => item.id)).toEqual(ranked);
    },
  );
});
