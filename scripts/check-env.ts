// Preflight for `npm start`: refuse to start with a bad configuration, naming the variable.
import { EnvError, getEnv } from "../lib/env";

try {
  const env = getEnv();
  console.log(`[env] ok: ${env.pay.mode} mode, service at ${env.pay.apiBaseUrl}`);
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
}
