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
export { startSandbox, type RunningSandbox, type SandboxCredentials, type SandboxOptions } from "./server";
export { payEnvFor, randomCredentials } from "./credentials";
export { CONTROL_TOKEN_HEADER, randomControlToken } from "./control-access";
export type { SandboxSettings } from "./settings";
export type { Order, PaymentMethod, PaymentStatus } from "./store";
export type { Delivery, DeliveryFilter } from "./delivery-log";
export type { LoggedRequest } from "./request-log";
