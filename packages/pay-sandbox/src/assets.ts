import { readFileSync } from "node:fs";

/**
 * A browser file (the SDK, the popup's and the dashboard's scripts, the stylesheet) from the
 * package's assets/ folder. This module sits one level below the package's root both as source
 * (src/) and built (dist/), so the same relative address finds the folder from either.
 */
export const readAsset = (name: string): string => readFileSync(new URL(`../assets/${name}`, import.meta.url), "utf8");
