import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { createSerwistRoute } from "@serwist/turbopack";
import { OFFLINE_PAGE_PATH } from "@/lib/offline/offline-rules";

// /serwist/sw.js, the shop's service worker (app/sw.ts), and its source map: Serwist's route for
// Next's Turbopack build, which has no webpack plugin to emit a worker. `next build` prerenders
// both files (esbuild bundles app/sw.ts with Serwist, on this machine, nothing fetched); after
// that they are static files, so serwist and @serwist/turbopack are dev dependencies: the
// production server (pruned of them) serves what the build wrote. The precache list is the
// offline page alone: the budget of a first visit has no room for every chunk, which the worker
// keeps as they are used instead.

/**
 * This build's id for the worker's caches and the offline page's revision: a digest of the names
 * of the files the browser loads (.next/static/chunks and media, named by their content). A build
 * that changes what the browser gets has a new id, so a deploy replaces the worker and its caches;
 * one that changes nothing there keeps them. Read from the files, not Next's BUILD_ID: that is
 * written after this route's list of files is asked for, in the same worker.
 */
function clientBuildId(): string {
  const staticDir = path.join(process.cwd(), ".next", "static");
  const names = ["chunks", "media"]
    .filter((folder) => existsSync(path.join(staticDir, folder)))
    .flatMap((folder) =>
      readdirSync(path.join(staticDir, folder), { recursive: true, encoding: "utf8" }).map(
        (name) => `${folder}/${name}`,
      ),
    )
    .sort();
  if (names.length === 0) return "development";
  return createHash("sha256").update(names.join("\n")).digest("hex").slice(0, 16);
}

const build = clientBuildId();

export const { dynamic, dynamicParams, revalidate, generateStaticParams, GET } = createSerwistRoute({
  swSrc: "app/sw.ts",
  // The esbuild the repository already has, not the WebAssembly one.
  useNativeEsbuild: true,
  globPatterns: [],
  additionalPrecacheEntries: [{ url: OFFLINE_PAGE_PATH, revision: build }],
  // A classic script, not a module: every browser that has service workers runs it.
  esbuildOptions: { format: "iife", define: { SHOP_BUILD: JSON.stringify(build) } },
});
