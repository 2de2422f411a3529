import { randomBytes, randomUUID } from "node:crypto";
import type { SandboxCredentials } from "./context.js";

/** Fresh random test credentials, shaped like the service's (contract 2.1). */
export function randomCredentials(): SandboxCredentials {
  return {
    publishableKey: `pk_test_${randomUUID()}`,
    clientId: `client_${randomBytes(6).toString("hex")}`,
    clientSecret: randomBytes(24).toString("base64url"),
    webhookSecret: randomBytes(32).toString("hex"),
  };
}

/** The PAY_ variables that point the app at a sandbox at `url` holding `credentials`. */
export function payEnvFor(credentials: SandboxCredentials, url: string): Record<string, string> {
  return {
    PAY_PUBLISHABLE_KEY: credentials.publishableKey,
    PAY_CLIENT_ID: credentials.clientId,
    PAY_CLIENT_SECRET: credentials.clientSecret,
    PAY_WEBHOOK_SECRET: credentials.webhookSecret,
    PAY_API_BASE_URL: url,
    PAY_SDK_URL: `${url}/sdks/v1/pay.js`,
  };
}
