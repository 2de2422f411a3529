// Runs once when the server starts: a bad configuration stops start-up here with a message
// naming the variable, instead of surfacing later as a failed payment.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { getEnv } = await import("./lib/env");
    getEnv();
  }
}
