import { EnvError, getEnv } from "./lib/env";
import { consoleLogger, errorKind } from "./lib/log";

// A bad configuration stops start-up here with a message naming the variable, instead of
// surfacing later as a failed payment. (Next only logs an error thrown at start-up and goes on
// serving, so we exit ourselves.) Node.js only: instrumentation.ts loads it for that runtime.
export function checkConfiguration(): void {
  try {
    getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// The back office's first owner, from ADMIN_EMAIL and ADMIN_PASSWORD (lib/admin/owner.ts), made in
// the background: the server starts and serves without waiting for the database, and a failure
// is a log line (the first sign-in tries again), never a failed start.
export function ensureOwnerInBackground(): void {
  import("./lib/admin/owner")
    .then(({ ensureOwnerAtStart }) => ensureOwnerAtStart())
    .catch((error: unknown) => consoleLogger("warn", "admin.owner_unavailable", { error: errorKind(error) }));
}
