/**
 * pay-sandbox: a local stand-in for the pay service (its API, browser SDK, hosted checkout,
 * signed webhooks), with a control API and a dashboard for tests and people. See README.md.
 *
 *   import { startSandbox, randomCredentials } from "pay-sandbox";
 *   const sandbox = await startSandbox({ port: 0, credentials: randomCredentials(), webhookUrl });
 *
 * Other entry points: "pay-sandbox/client" (the typed control client), "pay-sandbox/testing"
 * (a sandbox per test and a webhook receiver), "pay-sandbox/playwright" (the hosted checkout in
 * a browser test), "pay-sandbox/sdk" (the SDK's types).
 */
export { startSandbox, type RunningSandbox, type SandboxCredentials, type SandboxOptions } from "./server.js";
export { payEnvFor, randomCredentials } from "./credentials.js";
export { CONTROL_TOKEN_HEADER, randomControlToken } from "./control-access.js";
export type { SandboxSettings } from "./settings.js";
export type { Order, PaymentMethod, PaymentStatus } from "./store.js";
export type { Delivery, DeliveryFilter } from "./delivery-log.js";
export type { LoggedRequest } from "./request-log.js";
