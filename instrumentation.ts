// Runs once when the server starts: the configuration's check, then the back office's first
// owner in the background. Both live in their own module, loaded only on Node.js, so the Edge
// build never sees process.exit (Next warns about it otherwise) nor the database.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const node = await import("./instrumentation-node");
  node.checkConfiguration();
  node.ensureOwnerInBackground();
}
