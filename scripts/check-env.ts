// Preflight for `npm start`: refuse to start with a bad configuration, naming the variable.
// Loads .env files the way `next start` will, so both see the same configuration.
import nextEnv from "@next/env";
import { EnvError, getEnv } from "../lib/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
try {
  const env = getEnv();
  console.log(`[env] ok: ${env.pay.mode} mode, service at ${env.pay.apiBaseUrl}`);
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
}
