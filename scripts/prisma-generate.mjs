// The one place that works around Prisma's engine download (docs/database.md):
// `prisma generate` only needs PRISMA_SCHEMA_ENGINE_BINARY to point at an executable,
// so we point it at a stub unless the developer supplied a real engine.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const stub = fileURLToPath(new URL("./prisma-engine-stub.sh", import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || stub,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], {
  stdio: ["ignore", "inherit", "inherit"],
  env,
});
process.exit(result.status ?? 1);
