import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { randomControlToken } from "pay-sandbox";
import { payEnvFor, randomCredentials } from "pay-sandbox";

/**
 * The environment `npm run dev` starts with: the process's own variables over .env.local
 * over .env (Next.js's order). On a fresh clone it writes random local test credentials
 * to .env.local, which the app and the local sandbox share and git ignores, the local
 * sandbox's control token (SANDBOX_TOKEN, which `npm run sandbox -- trigger` reads there too)
 * and where `npm run sandbox` on its own sends notifications (SANDBOX_WEBHOOK_URL),
 * and the back office's session secret and password (printed once, when written). Variables already set
 * anywhere are kept; only missing ones are appended. An unset APP_URL becomes the address `next dev`
 * will listen on (its --port, else PORT, else 3000), so the return links and the sandbox's
 * notifications reach the shop on whatever port it runs.
 */
export const LOCAL_SANDBOX_URL = "http://127.0.0.1:4010";

const definedOnly = (source: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined));

const readEnvFile = (path: string): Record<string, string> =>
  existsSync(path) ? definedOnly(parseEnv(readFileSync(path, "utf8"))) : {};

export function isLocalSandbox(apiBaseUrl: string): boolean {
  const { hostname } = new URL(apiBaseUrl);
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}

/** The port `next dev` listens on given its arguments and environment: --port/-p, then PORT, then 3000. */
export function nextDevPort(nextArgs: readonly string[], env: Record<string, string | undefined>): string {
  for (const [index, arg] of nextArgs.entries()) {
    const inline = /^(?:--port=|-p=?)(\d+)$/.exec(arg);
    if (inline) return inline[1]!;
    if ((arg === "--port" || arg === "-p") && /^\d+$/.test(nextArgs[index + 1] ?? "")) return nextArgs[index + 1]!;
  }
  return env.PORT && /^\d+$/.test(env.PORT) ? env.PORT : "3000";
}

export function prepareLocalEnv(options: {
  root: string;
  processEnv: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** The arguments `next dev` gets, for its port. */
  nextArgs?: readonly string[];
}): Record<string, string> {
  const localFile = `${options.root}/.env.local`;
  const merged: Record<string, string> = {
    ...readEnvFile(`${options.root}/.env`),
    ...readEnvFile(localFile),
    ...definedOnly(options.processEnv),
  };
  merged.APP_URL ||= `http://localhost:${nextDevPort(options.nextArgs ?? [], merged)}`;
  const apiBaseUrl = merged.PAY_API_BASE_URL || LOCAL_SANDBOX_URL;
  const payDefaults: Record<string, string> = payEnvFor(randomCredentials(), apiBaseUrl.replace(/\/+$/, ""));
  const missingPay = Object.keys(payDefaults).filter((key) => !merged[key]);
  if (missingPay.length > 0 && !isLocalSandbox(apiBaseUrl)) {
    throw new Error(`PAY_API_BASE_URL points at a remote service, so these must be set too: ${missingPay.join(", ")}`);
  }
  // The back office (/admin): a session secret, and a password only where there is none yet.
  const adminDefaults: Record<string, string> = {
    ADMIN_PASSWORD: randomBytes(12).toString("base64url"),
    ADMIN_SESSION_SECRET: randomBytes(32).toString("base64url"),
  };
  // The local sandbox's control API and dashboard want this token, and `npm run sandbox` on its
  // own (pay-sandbox) sends this shop's notifications to its webhook route; a remote service has neither.
  const sandboxDefaults: Record<string, string> = isLocalSandbox(apiBaseUrl)
    ? {
        SANDBOX_TOKEN: randomControlToken(),
        SANDBOX_WEBHOOK_URL: `${merged.APP_URL.replace(/\/+$/, "")}/api/pay/webhook`,
      }
    : {};
  const defaults = { ...payDefaults, ...sandboxDefaults, ...adminDefaults };
  const missing = [
    ...missingPay,
    ...Object.keys({ ...sandboxDefaults, ...adminDefaults }).filter((key) => !merged[key]),
  ];
  if (missing.length === 0) return merged;
  const lines = missing.map((key) => `${key}=${defaults[key]}`);
  const header = existsSync(localFile)
    ? ""
    : "# Written by `npm run dev`: local test credentials shared by the app and the local sandbox. Never commit.\n";
  writeFileSync(localFile, `${header}${existsSync(localFile) ? "\n" : ""}${lines.join("\n")}\n`, { flag: "a" });
  options.log(`wrote local test credentials to .env.local (${missing.join(", ")})`);
  if (missing.includes("ADMIN_PASSWORD"))
    options.log(
      `the back office is at /admin; sign in as ${merged.ADMIN_EMAIL || "owner@shop.example"} (ADMIN_EMAIL) with the password (ADMIN_PASSWORD in .env.local): ${defaults.ADMIN_PASSWORD}`,
    );
  return { ...merged, ...Object.fromEntries(missing.map((key) => [key, defaults[key]!])) };
}
