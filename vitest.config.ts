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
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx", "sandbox/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default"] : ["default"],
  },
});
