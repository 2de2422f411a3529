import { inject, vi } from "vitest";
import { emulatedAfter } from "../../harness/support/next-after";

// Route handlers and lib/ read configuration through lib/env.ts; point it at this run's
// database and sandbox before any test module imports them. DATABASE_URL becomes the suite's
// database, so the server for per-file scratch databases is kept apart (harness/support/database.ts).
process.env.TEST_SERVER_DATABASE_URL = inject("serverDatabaseUrl");
Object.assign(process.env, inject("appEnv"));

// Route handlers are called without Next's request scope; see harness/support/next-after.ts.
vi.mock("next/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/server")>()),
  after: emulatedAfter,
}));
