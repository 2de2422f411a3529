/**
 * `npm run explain-search` (in bench/): where the database's time goes in the `search` scenario.
 * On a scratch database with the bench catalogue (the bench's own: migrations, demo catalogue,
 * catalog-data.ts), each search's page statement and its facets' (lib/catalog/search-sql.ts, which
 * the app and the bench's baseline both send) are planned and run EXPLAIN_RUNS times (9) with
 * EXPLAIN ANALYZE: the fastest planning and execution times (the facets' as their sum), and how
 * many products it finds. EXPLAIN_PLAN=<n> (from 1) or EXPLAIN_PLAN=all also prints the page's
 * plans. DATABASE_URL as for `npm run bench` (embedded PGlite when unset; its times are not
 * PostgreSQL's).
 *
 * To try a change to the search's SQL, make it in lib/catalog/search-sql.ts, then compare this
 * script's figures.
 */
import pg from "pg";
import { createScratchDatabase } from "../harness/scratch-database";
import { applyMigrations } from "../scripts/db/migrate.mjs";
import { seedCatalog } from "../scripts/db/seed.mjs";
import { BENCH_PRODUCT_COUNT, ensureBenchCatalog } from "./scenarios/catalog-data";
import { facetStatement } from "../lib/catalog/search-sql";
import { SEARCH_PATHS, pageStatement, readCategoryIds, readQuery } from "./scenarios/search";

const runs = Number(process.env.EXPLAIN_RUNS ?? 9);
const showPlan = (index: number) =>
  process.env.EXPLAIN_PLAN === "all" || process.env.EXPLAIN_PLAN === String(index + 1);

interface JsonPlan {
  "Planning Time": number;
  "Execution Time": number;
}

const scratch = await createScratchDatabase({ label: "explain", serverUrl: process.env.DATABASE_URL });
const database = new pg.Pool({ connectionString: scratch.url, max: 1 });
try {
  await applyMigrations({ connectionString: scratch.url });
  await seedCatalog(scratch.url);
  await ensureBenchCatalog(database);
  console.log(`${scratch.description}: ${BENCH_PRODUCT_COUNT} bench products; fastest of ${runs} runs each\n`);
  const rows: string[][] = [];
  const sums = { planning: 0, execution: 0, facets: 0, found: 0 };
  for (const [index, path] of SEARCH_PATHS.entries()) {
    const query = readQuery(new URL(path, "http://bench").searchParams);
    const ids = query.category ? await readCategoryIds(database, query.category) : undefined;
    const { text, values } = pageStatement(query, ids ?? undefined);
    const found = (await database.query<{ total: number }>(text, values)).rows[0]?.total ?? 0;
    const fastest = async (statement: { text: string; values: unknown[] }) => {
      let planning = Infinity;
      let execution = Infinity;
      for (let run = 0; run < runs; run++) {
        const { rows: explained } = await database.query<{ "QUERY PLAN": JsonPlan[] }>(
          `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statement.text}`,
          statement.values,
        );
        const plan = explained[0]!["QUERY PLAN"][0]!;
        planning = Math.min(planning, plan["Planning Time"]);
        execution = Math.min(execution, plan["Execution Time"]);
      }
      return { planning, execution };
    };
    const { planning, execution } = await fastest({ text, values });
    const facets = await fastest(facetStatement(query, ids ?? undefined));
    sums.facets += facets.planning + facets.execution;
    sums.planning += planning;
    sums.execution += execution;
    sums.found += found;
    rows.push([
      String(index + 1),
      decodeURIComponent(path.replace(/\+/g, " ")),
      String(found),
      planning.toFixed(2),
      execution.toFixed(2),
      (facets.planning + facets.execution).toFixed(2),
    ]);
    if (showPlan(index)) {
      const { rows: plan } = await database.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
        values,
      );
      console.log(`${index + 1}. ${rows.at(-1)![1]}\n${plan.map((line) => line["QUERY PLAN"]).join("\n")}\n`);
    }
  }
  const count = SEARCH_PATHS.length;
  rows.push([
    "",
    "mean",
    String(Math.round(sums.found / count)),
    (sums.planning / count).toFixed(2),
    (sums.execution / count).toFixed(2),
    (sums.facets / count).toFixed(2),
  ]);
  const headings = ["#", "search", "found", "planning ms", "execution ms", "facets ms"];
  const widths = headings.map((heading, column) => Math.max(heading.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  console.log([line(headings), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n"));
} finally {
  await database.end();
  await scratch.drop();
}
