import { randomBytes } from "node:crypto";
import { applyMigrations } from "../scripts/db/migrate.mjs";
import { seedCatalog } from "../scripts/db/seed.mjs";
import { startSandbox, type SandboxCredentials } from "pay-sandbox";
import { payEnvFor, randomCredentials } from "pay-sandbox";
import { createScratchDatabase } from "./scratch-database";

/**
 * Everything the shop needs to run, created for one run and thrown away after it: a fresh
 * migrated and seeded database, random test credentials and a local sandbox of the service on
 * a free port. The e2e server (harness/e2e-server.ts) and the benchmarks (bench/run.ts) both
 * start from here, so a browser test and a benchmark see the same shop, and neither touches
 * the developer's .env.local, .data/ or .sandbox/.
 */
export interface IsolatedShop {
  databaseUrl: string;
  /** Where the data lives, for log lines (never a password). */
  databaseDescription: string;
  sandboxUrl: string;
  /** The sandbox's control token (x-sandbox-token), random for the run. */
  sandboxToken: string;
  credentials: SandboxCredentials;
  /** The variables `next build` and `next start` need on top of the process's own. */
  appEnv: Record<string, string>;
  /** Stops the sandbox and drops the database. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The same shop pointed at a real service instead of a local sandbox: its PAY_ variables
 * (credentials, API and SDK addresses) come from the caller. The e2e server uses it when
 * E2E_PAY_SERVICE=real; the service's webhooks then go to the URL registered for the account.
 */
export interface ServiceShop extends Omit<IsolatedShop, "sandboxUrl" | "sandboxToken" | "credentials"> {
  sandboxUrl: null;
  sandboxToken: null;
}

export interface IsolatedShopOptions {
  /** Part of the scratch database's name, e.g. "e2e". */
  label: string;
  /** The shop's public address (APP_URL). */
  appUrl: string;
  /** A PostgreSQL server to create the scratch database on; embedded PGlite when unset. */
  serverDatabaseUrl?: string;
  /** Connections in the app's pool. */
  databasePoolMax?: number;
  /**
   * Whether the demo's pickup points and delivery zones are seeded (default: yes). Without them
   * the shop offers no delivery method, so a checkout names none (lib/checkout/create-order.ts).
   */
  deliveryMethods?: boolean;
  log?: (line: string) => void;
}

export async function prepareIsolatedShop(options: IsolatedShopOptions): Promise<IsolatedShop> {
  return withCleanUp(options, async (database, undo) => {
    const log = options.log ?? (() => {});
    const credentials = randomCredentials();
    const sandbox = await startSandbox({
      port: 0,
      credentials,
      webhookUrl: `${options.appUrl.replace(/\/+$/, "")}/api/pay/webhook`,
      log: (line) => log(`[sandbox] ${line}`),
    });
    undo.push(() => sandbox.close());
    return {
      sandboxUrl: sandbox.url,
      sandboxToken: sandbox.token,
      credentials,
      appEnv: appEnvOf(options, database.url, payEnvFor(credentials, sandbox.url)),
    };
  });
}

/** A scratch database like prepareIsolatedShop's, with the app pointed at a real service (`payEnv`: its PAY_ variables). */
export async function prepareServiceShop(
  options: IsolatedShopOptions & { payEnv: Record<string, string> },
): Promise<ServiceShop> {
  return withCleanUp(options, async (database) => ({
    sandboxUrl: null,
    sandboxToken: null,
    appEnv: appEnvOf(options, database.url, options.payEnv),
  }));
}

function appEnvOf(options: IsolatedShopOptions, databaseUrl: string, payEnv: Record<string, string>) {
  return {
    DATABASE_URL: databaseUrl,
    // PGlite runs every connection on one single-threaded session; a small pool is plenty.
    DATABASE_POOL_MAX: String(options.databasePoolMax ?? (options.serverDatabaseUrl ? 10 : 4)),
    PAY_LANG: "pt",
    ...payEnv,
    APP_URL: options.appUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    // Production defaults limit each client address and shopper; a test suite or a benchmark
    // places many orders from one address in a minute. Off here: the tests and benchmarks that
    // are about these limits turn them on themselves.
    RATE_LIMIT_CREATE_ORDER_PER_MINUTE: "0",
    RATE_LIMIT_STATUS_REFRESH_PER_MINUTE: "0",
    RATE_LIMIT_ADMIN_SIGN_IN_PER_MINUTE: "0",
    RATE_LIMIT_ADMIN_SIGN_IN_SHOP_PER_MINUTE: "0",
    RATE_LIMIT_PROMO_CHECK_PER_MINUTE: "0",
    MAX_OPEN_ORDERS_PER_SHOPPER: "0",
    MAX_OPEN_ORDERS_PER_ADDRESS: "0",
    MAX_REFERENCE_HOLDS: "0",
    // WhatsApp and SMS texts (sign-in codes) into the messages table, where the tests read them: a
    // production server (next start) sends none unless a provider is set (lib/messages/).
    MESSAGES_PROVIDER: "outbox",
    // The back office is on, with a password and a session secret of this run's own: the tests
    // sign in as the owner these make (lib/admin/owner.ts), with appEnv.ADMIN_EMAIL and
    // ADMIN_PASSWORD (e2e: test-results/e2e-server.json's adminEmail and adminPassword).
    ADMIN_EMAIL: "owner@shop.example",
    ADMIN_PASSWORD: `admin-test-${randomBytes(12).toString("base64url")}`,
    ADMIN_SESSION_SECRET: randomBytes(32).toString("base64url"),
    // Shoppers' accounts are on, with a key of this run's own; the limits on sign-in codes are
    // off like the others.
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
    SIGN_IN_CODES_PER_PHONE_PER_HOUR: "0",
    SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: "0",
    RATE_LIMIT_SIGN_IN_PER_MINUTE: "0",
  };
}

/** Creates, migrates and seeds the scratch database, then `prepare`; undoes every step if one fails, and on close(). */
async function withCleanUp<T extends object>(
  options: IsolatedShopOptions,
  prepare: (database: { url: string }, undo: (() => Promise<void>)[]) => Promise<T>,
): Promise<T & { databaseUrl: string; databaseDescription: string; close(): Promise<void> }> {
  const log = options.log ?? (() => {});
  // Undone in reverse order, also when a later step fails half-way.
  const undo: (() => Promise<void>)[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const step of [...undo].reverse())
        await step().catch((error: unknown) => log(`while cleaning up: ${describe(error)}`));
    })());

  try {
    const database = await createScratchDatabase({ label: options.label, serverUrl: options.serverDatabaseUrl });
    undo.push(() => database.drop());
    log(`database: ${database.description}`);
    await applyMigrations({ connectionString: database.url });
    const seeded = await seedCatalog(database.url, { deliveryMethods: options.deliveryMethods ?? true });
    log(`catalogue seeded (${seeded.products} products)`);

    return {
      ...(await prepare(database, undo)),
      databaseUrl: database.url,
      databaseDescription: database.description,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
