// `npm run prune:production`: node_modules down to what runs the shop, for a server or an image
// (docs/self-hosting.md). It is `npm prune --omit=dev --omit=optional`, which also drops the build
// tools that dependencies list as optional (Next's compiler; the Prisma CLI and TypeScript), but
// keeps sharp's binary for this platform (@img/sharp-<os>-<arch> and its libvips): sharp lists it
// as optional too, and the back office re-encodes every uploaded image with it
// (lib/catalog/images/validate.ts). Those packages are set aside during the prune and put back; only
// them, since the prune restores whatever else it finds missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from "node:fs";

const IMG = "node_modules/@img";
const ASIDE = ".sharp-binaries";

const binaries = existsSync(IMG) ? readdirSync(IMG).filter((name) => name.startsWith("sharp-")) : [];
if (binaries.length === 0) {
  console.error(`[prune] sharp's binary for this platform is not in ${IMG}: run npm install first`);
  process.exit(1);
}
mkdirSync(ASIDE);
for (const name of binaries) renameSync(`${IMG}/${name}`, `${ASIDE}/${name}`);
const prune = spawnSync("npm", ["prune", "--omit=dev", "--omit=optional", "--no-audit", "--no-fund"], {
  stdio: "inherit",
});
// Put back whatever the prune did.
mkdirSync(IMG, { recursive: true });
for (const name of binaries) renameSync(`${ASIDE}/${name}`, `${IMG}/${name}`);
rmdirSync(ASIDE);
if (prune.status === 0) console.log(`[prune] kept sharp's ${binaries.join(", ")}`);
process.exit(prune.status ?? 1);
