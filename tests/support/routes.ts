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
