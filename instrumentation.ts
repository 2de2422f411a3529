// Runs once when the server starts. The check lives in its own module, loaded only on Node.js,
// so the Edge build never sees process.exit (Next warns about it otherwise).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") (await import("./instrumentation-node")).checkConfiguration();
}
