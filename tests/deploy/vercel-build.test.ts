import { execFile } from "node:child_process";
import { readdir, readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_PRODUCTS } from "@/scripts/db/seed.mjs";
import { withPgClient } from "@/scripts/db/pg-client.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";
import { freshCopy, type FreshCopy } from "../../harness/support/fresh-copy";
import { routeFiles } from "../../harness/support/routes";

// `vercel build` (the CLI pinned in devDependencies, offline) on a fresh copy of the repository:
// what Vercel would deploy, and what it does to the database. A production build migrates and
// seeds an empty database; a preview build must not touch one.
//
// CI runs the suite twice, against PostgreSQL and against embedded PGlite. A Vercel deployment
// always has a PostgreSQL server, and what is built does not depend on the database, so CI runs
// this file once, in the PostgreSQL run (two builds, about two minutes), as it does
// tests/deploy/self-host.test.ts. Elsewhere it runs in either mode.

const BUILD_TIMEOUT_MS = 8 * 60_000;
const embedded = !inject("serverDatabaseUrl");
const skipInCi = Boolean(process.env.CI) && embedded;

let copy: FreshCopy;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  if (skipInCi) return;
  copy = await freshCopy("vercel");
  await mkdir(path.join(copy.dir, ".vercel"), { recursive: true });
  await writeFile(
    path.join(copy.dir, ".vercel", "project.json"),
    JSON.stringify({ projectId: "prj_localtest", orgId: "team_localtest", settings: { framework: "nextjs" } }),
  );
}, 120_000);
afterAll(async () => {
  await copy?.remove();
  for (const database of databases) await database.drop();
});

async function emptyDatabase(label: string): Promise<TestDatabase> {
  const database = await createTestDatabase(label);
  databases.push(database);
  return database;
}

/** `vercel build --yes` in the copy, with only the variables a Vercel build would have. */
function vercelBuild(env: Record<string, string>): Promise<{ code: number; output: string }> {
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "LANG", "npm_config_cache"].flatMap((name) =>
      process.env[name] ? [[name, process.env[name]!]] : [],
    ),
  );
  return new Promise((resolve) => {
    execFile(
      path.join(copy.dir, "node_modules", ".bin", "vercel"),
      ["build", "--yes"],
      {
        cwd: copy.dir,
        env: {
          ...inherited,
          CI: "1",
          NEXT_TELEMETRY_DISABLED: "1",
          VERCEL_TELEMETRY_DISABLED: "1",
          ...env,
        } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
        timeout: BUILD_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));

async function tableExists(url: string, table: string): Promise<boolean> {
  return withPgClient(url, async (client) => {
    const { rows } = await client.query("SELECT to_regclass($1) IS NOT NULL AS exists", [table]);
    return rows[0].exists;
  });
}

/**
 * .vercel/output/functions/<route>.func for an app/ file: app/api/x/route.ts → api/x, app/page.tsx → index;
 * a route group's folder, `(shop)`, is not part of the address, nor of the function's name.
 */
function functionDir(appFile: string): string {
  const route = path
    .dirname(path.relative("app", appFile))
    .replace(/(^|\/)\([^/)]+\)(?=\/|$)/g, "")
    .replace(/^\//, "")
    .replace(/^\.?$/, "index");
  return path.join(copy.dir, ".vercel", "output", "functions", `${route}.func`);
}

describe.skipIf(skipInCi)("vercel build", () => {
  it(
    "production: migrates and seeds an empty database, ships both crons, every route's maxDuration, the health route's migrations, sharp's binary with the upload routes, and the Save-Data rewrites with their Vary",
    async () => {
      const database = await emptyDatabase("vercel-production");
      const build = await vercelBuild({
        VERCEL_ENV: "production",
        DATABASE_URL: database.url,
        SEED_DEMO_CATALOGUE: "1",
      });
      expect(build.code, build.output).toBe(0);
      expect(build.output).toContain("[vercel-build] production build: migrating");

      const output = path.join(copy.dir, ".vercel", "output");
      const config = await readJson(path.join(output, "config.json"));
      const { crons } = await readJson(path.join(copy.dir, "vercel.json"));
      expect(crons).toHaveLength(2);
      expect(config.crons).toEqual(crons);
      for (const cron of crons as { path: string }[]) {
        const vc = await readJson(path.join(output, "functions", `${cron.path.slice(1)}.func`, ".vc-config.json"));
        expect(vc.maxDuration, cron.path).toBe(60);
      }

      // Every route that declares a maxDuration gets it, on the Node major package.json pins.
      const { engines } = await readJson(path.join(copy.dir, "package.json"));
      const declared = (await routeFiles(copy.dir)).filter((route) => route.maxDuration !== undefined);
      expect(declared.length).toBeGreaterThan(5);
      for (const route of declared) {
        const vc = await readJson(path.join(functionDir(route.file), ".vc-config.json"));
        expect(vc.maxDuration, route.file).toBe(route.maxDuration);
        expect(`${vc.runtime}`.replace(/^nodejs/, "")).toBe(engines.node);
      }

      // GET /api/health compares the database with the migrations shipped beside it.
      const migrations = (await readdir(path.join(copy.dir, "prisma", "migrations"), { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
      const health = await readJson(path.join(output, "functions", "api", "health.func", ".vc-config.json"));
      for (const name of migrations) {
        expect(Object.keys(health.filePathMap)).toContain(`prisma/migrations/${name}/migration.sql`);
      }

      // The routes that take image uploads re-encode them with sharp (lib/catalog/images/validate.ts): its
      // native binary and libvips, optional packages for this platform, travel with their functions.
      const platform = `${process.platform}-${process.arch}`;
      for (const route of [
        "api/admin/products",
        "api/admin/products/[id]",
        "api/admin/products/[id]/gallery",
        "api/admin/catalogue/import",
      ]) {
        const vc = await readJson(path.join(output, "functions", `${route}.func`, ".vc-config.json"));
        const files = Object.keys(vc.filePathMap);
        expect(files, route).toContainEqual(
          expect.stringMatching(
            new RegExp(`^node_modules/@img/sharp-${platform}/lib/sharp-${platform}-[\\d.]+\\.node$`),
          ),
        );
        expect(files, route).toContainEqual(
          expect.stringMatching(new RegExp(`^node_modules/@img/sharp-libvips-${platform}/lib/libvips-cpp\\.so`)),
        );
      }

      // Vercel's router, not Next's server, serves the cached pages: the Save-Data rewrites and
      // their Vary must be in its routes, or a data saver gets the full page (or others the light one).
      const routes = config.routes as {
        src?: string;
        dest?: string;
        has?: unknown[];
        headers?: Record<string, string>;
      }[];
      const matches = (route: { src?: string }, address: string) =>
        route.src !== undefined && new RegExp(route.src).test(address);
      for (const address of ["/", "/products/camisola-kianda", "/categories/roupa", "/page/2"]) {
        const saveData = routes.find(
          (route) =>
            matches(route, address) &&
            JSON.stringify(route.has ?? []).includes('"key":"save-data"') &&
            route.dest?.startsWith("/pt/save-data"),
        );
        expect(saveData, `the Save-Data rewrite of ${address}`).toBeDefined();
        const vary = routes.find(
          (route) =>
            matches(route, address) &&
            Object.entries(route.headers ?? {}).some(
              ([name, value]) => name.toLowerCase() === "vary" && /save-data/i.test(value),
            ),
        );
        expect(vary, `Vary: Save-Data on ${address}`).toBeDefined();
      }

      await withPgClient(database.url, async (client) => {
        const applied = await client.query(
          "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
        );
        expect(applied.rows.map((row) => row.migration_name)).toEqual(migrations);
        const products = await client.query("SELECT slug FROM products ORDER BY slug");
        expect(products.rows.map((row) => row.slug)).toEqual(DEMO_PRODUCTS.map((p) => p.slug).sort());
      });
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "preview: builds without touching the database",
    async () => {
      const database = await emptyDatabase("vercel-preview");
      const build = await vercelBuild({ VERCEL_ENV: "preview", DATABASE_URL: database.url, SEED_DEMO_CATALOGUE: "1" });
      expect(build.code, build.output).toBe(0);
      expect(build.output).toContain("the database is left alone");
      expect(await tableExists(database.url, "_prisma_migrations")).toBe(false);
      expect(await tableExists(database.url, "products")).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );
});
