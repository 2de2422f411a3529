import type { TestProject } from "vitest/node";
import type { SandboxCredentials } from "pay-sandbox";
import { prepareIsolatedShop } from "../../harness/isolated-shop";

/**
 * Once per `npm test`: the same isolated shop the e2e server and the benchmarks start from (a
 * migrated and seeded scratch database, random credentials, a local sandbox on a free port),
 * handed to every test file through `inject()`.
 */
export default async function setup(project: TestProject) {
  // With DATABASE_URL unset the scratch database is embedded PGlite, as in the README.
  const serverDatabaseUrl = process.env.DATABASE_URL || undefined;
  // A shop that offers no delivery method, so the many checkouts of the suite's files need not
  // name one; checkout with delivery and pickup is tested on databases of their own
  // (checkout-delivery-promo.test.ts), and in the browser on the e2e shop, which has the demo's.
  const shop = await prepareIsolatedShop({
    label: "suite",
    appUrl: "http://localhost:3000",
    serverDatabaseUrl,
    deliveryMethods: false,
  });

  project.provide("appEnv", shop.appEnv);
  project.provide("serverDatabaseUrl", serverDatabaseUrl ?? "");
  project.provide("sandboxUrl", shop.sandboxUrl);
  project.provide("sandboxToken", shop.sandboxToken);
  project.provide("payCredentials", shop.credentials);

  return () => shop.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    /** DATABASE_URL, PAY_… and APP_URL for the app under test. */
    appEnv: Record<string, string>;
    /** Where per-file scratch databases are created; "" for embedded PGlite. */
    serverDatabaseUrl: string;
    sandboxUrl: string;
    /** The shared sandbox's control token (x-sandbox-token); harness/support/sandbox.ts sends it. */
    sandboxToken: string;
    payCredentials: SandboxCredentials;
  }
}
