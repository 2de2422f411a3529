import type { TestProject } from "vitest/node";
import { applyMigrations } from "../../lib/db/migrate";
import { startSandbox } from "../../sandbox/server";
import { createTestDatabase } from "../support/database";
import { testCredentials, type PayCredentials } from "../support/credentials";

/**
 * Once per `npm test`: a migrated database and a running local sandbox of the service,
 * both on fresh ports, handed to every test file through `inject()`.
 */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase("suite");
  await applyMigrations({ connectionString: database.url });

  const credentials = testCredentials();
  const sandbox = await startSandbox({ port: 0, credentials, log: () => {} });

  project.provide("databaseUrl", database.url);
  project.provide("sandboxUrl", sandbox.url);
  project.provide("payCredentials", credentials);

  return async () => {
    await sandbox.close();
    await database.drop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    sandboxUrl: string;
    payCredentials: PayCredentials;
  }
}
