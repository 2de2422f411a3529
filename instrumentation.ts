// Runs once when the server starts: a bad configuration stops start-up here with a message
// naming the variable, instead of surfacing later as a failed payment. (Next only logs an
// error thrown here and goes on serving, so we exit ourselves.)
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { EnvError, getEnv } = await import("./lib/env");
  try {
    getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
