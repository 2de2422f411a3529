import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
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
    // Three projects, so what needs no database never gets one: `--project unit` and
    // `--project sandbox` run with no PostgreSQL at all (not even PGlite) and no shop.
    projects: [
      // Pure functions, configuration rules, docs checks.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"] } },
      // The local sandbox of the service: its own servers, no database.
      { extends: true, test: { name: "sandbox", include: ["sandbox/**/*.test.ts"] } },
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
