// Builds dist/: one ES module per entry point (esbuild; the modules they share go into chunks, so
// a class like ControlError is one class whichever entry it is imported from) and the type
// declarations (tsc). Dependencies stay imports: zod is installed with the package.
// `node build.mjs --js` skips the declarations, for a quick rebuild before tests and `npm run dev`.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL(".", import.meta.url));
const jsOnly = process.argv.includes("--js");

rmSync(`${root}/dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ["src/index.ts", "src/cli.ts", "src/control-client.ts", "src/testing.ts", "src/playwright.ts"],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunks-[hash]",
  logLevel: "warning",
});
if (!jsOnly) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
