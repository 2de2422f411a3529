/**
 * `npm run sandbox [-- <command>]`: the local sandbox of the service on its own, and a
 * remote control for a running one (the sandbox of `npm run dev` included).
 *
 *   serve                               (default) start the sandbox with the credentials of .env.local / .env
 *   trigger <action> <id|latest>        approve, pending, confirm, cancel, expire or redeliver an order
 *   print-secret                        print PAY_WEBHOOK_SECRET, to verify notifications elsewhere
 *   forward-to <url>                    send the running sandbox's notifications to <url>
 *
 * Each command is one entry of `commands`.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
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

const serveEnvSchema = z.object({
  PAY_PUBLISHABLE_KEY: required.pipe(
    z.string().regex(/^pk_(?:test|live)_.+$/, { error: "must be pk_test_ or pk_live_ followed by the application id" }),
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
});

export interface ServeConfig {
  credentials: SandboxCredentials;
  port: number;
  /** Absolute; a relative SANDBOX_DATA_FILE is taken from the repository root. */
  dataFile: string;
  /** SANDBOX_WEBHOOK_URL, or the app's webhook route under APP_URL. */
  webhookUrl: string;
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
  console.log(`[sandbox] state in ${config.dataFile}; control API at ${sandbox.url}/__sandbox/ (Ctrl-C stops)`);
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

/**
 * A call to the running sandbox's control API; a CommandError when none answers or it refuses.
 * `any`: each command reads the fields it needs from the answer.
 */
async function control(base: string, method: string, path: string, body?: unknown): Promise<any> {
  let response: Response;
  try {
    response = await fetch(`${base}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new CommandError(
      `No sandbox answers at ${base}. Start one with \`npm run dev\` or \`npm run sandbox\`, or set SANDBOX_URL.`,
    );
  }
  const text = await response.text();
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new CommandError(`What answers at ${base} is not the sandbox (HTTP ${response.status}, not JSON).`);
  }
  // 408 is the wait endpoint's "not yet": its body still holds the deliveries.
  if (!response.ok && response.status !== 408) {
    throw new CommandError(`The sandbox refused: ${answer.message ?? `HTTP ${response.status}`} (${answer.error})`);
  }
  return answer;
}

const ORDER_ACTIONS = ["approve", "pending", "confirm", "cancel", "expire", "redeliver"] as const;
/** How long trigger waits for the notification to settle before it prints where it stands. */
const TRIGGER_WAIT_MS = 10_000;

async function trigger(action: string, target: string): Promise<void> {
  if (!(ORDER_ACTIONS as readonly string[]).includes(action)) {
    throw new CommandError(`Unknown action ${JSON.stringify(action)}; use one of ${ORDER_ACTIONS.join(", ")}.`);
  }
  loadEnvFiles(repoRoot);
  const base = sandboxUrl(process.env);
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

async function latestOrderId(base: string): Promise<string> {
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
  const base = sandboxUrl(process.env);
  const { settings } = await control(base, "POST", "/settings", { webhookUrl: url });
  console.log(
    `The sandbox at ${base} now sends notifications to ${settings.webhookUrl} (until it restarts or resets).`,
  );
}

async function main(argv: string[]): Promise<number> {
  const [name = "serve", ...args] = argv;
  const command = commands[name];
  if (!command || args.length !== command.args.length) {
    const list = Object.entries(commands).map(
      ([key, { args: names, summary }]) => `  ${[key, ...names].join(" ")}\n      ${summary}`,
    );
    console.error(`Usage: npm run sandbox [-- <command>]\n\nCommands:\n${list.join("\n")}`);
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
