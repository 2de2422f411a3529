/**
 * `npm run sandbox [-- <command>]`: the local sandbox of the service on its own, and a
 * remote control for a running one (the sandbox of `npm run dev` included).
 *
 *   serve                               (default) start the sandbox with the credentials of .env.local / .env
 *   trigger <action> <id|latest>        approve, pending, confirm, cancel, expire or redeliver an order
 *   print-secret                        print PAY_WEBHOOK_SECRET, to verify notifications elsewhere
 *   forward-to <url>                    send the running sandbox's notifications to <url>
 *
 * `--token <token>` (anywhere) sets SANDBOX_TOKEN: the token `serve` starts with, and the one the
 * other commands send to the running sandbox's control API. Each command is one entry of `commands`.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { checkControlToken } from "./control-access";
import { controlClient, type ControlAddress } from "./control-client";
import type { Delivery } from "./delivery-log";
import { startSandbox, type SandboxCredentials } from "./server";
import type { Order } from "./store";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

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
  SANDBOX_DATA_FILE: z.preprocess(unsetIfEmpty, z.string().default(".sandbox/state.json")),
  SANDBOX_WEBHOOK_URL: z.preprocess(unsetIfEmpty, httpUrl.optional()),
  APP_URL: z.preprocess(unsetIfEmpty, httpUrl.default("http://localhost:3000")),
  SANDBOX_TOKEN: z.preprocess(unsetIfEmpty, controlToken.optional()),
});

export interface ServeConfig {
  credentials: SandboxCredentials;
  port: number;
  /** Absolute; a relative SANDBOX_DATA_FILE is taken from the repository root. */
  dataFile: string;
  /** SANDBOX_WEBHOOK_URL, or the app's webhook route under APP_URL. */
  webhookUrl: string;
  /** SANDBOX_TOKEN (or --token); undefined: a random one, printed at start. */
  token?: string;
}

/** The serve command's settings from `env`, or a ConfigError naming every bad variable. */
export function readServeConfig(env: Record<string, string | undefined>, root = repoRoot): ServeConfig {
  const parsed = serveEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(
      `The sandbox cannot start; set these in .env.local (see .env.example):\n${problems.join("\n")}`,
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
    port: config.SANDBOX_PORT,
    dataFile: resolve(root, config.SANDBOX_DATA_FILE),
    webhookUrl: config.SANDBOX_WEBHOOK_URL ?? `${config.APP_URL.replace(/\/+$/, "")}/api/pay/webhook`,
    token: config.SANDBOX_TOKEN,
  };
}

async function serve(): Promise<void> {
  loadEnvFiles(repoRoot);
  const config = readServeConfig(process.env);
  const sandbox = await startSandbox({ ...config, log: (line) => console.log(`[sandbox] ${line}`) }).catch(
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new ConfigError(`Port ${config.port} is in use; stop what uses it or set SANDBOX_PORT.`);
      }
      throw error;
    },
  );
  console.log(
    `[sandbox] state in ${config.dataFile}; control API at ${sandbox.url}/__sandbox/ with header x-sandbox-token (Ctrl-C stops)`,
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
      "SANDBOX_TOKEN is not set: the sandbox prints it at start (`npm run dev` keeps it in .env.local); " +
        "set it or pass --token <token>.",
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
        `No sandbox answers at ${sandbox.url}. Start one with \`npm run dev\` or \`npm run sandbox\`, or set SANDBOX_URL.`,
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
  loadEnvFiles(repoRoot);
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
      ? `dropped: ${delivery.reason}${delivery.url === null ? " (see `npm run sandbox -- forward-to <url>`)" : ""}`
      : `${delivery.state}${last ? `, ${last.status ? `HTTP ${last.status}` : last.error}` : ""} after ` +
        `${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? "" : "s"}`;
  return `notification ${delivery.id} ${delivery.paymentStatus} (${delivery.kind}) to ${delivery.url ?? "nowhere"}: ${outcome}`;
}

/** Like `stripe listen --print-secret`: the secret alone on stdout, for `$(npm run -s sandbox -- print-secret)`. */
async function printSecret(): Promise<void> {
  loadEnvFiles(repoRoot);
  console.log(readWebhookSecret(process.env));
}

export function readWebhookSecret(env: Record<string, string | undefined>): string {
  const secret = env.PAY_WEBHOOK_SECRET;
  if (!secret) {
    throw new ConfigError(
      "PAY_WEBHOOK_SECRET is not set in .env.local, .env or the environment; `npm run dev` writes local test values.",
    );
  }
  return secret;
}

async function forwardTo(url: string): Promise<void> {
  if (!httpUrl.safeParse(url).success)
    throw new CommandError(`forward-to needs an http(s) URL, got ${JSON.stringify(url)}.`);
  loadEnvFiles(repoRoot);
  const base = runningSandbox(process.env);
  const { settings } = await control(base, "POST", "/settings", { webhookUrl: url });
  console.log(
    `The sandbox at ${base.url} now sends notifications to ${settings.webhookUrl} (until it restarts or resets).`,
  );
}

/**
 * `--token <token>` or `--token=<token>` taken out of `argv` and set as SANDBOX_TOKEN (over the
 * .env files, which never overwrite a variable); undefined when the flag has no value.
 */
function takeTokenFlag(argv: string[]): string[] | undefined {
  const rest = [...argv];
  const index = rest.findIndex((arg) => arg === "--token" || arg.startsWith("--token="));
  if (index === -1) return rest;
  const [flag = ""] = rest.splice(index, 1);
  const value = flag === "--token" ? rest.splice(index, 1)[0] : flag.slice("--token=".length);
  if (!value) return undefined;
  process.env.SANDBOX_TOKEN = value;
  return rest;
}

async function main(argv: string[]): Promise<number> {
  const [name = "serve", ...args] = takeTokenFlag(argv) ?? ["--token needs a value"];
  const command = commands[name];
  if (!command || args.length !== command.args.length) {
    const list = Object.entries(commands).map(
      ([key, { args: names, summary }]) => `  ${[key, ...names].join(" ")}\n      ${summary}`,
    );
    console.error(
      `Usage: npm run sandbox [-- <command>] [--token <token>]\n\nCommands:\n${list.join("\n")}\n\n` +
        "--token (or SANDBOX_TOKEN): the control API's token; serve starts with it, the others send it.",
    );
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
