import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What harness/e2e-server.ts tells the tests about the shop it started. Playwright starts
 * the server in its own process and the tests run in workers, so the server writes this file
 * once everything is up; it lives under test-results/, which Playwright empties before it
 * starts the server, so a stale copy from an earlier run is never read.
 */
export interface E2eServerEnvironment {
  /** The local sandbox of the service (its control API is under /__sandbox/); null with E2E_PAY_SERVICE=real. */
  sandboxUrl: string | null;
  /** Its control token, sent as x-sandbox-token; null with E2E_PAY_SERVICE=real. */
  sandboxToken: string | null;
  /**
   * The shop's PAY_CLIENT_SECRET and PAY_WEBHOOK_SECRET, random for the run (the client-bundle
   * test looks for them); null with E2E_PAY_SERVICE=real, whose secrets are real.
   */
  paySecrets: { clientSecret: string; webhookSecret: string } | null;
  /** PAY_SDK_URL of the shop under test. */
  sdkUrl: string;
  /** The shop's address, the same as Playwright's baseURL. */
  appUrl: string;
  /** The run's scratch database, for tests that check what the shop recorded (test data only). */
  databaseUrl: string;
  /** The shop's ADMIN_EMAIL: the owner's e-mail at /admin's sign-in. */
  adminEmail: string;
  /** The shop's ADMIN_PASSWORD, random for the run: the owner's password at /admin's sign-in. */
  adminPassword: string;
  /** Its ADMIN_SESSION_SECRET, random for the run too: the client-bundle test looks for it. */
  adminSessionSecret: string;
  /** Its BETTER_AUTH_SECRET (shoppers' sessions), random for the run: the client-bundle test looks for it too. */
  shopperSessionSecret: string;
}

/** The shop's SHOP_WHATSAPP in the browser tests (harness/e2e-shop.ts), so its WhatsApp links show. */
export const E2E_SHOP_WHATSAPP = "+244 923 000 999";

/** The seller a receipt names in the browser tests (harness/e2e-shop.ts): SHOP_LEGAL_NAME, SHOP_NIF, SHOP_ADDRESS. */
export const E2E_SHOP_SELLER = {
  SHOP_LEGAL_NAME: "Kwanza Comércio, Lda",
  SHOP_NIF: "5000 0285 50",
  SHOP_ADDRESS: "Rua Rainha Ginga 12, Ingombota\nLuanda, Angola",
} as const;

const root = fileURLToPath(new URL("..", import.meta.url));
export const E2E_ENVIRONMENT_FILE = path.join(root, "test-results", "e2e-server.json");

export function readE2eServerEnvironment(): E2eServerEnvironment {
  return JSON.parse(readFileSync(E2E_ENVIRONMENT_FILE, "utf8")) as E2eServerEnvironment;
}
