// @ts-check
/**
 * `npm run docs:screenshots`: copies the back office's screenshots that the browser tests took
 * (test-results/, at phone and desktop widths) to docs/screenshots/, where docs/back-office.md shows them,
 * and the printed refund note that docs/payments.md shows. Run it after `npm test` (or
 * `npx playwright test e2e/admin e2e/refund-note.spec.ts`) when a page's look changed.
 */
import { copyFile, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const from = path.join(root, "test-results");
const to = path.join(root, "docs", "screenshots");

/** The pages docs/back-office.md shows, by the name e2e/support/screenshots.ts gives their files. */
export const DOCUMENTED = [
  "admin-sign-in",
  "admin-home-attention",
  "admin-dashboard",
  "admin-orders",
  "admin-order",
  "admin-webhook",
  "admin-products",
  "admin-product",
];

/** Pages docs show as one picture, by the file name the browser test gives it. */
export const DOCUMENTED_ONCE = ["refund-note.png"];

const wanted = new Set([
  ...DOCUMENTED.flatMap((name) => [`${name}-phone.png`, `${name}-desktop.png`]),
  ...DOCUMENTED_ONCE,
]);
const entries = await readdir(from, { recursive: true, withFileTypes: true }).catch(() => []);
const found = entries.filter((entry) => entry.isFile() && wanted.has(entry.name));
await mkdir(to, { recursive: true });
for (const entry of found) await copyFile(path.join(entry.parentPath, entry.name), path.join(to, entry.name));
const missing = [...wanted].filter((name) => !found.some((entry) => entry.name === name));
console.log(`copied ${found.length} screenshots to docs/screenshots/`);
if (missing.length) {
  console.error(`missing (run the browser tests first): ${missing.join(", ")}`);
  process.exitCode = 1;
}
