#!/usr/bin/env node
/**
 * `pay-sandbox [<command>] [options]`: the local sandbox of the service, and a remote control
 * for a running one.
 *
 *   serve                               (default) start the sandbox; prints the variables a shop needs
 *   trigger <action> <id|latest>        approve, pending, confirm, cancel, expire or redeliver an order
 *   print-secret                        print PAY_WEBHOOK_SECRET, to verify notifications elsewhere
 *   forward-to <url>                    send the running sandbox's notifications to <url>
 *
 * Settings come from flags, then the environment, then .env.local and .env in the current folder
 * (the order Next.js uses). Each command is one entry of `commands`; each flag one entry of `FLAGS`.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { checkControlToken } from "./control-access.js";
import { controlClient, type ControlAddress } from "./control-client.js";
import { payEnvFor, randomCredentials } from "./credentials.js";
import type { Delivery } from "./delivery-log.js";
import { startSandbox, type SandboxCredentials } from "./server.js";
import type { Order } from "./store.js";

interface Command {
  /** The arguments, for the usage text. */
  args: string[];
  summary: string;
  run: (...args: string[]) => Promise<void>;
}

const commands: Record<string, Command> = {
  serve: { args: [], summary: "start the sandbox (default)", run: serve },
  trigger: {
    args: ["<approve|pending|confirm|cancel|expire|redeliver>", "<externalTransactionId|latest>"],
    summary: "drive an order of the running sandbox; prints the order and its notification",
    run: trigger,
  },
  "print-secret": {
    args: [],
    summary: "print PAY_WEBHOOK_SECRET (the key that signs notifications)",
    run: printSecret,
  },
  "forward-to": { args: ["<url>"], summary: "send the running sandbox's notifications to <url>", run: forwardTo },
};

/** A configuration problem, worded for the person running the command; never carries values. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A command that could not do its work (no sandbox running, a refused call), worded for the person. */
export class CommandError extends Error {
  override name = "CommandError";
}

/**
 * Loads .env.local, then .env, from `directory`. process.loadEnvFile never overwrites a
 * variable that is already set, so the shell's variables win over .env.local, and .env.local
 * over .env (the order Next.js uses).
 */
export function loadEnvFiles(directory: string): void {
  for (const name of [".env.local", ".env"]) {
    const file = resolve(directory, name);
    if (existsSync(file)) process.loadEnvFile(file);
  }
}

// An empty value (as in a copy of .env.example) counts as not set.
const unsetIfEmpty = (value: unknown) => (value === "" ? undefined : value);
const required = z.preprocess(unsetIfEmpty, z.string({ error: "is missing" }));
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const controlToken = z.string().refine(
  (token) => {
    try {
      return checkControlToken(token) === token;
    } catch {
      return false;
    }
  },
  { error: "must be at least 16 characters of A-Z, a-z, 0-9, '.', '_', '~' or '-'" },
);

/** The four credentials: all from the environment, or (none set) fresh ones generated at start. */
const CREDENTIAL_VARIABLES = [
  "PAY_PUBLISHABLE_KEY",
  "PAY_CLIENT_ID",
  "PAY_CLIENT_SECRET",
  "PAY_WEBHOOK_SECRET",
] as const;

const serveEnvSchema = z.object({
  PAY_PUBLISHABLE_KEY: required.pipe(
    z.string().regex(/^pk_test_.+$/, {
      error: "must be pk_test_ followed by the application id (the sandbox refuses pk_live_ keys)",
    }),
  ),
  PAY_CLIENT_ID: required,
  PAY_CLIENT_SECRET: required,
  PAY_WEBHOOK_SECRET: required,
  SANDBOX_PORT: z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: "must be a port number" })
      .int({ error: "must be a port number" })
      .min(0)
      .max(65535)
      .default(4010),
  ),
  SANDBOX_HOST: z.preprocess(unsetIfEmpty, z.string().default("127.0.0.1")),
  SANDBOX_DATA_FILE: z.preprocess(unsetIfEmpty, z.string().optional()),
  SANDBOX_WEBHOOK_URL: z.preprocess(unsetIfEmpty, httpUrl.optional()),
  SANDBOX_TOKEN: z.preprocess(unsetIfEmpty, controlToken.optional()),
});

export interface ServeConfig {
  credentials: SandboxCredentials;
  /** Whether the credentials were generated for this run (none was set), so they must be printed. */
  generated: boolean;
  port: number;
  host: string;
  /** Absolute, a relative SANDBOX_DATA_FILE taken from the current folder; undefined: state in memory only. */
  dataFile?: string;
  /** SANDBOX_WEBHOOK_URL (or --webhook-url); undefined: notifications are recorded as dropped until one is set. */
  webhookUrl?: string;
  /** SANDBOX_TOKEN (or --token); undefined: a random one, printed at start. */
  token?: string;
}

/** The serve command's settings from `env`, or a ConfigError naming every bad variable (never a value). */
export function readServeConfig(env: Record<string, string | undefined>, cwd = process.cwd()): ServeConfig {
  const generated = CREDENTIAL_VARIABLES.every((name) => !env[name]);
  const fresh = randomCredentials();
  const withCredentials = generated
    ? {
        ...env,
        PAY_PUBLISHABLE_KEY: fresh.publishableKey,
        PAY_CLIENT_ID: fresh.clientId,
        PAY_CLIENT_SECRET: fresh.clientSecret,
        PAY_WEBHOOK_SECRET: fresh.webhookSecret,
      }
    : env;
  const parsed = serveEnvSchema.safeParse(withCredentials);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(
      "The sandbox cannot start; set these (flags, the environment, .env.local or .env), " +
        `or none of the PAY_ credentials to get fresh ones:\n${problems.join("\n")}`,
    );
  }
  const config = parsed.data;
  return {
    credentials: {
      publishableKey: config.PAY_PUBLISHABLE_KEY,
      clientId: config.PAY_CLIENT_ID,
      clientSecret: config.PAY_CLIENT_SECRET,
      webhookSecret: config.PAY_WEBHOOK_SECRET,
    },
    generated,
    port: config.SANDBOX_PORT,
    host: config.SANDBOX_HOST,
    dataFile: config.SANDBOX_DATA_FILE === undefined ? undefined : resolve(cwd, config.SANDBOX_DATA_FILE),
    webhookUrl: config.SANDBOX_WEBHOOK_URL,
    token: config.SANDBOX_TOKEN,
  };
}

/**
 * The lines a shop pastes into its environment: the credentials (when generated for this run),
 * where the API and the SDK are, and the control token.
 */
export function variablesFor(config: ServeConfig, sandbox: { url: string; token: string }): string[] {
  const pay = payEnvFor(config.credentials, sandbox.url);
  const shown = config.generated
    ? Object.entries(pay)
    : Object.entries(pay).filter(([name]) => !(CREDENTIAL_VARIABLES as readonly string[]).includes(name));
  return [...shown.map(([name, value]) => `${name}=${value}`), `SANDBOX_TOKEN=${sandbox.token}`];
}

async function serve(): Promise<void> {
  loadEnvFiles(process.cwd());
  const config = readServeConfig(process.env);
  const sandbox = await startSandbox({
    ...config,
    // The token's line is printed below with the other variables.
    log: (line) => {
      if (!line.startsWith("SANDBOX_TOKEN=")) console.log(`[sandbox] ${line}`);
    },
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new ConfigError(`Port ${config.port} is in use; stop what uses it or pass --port.`);
    }
    throw error;
  });
  console.log(
    `# ${config.generated ? "Fresh test credentials for this run" : "The credentials are the ones you set"}; ` +
      "a shop's environment for this sandbox:",
  );
  for (const line of variablesFor(config, sandbox)) console.log(line);
  console.log(
    `[sandbox] ${config.dataFile ? `state in ${config.dataFile}` : "state in memory"}; ` +
      `control API at ${sandbox.url}/__sandbox/ with header x-sandbox-token (Ctrl-C stops)`,
  );
  await new Promise<void>((stop) => {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await sandbox.close();
}

// Commands for a running sandbox ----------------------------------------------------------------

/** The running sandbox: SANDBOX_URL, or 127.0.0.1 on SANDBOX_PORT (default 4010). */
export function sandboxUrl(env: Record<string, string | undefined>): string {
  if (env.SANDBOX_URL) return env.SANDBOX_URL.replace(/\/+$/, "");
  return `http://127.0.0.1:${env.SANDBOX_PORT || "4010"}`;
}

/** The running sandbox and its control token (SANDBOX_TOKEN or --token), or a CommandError saying where to find it. */
export function runningSandbox(env: Record<string, string | undefined>): ControlAddress {
  const token = env.SANDBOX_TOKEN;
  if (!token) {
    throw new CommandError(
      "SANDBOX_TOKEN is not set: the sandbox prints it at start; set it (in the environment or .env.local) " +
        "or pass --token <token>.",
    );
  }
  return { url: sandboxUrl(env), token };
}

/**
 * A call to the running sandbox's control API; a CommandError when none answers or it refuses.
 * `any`: each command reads the fields it needs from the answer.
 */
async function control(sandbox: ControlAddress, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await controlClient(sandbox)
    .request(method, path, body)
    .catch(() => {
      throw new CommandError(
        `No sandbox answers at ${sandbox.url}. Start one (pay-sandbox serve), or set SANDBOX_URL.`,
      );
    });
  if (answer.body === undefined) {
    throw new CommandError(`What answers at ${sandbox.url} is not the sandbox (HTTP ${answer.status}, not JSON).`);
  }
  // 408 is the wait endpoint's "not yet": its body still holds the deliveries.
  if (answer.status >= 300 && answer.status !== 408) {
    const { message, error } = answer.body as { message?: string; error?: string };
    throw new CommandError(`The sandbox refused: ${message ?? `HTTP ${answer.status}`} (${error})`);
  }
  return answer.body;
}

const ORDER_ACTIONS = ["approve", "pending", "confirm", "cancel", "expire", "redeliver"] as const;
/** How long trigger waits for the notification to settle before it prints where it stands. */
const TRIGGER_WAIT_MS = 10_000;

async function trigger(action: string, target: string): Promise<void> {
  if (!(ORDER_ACTIONS as readonly string[]).includes(action)) {
    throw new CommandError(`Unknown action ${JSON.stringify(action)}; use one of ${ORDER_ACTIONS.join(", ")}.`);
  }
  loadEnvFiles(process.cwd());
  const base = runningSandbox(process.env);
  const id = target === "latest" ? await latestOrderId(base) : target;
  const answer = await control(base, "POST", `/orders/${encodeURIComponent(id)}/${action}`, {});
  console.log(describeOrder(answer.order as Order));
  for (const created of answer.deliveries as Delivery[]) {
    const settled = await control(
      base,
      "GET",
      `/deliveries/wait?id=${encodeURIComponent(created.id)}&state=settled&timeoutMs=${TRIGGER_WAIT_MS}`,
    );
    console.log(describeDelivery((settled.deliveries as Delivery[])[0] ?? created));
  }
}

async function latestOrderId(base: ControlAddress): Promise<string> {
  const orders = (await control(base, "GET", "/orders")).orders as Order[];
  // The list is in creation order; createdAt breaks no tie the list does not already settle.
  const latest = orders.reduce<Order | undefined>(
    (newest, order) => (newest && newest.createdAt > order.createdAt ? newest : order),
    undefined,
  );
  if (!latest) throw new CommandError("The sandbox has no orders yet; place one in the shop first.");
  return latest.externalTransactionId;
}

function describeOrder(order: Order): string {
  const lines = [
    `order ${order.externalTransactionId}: ${order.status}${order.paymentMethod ? ` by ${order.paymentMethod}` : ""}` +
      `${order.cancelReason ? ` (${order.cancelReason})` : ""}, ${order.amount} AOA, referenceNumber ${order.referenceNumber}`,
  ];
  if (order.paymentReference) {
    lines.push(
      `  payment reference ${order.paymentReference}, entity ${order.entityNumber}, expires ${order.referenceExpiresAt}`,
    );
  }
  return lines.join("\n");
}

function describeDelivery(delivery: Delivery): string {
  const last = delivery.attempts.at(-1);
  const outcome =
    delivery.state === "dropped"
      ? `dropped: ${delivery.reason}${delivery.url === null ? " (see `pay-sandbox forward-to <url>`)" : ""}`
      : `${delivery.state}${last ? `, ${last.status ? `HTTP ${last.status}` : last.error}` : ""} after ` +
        `${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? "" : "s"}`;
  return `notification ${delivery.id} ${delivery.paymentStatus} (${delivery.kind}) to ${delivery.url ?? "nowhere"}: ${outcome}`;
}

/** The secret alone on stdout, for `$(pay-sandbox print-secret)`. */
async function printSecret(): Promise<void> {
  loadEnvFiles(process.cwd());
  console.log(readWebhookSecret(process.env));
}

export function readWebhookSecret(env: Record<string, string | undefined>): string {
  const secret = env.PAY_WEBHOOK_SECRET;
  if (!secret) {
    throw new ConfigError(
      "PAY_WEBHOOK_SECRET is not set in .env.local, .env or the environment; pay-sandbox serve prints the one it uses.",
    );
  }
  return secret;
}

async function forwardTo(url: string): Promise<void> {
  if (!httpUrl.safeParse(url).success)
    throw new CommandError(`forward-to needs an http(s) URL, got ${JSON.stringify(url)}.`);
  loadEnvFiles(process.cwd());
  const base = runningSandbox(process.env);
  const { settings } = await control(base, "POST", "/settings", { webhookUrl: url });
  console.log(
    `The sandbox at ${base.url} now sends notifications to ${settings.webhookUrl} (until it restarts or resets).`,
  );
}

/** Each flag sets a variable, over the environment and the .env files (which never overwrite one). */
const FLAGS: Record<string, { variable: string; value: string; summary: string }> = {
  "--port": {
    variable: "SANDBOX_PORT",
    value: "<port>",
    summary: "port to listen on (default 4010; 0 picks a free one)",
  },
  "--host": { variable: "SANDBOX_HOST", value: "<address>", summary: "address to listen on (default 127.0.0.1)" },
  "--webhook-url": {
    variable: "SANDBOX_WEBHOOK_URL",
    value: "<url>",
    summary: "where the signed notifications go (default: none, recorded as dropped)",
  },
  "--data-file": {
    variable: "SANDBOX_DATA_FILE",
    value: "<file>",
    summary: "keep orders and tokens in this JSON file across restarts (default: in memory)",
  },
  "--token": {
    variable: "SANDBOX_TOKEN",
    value: "<token>",
    summary: "the control API's token: serve starts with it (default: random, printed), the others send it",
  },
};

/** `argv` without its flags, each flag's value set in `env`; or the problem, for the usage text. */
export function takeFlags(argv: string[], env: Record<string, string | undefined>): string[] | string {
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (!arg.startsWith("--")) {
      rest.push(arg);
      continue;
    }
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    const flag = FLAGS[name!];
    if (!flag) return `unknown option ${name}`;
    const value = inline ?? argv[++index];
    if (value === undefined || value === "") return `${name} needs a value`;
    env[flag.variable] = value;
  }
  return rest;
}

function usage(): string {
  const list = Object.entries(commands).map(
    ([key, { args: names, summary }]) => `  ${[key, ...names].join(" ")}\n      ${summary}`,
  );
  const flags = Object.entries(FLAGS).map(
    ([name, { value, variable, summary }]) => `  ${name} ${value}  (${variable})\n      ${summary}`,
  );
  return [
    "Usage: pay-sandbox [<command>] [options]",
    "",
    "A local stand-in for the pay service: its API, browser SDK, hosted checkout and signed",
    "notifications, with a control API and a dashboard for tests.",
    "",
    "Commands:",
    ...list,
    "",
    "Options (each also read from its variable, from the environment, .env.local or .env):",
    ...flags,
    "  --help",
    "",
    "Credentials: PAY_PUBLISHABLE_KEY (pk_test_…), PAY_CLIENT_ID, PAY_CLIENT_SECRET and PAY_WEBHOOK_SECRET",
    "from the environment; when none is set, serve generates fresh ones and prints them as",
    "VARIABLE=value lines, with PAY_API_BASE_URL, PAY_SDK_URL and SANDBOX_TOKEN.",
    "The other commands find the running sandbox at SANDBOX_URL, or 127.0.0.1 on SANDBOX_PORT.",
  ].join("\n");
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage());
    return 0;
  }
  const parsed = takeFlags(argv, env);
  const [name = "serve", ...args] = typeof parsed === "string" ? [] : parsed;
  const command = commands[name];
  if (typeof parsed === "string" || !command || args.length !== command.args.length) {
    console.error(`${typeof parsed === "string" ? `${parsed}\n\n` : ""}${usage()}`);
    return 2;
  }
  try {
    await command.run(...args);
    return 0;
  } catch (error) {
    console.error(error instanceof ConfigError || error instanceof CommandError ? error.message : error);
    return 1;
  }
}

const runDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) process.exitCode = await main(process.argv.slice(2));
