import { defineConfig } from "vitest/config";

// The sandbox's own tests: no database, no shop, nothing outside this folder.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
