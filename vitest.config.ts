import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    // tsconfig.json's paths: "@/…", and the sandbox package's entry points read from its source
    // (as tsc, tsx and Playwright read them), so tests never run a stale build of it.
    tsconfigPaths: true,
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // `server-only` throws outside React Server Components; tests are server code.
      { find: /^server-only$/, replacement: `${root}/tests/setup/empty.ts` },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    // Two projects, so what needs no database never gets one. `npm test` runs them one after the
    // other (vitest run --project …): run together, they compete for this machine's two cores
    // with the integration project's builds, which measured slower than in turn.
    projects: [
      // Pure functions, components, configuration rules and docs checks: no database (not even
      // PGlite), no sandbox, no shop; they pass with DATABASE_URL pointing at a closed port.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"] } },
      // Route handlers and lib/ against a real database and the sandbox over HTTP: the isolated
      // shop of tests/setup/global.ts (migrated, seeded scratch database, random credentials).
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/deploy/**/*.test.ts"],
          globalSetup: ["tests/setup/global.ts"],
          setupFiles: ["tests/setup/env.ts"],
        },
      },
    ],
  },
});
