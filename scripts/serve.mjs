// The shop's production server (`npm start`; the e2e tests and the benchmarks start it too, via
// harness/next-production.ts): `next start`'s job done through Next's programmatic API, plus
// two things `next start` does not do. Next sets X-Forwarded-For to the TCP peer only when the
// request has none, so a route handler cannot tell a client's made-up header from the real
// peer, and a per-address rate limit could be dodged with a new header on every request. This
// server appends the peer to X-Forwarded-For on every request, as a proxy does, so its last
// entry is always the real peer (lib/http/client-address.ts reads it; TRUST_PROXY counts the
// proxies in front, from the right). And a `Vary` that next.config.mjs set on a page is kept when
// Next sets its own (scripts/lib/keep-vary.mjs): the cached pages vary by Save-Data. The build's
// own files go out in Brotli to a browser that takes it (scripts/lib/brotli-built-files.mjs).
//
// Plain JavaScript on plain `node`: a production server needs no TypeScript runner.
// Usage: node scripts/serve.mjs [--port <port>] [--hostname <host>]; PORT and HOSTNAME in the
// environment work too (the flags win). Default: port 3000 on every interface, like `next start`.
// SIGTERM or SIGINT: stops taking connections, lets requests in flight finish, exits 0.
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { brotliBuiltFiles } from "./lib/brotli-built-files.mjs";
import { appendForwardedFor, untrustedProxyWarning } from "./lib/forwarded-for.mjs";
import { sendHeadWithBody } from "./lib/head-with-body.mjs";
import { keepVary } from "./lib/keep-vary.mjs";
import { loggedPath } from "./lib/logged-path.mjs";

const SHUTDOWN_GRACE_MS = 10_000;
const root = fileURLToPath(new URL("..", import.meta.url));

function fail(message) {
  console.error(`[serve] ${message}`);
  process.exit(1);
}

let args;
try {
  ({ values: args } = parseArgs({
    options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  }));
} catch (error) {
  fail(`${error.message}\nUsage: node scripts/serve.mjs [--port <port>] [--hostname <host>]`);
}
const portText = args.port ?? process.env.PORT ?? "3000";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port < 1 || port > 65535) fail(`the port must be a number from 1 to 65535`);
// Unset: every interface, as `next start` does.
const hostname = args.hostname || process.env.HOSTNAME || undefined;

// What `next start` sets before loading Next (next/dist/bin/next): the production build's
// React and Next, and the Node.js runtime for instrumentation.ts. Set before `next` is imported.
process.env.NODE_ENV ||= "production";
process.env.NEXT_RUNTIME = "nodejs";
const { default: next } = await import("next");

// Next's own name for itself, whatever address the server listens on: the URL proxy.ts sees
// says "localhost" for 127.0.0.1 and [::1] (Next normalizes them), and Next treats a rewrite whose
// origin differs from this name as one to another server, so with "127.0.0.1" here every
// rewrite of proxy.ts (each page's language) would fail.
const app = next({ dev: false, dir: root, hostname: "localhost", port });
const handle = app.getRequestHandler();
try {
  await app.prepare();
} catch (error) {
  console.error(error);
  fail("Next could not start (is there a production build? run `npm run build`)");
}

const brotliBuiltFile = brotliBuiltFiles();

// Said once per process: a proxy in front that TRUST_PROXY does not count (lib/forwarded-for.mjs).
let warnedAboutProxy = false;
const server = createServer((request, response) => {
  if (!warnedAboutProxy) {
    const warning = untrustedProxyWarning(request.headers["x-forwarded-for"], process.env.TRUST_PROXY);
    if (warning) {
      warnedAboutProxy = true;
      console.warn(`[serve] ${warning}`);
    }
  }
  request.headers["x-forwarded-for"] = appendForwardedFor(
    request.headers["x-forwarded-for"],
    request.socket.remoteAddress,
  );
  // The cached pages' `Vary: Save-Data` (next.config.mjs) survives Next's own Vary.
  keepVary(response);
  // The head leaves with the body's first bytes, in one write (scripts/lib/head-with-body.mjs).
  sendHeadWithBody(response);
  brotliBuiltFile(request, response);
  handle(request, response).catch((error) => {
    // Never the address as sent: its order id opens the order's page (scripts/lib/logged-path.mjs).
    console.error(`[serve] failed to handle ${request.method} ${loggedPath(request.url)}`, error);
    if (!response.headersSent) response.statusCode = 500;
    response.end();
  });
});
server.on("error", (error) => fail(`cannot serve on ${hostname ?? "every interface"}:${port}: ${error.message}`));
server.listen(port, hostname, () => {
  const shown = !hostname || hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  console.log(`[serve] ready on http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`[serve] ${signal}: finishing requests in flight, then stopping`);
  // A request that never ends must not keep the process alive forever.
  setTimeout(() => {
    console.error(`[serve] requests still open after ${SHUTDOWN_GRACE_MS} ms; closing them`);
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS).unref();
  const closed = new Promise((resolve) => server.close(resolve));
  // Idle keep-alive connections would otherwise hold close() open until they time out.
  server.closeIdleConnections();
  await closed;
  // Next's own clean-up (after() tasks already running, caches), as `next start` does.
  await app.close().catch((error) => console.error("[serve] while closing Next:", error));
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
