import { prepareIsolatedShop, prepareServiceShop, type IsolatedShop, type ServiceShop } from "./isolated-shop";
import { manageProcessLifetime, runUntilStopped, type ProcessLifetime } from "./process-lifetime";
import { E2E_SHOP_SELLER, E2E_SHOP_WHATSAPP } from "./server-environment";

/**
 * What Playwright's two web servers (playwright.config.ts) share: harness/e2e-server.ts serves
 * the production build, harness/e2e-dev-server.ts `next dev`, each for an isolated shop of its
 * own (harness/isolated-shop.ts: fresh database, migrations, seed, random credentials, a
 * local sandbox on a free port; or the real service with E2E_PAY_SERVICE=real, its PAY_
 * variables from the environment). SIGTERM or SIGINT (Playwright stops its web servers that way)
 * stops the server and the sandbox and drops the database.
 */

export interface E2eServerContext {
  shop: IsolatedShop | ServiceShop;
  port: number;
  appUrl: string;
  lifetime: ProcessLifetime;
  log: (line: string) => void;
}

/** A server `serve` started; stopped first when the run ends, and its exit ends the run. */
export interface E2eServedApp {
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function runE2eServer(options: {
  /** Log prefix and process name, e.g. "e2e-server". */
  name: string;
  /** The variable playwright.config.ts passes the port in. */
  portVariable: string;
  /** Part of the scratch database's name. */
  label: string;
  /** The shop's APP_URL on `port`. */
  appUrlFor(port: number): string;
  /** Starts the app for the prepared shop; undefined when the run began stopping meanwhile. */
  serve(context: E2eServerContext): Promise<E2eServedApp | undefined>;
  /** After the app is up. */
  onServing?(context: E2eServerContext): void;
}): void {
  const log = (line: string) => console.log(`[${options.name}] ${line}`);
  // Playwright stops its web servers with SIGTERM once the tests are done: a normal end.
  const lifetime = manageProcessLifetime({ name: options.name, exitCodeOnSignal: 0 });

  runUntilStopped(lifetime, options.name, async () => {
    const port = Number(process.env[options.portVariable]);
    if (!Number.isInteger(port) || port < 1)
      throw new Error(`${options.portVariable} must be set to the port to serve on (playwright.config.ts sets it)`);
    const appUrl = options.appUrlFor(port);

    const shopOptions = { label: options.label, appUrl, serverDatabaseUrl: process.env.DATABASE_URL, log };
    const shop =
      process.env.E2E_PAY_SERVICE === "real"
        ? await prepareServiceShop({ ...shopOptions, payEnv: realServiceEnv() })
        : await prepareIsolatedShop(shopOptions);
    lifetime.onStop(() => shop.close());
    if (lifetime.stopping) return;
    // The shop's WhatsApp links show only with a number; the tests of the links read it from the harness.
    shop.appEnv.SHOP_WHATSAPP = E2E_SHOP_WHATSAPP;
    // And a receipt names a seller with its legal name, NIF and address.
    Object.assign(shop.appEnv, E2E_SHOP_SELLER);

    const context: E2eServerContext = { shop, port, appUrl, lifetime, log };
    const app = await options.serve(context);
    if (!app) return;
    lifetime.onStop(() => app.stop());
    // The app dying on its own (a port in use, a crash) ends the run instead of leaving Playwright waiting.
    void app.exited.then((code) => lifetime.stop(code ?? 1));

    options.onServing?.(context);
    log(`serving ${appUrl} (${shop.sandboxUrl ? `sandbox ${shop.sandboxUrl}` : "the real service"})`);
  });
}

/** The PAY_ variables of the real service, from the environment; each one is required. */
function realServiceEnv(): Record<string, string> {
  const names = [
    "PAY_PUBLISHABLE_KEY",
    "PAY_CLIENT_ID",
    "PAY_CLIENT_SECRET",
    "PAY_WEBHOOK_SECRET",
    "PAY_API_BASE_URL",
    "PAY_SDK_URL",
  ] as const;
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`E2E_PAY_SERVICE=real needs ${missing.join(", ")} in the environment`);
  return Object.fromEntries(names.map((name) => [name, process.env[name]!]));
}
