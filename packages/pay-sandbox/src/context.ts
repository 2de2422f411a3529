import type { SandboxClock } from "./clock.js";
import type { FaultQueue } from "./faults.js";
import type { OrderDriver } from "./orders.js";
import type { RequestLog } from "./request-log.js";
import type { SandboxSettings } from "./settings.js";
import type { SandboxStore } from "./store.js";
import type { WebhookDispatcher } from "./webhooks.js";

/** What every routes module works with: one per running sandbox, built by startSandbox. */

export interface SandboxCredentials {
  publishableKey: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

export type { SandboxSettings } from "./settings.js";

export interface SandboxContext {
  credentials: SandboxCredentials;
  /** The publishable key without its pk_test_/pk_live_ prefix (contract 2.1). */
  applicationUUID: string;
  /** Current settings; mutable. */
  settings: SandboxSettings;
  /** The settings the sandbox started with, restored by a reset. */
  initialSettings: Readonly<SandboxSettings>;
  clock: SandboxClock;
  store: SandboxStore;
  requestLog: RequestLog;
  faults: FaultQueue;
  /** Webhook notifications and their delivery log. */
  webhooks: WebhookDispatcher;
  /** Approve, pending, confirm, cancel, expire; magic amounts and reference expiry. */
  orders: OrderDriver;
  /** Human log lines: never secrets, tokens, Authorization headers or bodies. */
  log: (line: string) => void;
}

export function applicationUUIDOf(publishableKey: string): string {
  const applicationUUID = /^pk_(?:test|live)_(.+)$/.exec(publishableKey)?.[1];
  if (!applicationUUID)
    throw new Error("The sandbox's publishable key must be pk_test_ or pk_live_ followed by the application id");
  return applicationUUID;
}
