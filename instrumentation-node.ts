import { EnvError, getEnv } from "./lib/env";

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
