/**
 * `npm run sandbox [command]`: the local sandbox of the service on its own.
 *
 *   serve   (default) start the sandbox with the credentials of .env.local / .env
 *
 * Each command is one entry of `commands`; more (trigger, print-secret, forward-to) join it
 * as the sandbox grows.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { startSandbox, type SandboxCredentials } from "./server";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

const commands: Record<string, { summary: string; run: () => Promise<void> }> = {
  serve: { summary: "start the sandbox (default)", run: serve },
};

/** A configuration problem, worded for the person running the command; never carries values. */
export class ConfigError extends Error {
  override name = "ConfigError";
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
});

export interface ServeConfig {
  credentials: SandboxCredentials;
  port: number;
  /** Absolute; a relative SANDBOX_DATA_FILE is taken from the repository root. */
  dataFile: string;
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

async function main(argv: string[]): Promise<number> {
  const [name = "serve", ...rest] = argv;
  const command = commands[name];
  if (!command || rest.length > 0) {
    const list = Object.entries(commands).map(([key, { summary }]) => `  ${key.padEnd(8)} ${summary}`);
    console.error(`Usage: npm run sandbox [-- <command>]\n\nCommands:\n${list.join("\n")}`);
    return 2;
  }
  try {
    await command.run();
    return 0;
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    return 1;
  }
}

const runDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) process.exitCode = await main(process.argv.slice(2));
