import { inject } from "vitest";

// Route handlers and lib/ read configuration through lib/env.ts; point it at this run's
// database and sandbox before any test module imports them.
const credentials = inject("payCredentials");
const sandboxUrl = inject("sandboxUrl");
process.env.TEST_SERVER_DATABASE_URL ??= process.env.DATABASE_URL ?? "";
Object.assign(process.env, {
  DATABASE_URL: inject("databaseUrl"),
  DATABASE_POOL_MAX: "4",
  PAY_PUBLISHABLE_KEY: credentials.publishableKey,
  PAY_CLIENT_ID: credentials.clientId,
  PAY_CLIENT_SECRET: credentials.clientSecret,
  PAY_WEBHOOK_SECRET: credentials.webhookSecret,
  PAY_API_BASE_URL: sandboxUrl,
  PAY_SDK_URL: `${sandboxUrl}/sdks/v1/pay.js`,
  PAY_LANG: "pt",
  APP_URL: "http://localhost:3000",
});
