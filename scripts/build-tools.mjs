// @ts-check
// The last step of `npm run build`: bundles the operator tools that import the shop's TypeScript
// (lib/, the Prisma client generated into lib/generated/prisma) into plain JavaScript, so they run
// on `node` after `npm prune --omit=dev`, where tsx is gone:
//   scripts/worker.ts    → dist/worker.mjs     (`npm run start:worker`)
//   scripts/reconcile.ts → dist/reconcile.mjs  (`npm run start:reconcile`)
//   scripts/catalogue-import.ts → dist/catalogue-import.mjs  (`npm run start:catalogue-import -- <file.csv>`)
// `npm run worker`, `npm run reconcile` and `npm run catalogue:import` keep running the sources
// with tsx in development.
//
// Only the repository's own code goes into the bundles; packages stay imports of node_modules,
// as in the Next build beside them. `server-only` is the exception: these are server programs,
// so it gets the empty module its react-server condition gives the server build.
// Usage: node scripts/build-tools.mjs [--outdir <dir>] (default dist/). About a second.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** What each bundle is built from, by output name. */
export const TOOL_ENTRY_POINTS = {
  worker: "scripts/worker.ts",
  reconcile: "scripts/reconcile.ts",
  "catalogue-import": "scripts/catalogue-import.ts",
};

/** @type {import("esbuild").Plugin} */
const serverOnlyIsEmpty = {
  name: "server-only-is-empty",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/**
 * Writes `<outdir>/<name>.mjs` for each of TOOL_ENTRY_POINTS. The bundles import their packages
 * from node_modules, so `outdir` must be inside the repository (node looks for node_modules in
 * the bundle's directory and its parents).
 * @param {{ outdir?: string }} [options]
 * @returns {Promise<string[]>} the files written
 */
export async function buildTools({ outdir = path.join(root, "dist") } = {}) {
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(TOOL_ENTRY_POINTS).map(([out, source]) => ({ in: source, out })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // next has no `exports` map, so Node's ESM loader finds `next/cache` only with its extension
    // (lib/catalog/cached-pages.ts imports it; outside Next its revalidation does nothing, by design).
    alias: { "next/cache": "next/cache.js" },
    plugins: [serverOnlyIsEmpty],
    // Not minified: a stack trace in the worker's log should be readable as it is.
    logLevel: "warning",
  });
  return Object.keys(TOOL_ENTRY_POINTS).map((out) => path.join(outdir, `${out}.mjs`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: "string" } } });
  const started = Date.now();
  const files = await buildTools({ outdir: values.outdir && path.resolve(values.outdir) });
  const shown = files.map((file) => path.relative(process.cwd(), file)).join(", ");
  console.log(`[build-tools] ${shown} in ${Date.now() - started} ms`);
}
