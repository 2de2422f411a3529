import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

export interface RouteFile {
  /** Relative to the repository, e.g. app/api/pay/webhook/route.ts. */
  file: string;
  source: string;
  /** The `export const maxDuration = N` the file declares, if any. */
  maxDuration?: number;
}

/** Every route handler and page under `dir`/app (this repository's by default), with its source and its declared maxDuration. */
export async function routeFiles(dir = root): Promise<RouteFile[]> {
  const entries = await readdir(path.join(dir, "app"), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && /^(route\.ts|page\.tsx)$/.test(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const source = await readFile(path.join(dir, file), "utf8");
      const declared = /^export const maxDuration = (\d+);/m.exec(source);
      return { file, source, ...(declared ? { maxDuration: Number(declared[1]) } : {}) };
    }),
  );
}

/**
 * The address a route or page file answers at, e.g. app/api/admin/orders/[externalTransactionId]/refresh/route.ts
 * → /api/admin/orders/order_…/refresh or app/[lang]/admin/orders/page.tsx → /admin/orders, each dynamic segment filled with a well-formed value (an
 * order id for `[externalTransactionId]`, a UUID for any other) so a request gets past the
 * parameters' own checks; `params` holds the same values, as Next hands them to a handler.
 */
export function sampleAddressOf(file: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = file
    .replace(/^app/, "")
    // Pages live under app/[lang]/, but their addresses carry no language (next.config.mjs rewrites add it).
    .replace(/^\/\[lang\](?=\/|$)/, "")
    // Route groups, (list) and the like, are folders only.
    .replace(/\/\([^)]+\)(?=\/|$)/g, "")
    .replace(/\/(route\.ts|page\.tsx)$/, "")
    .replace(/\[([^\]]+)\]/g, (_, name: string) => {
      params[name] = name === "externalTransactionId" ? `order_${randomUUID()}` : randomUUID();
      return params[name]!;
    });
  return { path, params };
}
