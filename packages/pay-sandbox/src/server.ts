import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DASHBOARD_PATH, DASHBOARD_SCRIPT_PATH } from "./browser/pages.js";
import { SandboxClock } from "./clock.js";
import { applicationUUIDOf, type SandboxContext, type SandboxCredentials } from "./context.js";
import { checkControlToken, controlRefusal, randomControlToken } from "./control-access.js";
import { dashboardUrlOf } from "./control-client.js";
import { FaultQueue } from "./faults.js";
import {
  errorReply,
  headerValue,
  MAX_BODY_BYTES,
  readBody,
  SandboxError,
  type Reply,
  type SandboxRequest,
} from "./http.js";
import { OrderDriver } from "./orders.js";
import { loadSnapshot, SnapshotWriter } from "./persistence.js";
import { RequestLog } from "./request-log.js";
import { createRouter, type RouteMatch } from "./router.js";
import { serviceApiRoutes } from "./routes/api.js";
import { browserRoutes, isBrowserPath } from "./routes/browser.js";
import { CONTROL_PREFIX, controlRoutes } from "./routes/control.js";
import { resolveSettings, type SandboxSettings } from "./settings.js";
import { SandboxStore } from "./store.js";
import { WebhookDispatcher } from "./webhooks.js";

/**
 * A local stand-in for the service: its API, plus a control API for tests (see README.md).
 * One plain node:http server; routes modules answer, this file owns the sockets: the request
 * log, injected faults and held requests all happen here, the same way for every route.
 */

export type { SandboxCredentials } from "./context.js";

export interface SandboxOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. The control API also wants a loopback Host and the token, wherever it listens. */
  host?: string;
  /** Test credentials only: a pk_live_ publishable key is refused. */
  credentials: SandboxCredentials;
  /**
   * The token of the control API and the dashboard (header `x-sandbox-token`), at least 16
   * characters of A-Z a-z 0-9 . _ ~ -. Default: 32 random bytes, base64url, new each start.
   */
  token?: string;
  /** Upper bound of the lifetime of issued tokens, in seconds. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** Where webhook notifications go, e.g. http://localhost:3000/api/pay/webhook. Default null: recorded as dropped. */
  webhookUrl?: string | null;
  /** x-pay-content-token as "hex" (default, lower-case) or "base64". */
  signatureEncoding?: SandboxSettings["signatureEncoding"];
  /** Precede the digest with `sha256=`. Default false. */
  signaturePrefix?: boolean;
  /** A reply later than this is a failed attempt. Default 5000. */
  webhookTimeoutMs?: number;
  /** Wait before the second attempt, doubling after. Default 1000. */
  webhookRetryBaseMs?: number;
  /** Attempts per delivery. Default 6. */
  webhookMaxAttempts?: number;
  /** JSON file the store is loaded from on start and saved to on every change. */
  dataFile?: string;
  /** Base clock in ms (default Date.now); the control API can move the sandbox's clock ahead of it. */
  now?: () => number;
  /**
   * Human log lines (default console.log). They never carry secrets, access tokens, headers or
   * bodies; only the start lines carry the control token (SANDBOX_TOKEN=… and the dashboard's address).
   */
  log?: (line: string) => void;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010, without a trailing slash. */
  url: string;
  port: number;
  /** The control API's token for this run (given or generated); printed at start as SANDBOX_TOKEN=…. */
  token: string;
  /** The dashboard's address with the token, for a person. */
  dashboardUrl: string;
  close(): Promise<void>;
}

/** How long close() lets requests in progress finish before it cuts their connections. */
const CLOSE_GRACE_MS = 1000;

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const log = options.log ?? console.log;
  if (options.credentials.publishableKey.startsWith("pk_live_")) {
    throw new Error(
      "The sandbox refuses pk_live_ publishable keys: it stands in for the service with test credentials only (use pk_test_…)",
    );
  }
  const token = options.token === undefined ? randomControlToken() : checkControlToken(options.token);
  const initialSettings = resolveSettings({
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    webhookUrl: options.webhookUrl,
    signatureEncoding: options.signatureEncoding,
    signaturePrefix: options.signaturePrefix,
    webhookTimeoutMs: options.webhookTimeoutMs,
    webhookRetryBaseMs: options.webhookRetryBaseMs,
    webhookMaxAttempts: options.webhookMaxAttempts,
  });
  const settings = { ...initialSettings };
  const applicationUUID = applicationUUIDOf(options.credentials.publishableKey);
  const clock = new SandboxClock(options.now ?? Date.now);
  const store = new SandboxStore(clock, options.dataFile ? loadSnapshot(options.dataFile) : undefined);
  const webhooks = new WebhookDispatcher({
    store,
    clock,
    settings,
    webhookSecret: options.credentials.webhookSecret,
    log,
  });
  const ctx: SandboxContext = {
    credentials: options.credentials,
    applicationUUID,
    settings,
    initialSettings,
    clock,
    store,
    requestLog: new RequestLog(),
    faults: new FaultQueue(),
    webhooks,
    orders: new OrderDriver(store, clock, webhooks, log),
    log,
  };

  const writer = options.dataFile
    ? new SnapshotWriter(
        options.dataFile,
        () => store.snapshot(),
        (error) =>
          log(
            `could not save the state to ${options.dataFile}: ${error instanceof Error ? error.message : String(error)}`,
          ),
      )
    : undefined;
  if (writer) store.subscribe(() => writer.schedule());

  const match = createRouter([serviceApiRoutes(ctx), controlRoutes(ctx), browserRoutes(ctx)]);
  /** Requests held open by a "timeout" fault, cut when the sandbox closes. */
  const held = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    serve(ctx, match, token, held, request, response).catch((error: unknown) => {
      // A client that hangs up mid-request is not the sandbox's failure; anything else is.
      if (!request.destroyed) log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      response.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 4010, host).catch((error: unknown) => {
    ctx.orders.close();
    ctx.webhooks.close();
    throw error;
  });
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const dashboardUrl = dashboardUrlOf({ url, token });
  log(`listening on ${url}`);
  // The one line that carries the control token: whoever started the sandbox needs it.
  log(`SANDBOX_TOKEN=${token}`);
  log(`dashboard at ${dashboardUrl}`);
  log(webhookTarget(settings.webhookUrl));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // First what could hold the server open: timers, deliveries in flight, long polls.
      ctx.orders.close();
      ctx.webhooks.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const response of held) response.destroy();
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
      await writer?.flush();
      log("stopped");
    })());

  return { url, port, token, dashboardUrl, close };
}

/** A log line naming where webhooks go; origin and path only, in case the query carries a token. */
export function webhookTarget(webhookUrl: string | null): string {
  if (webhookUrl === null) return "no webhook URL: notifications are recorded as dropped";
  const { origin, pathname } = new URL(webhookUrl);
  return `webhooks go to ${origin}${pathname}`;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function serve(
  ctx: SandboxContext,
  match: (method: string, path: string) => RouteMatch,
  token: string,
  held: Set<ServerResponse>,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(incoming.url ?? "/", "http://sandbox.invalid");
  const { text, tooLarge } = await readBody(incoming, MAX_BODY_BYTES);
  const request: SandboxRequest = {
    method: incoming.method ?? "GET",
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body: text,
    params: {},
  };
  const route = match(request.method, request.path);
  // A path no route knows is still a client's call to the service, unless a browser or the control API asked.
  const serviceApi =
    route.kind === "none" ? !isControlPath(request.path) && !isBrowserPath(request.path) : route.serviceApi;
  if (!serviceApi) {
    const refusal = isControlPath(request.path) ? controlRefusal(request, token, controlAccessPaths) : undefined;
    return send(response, refusal ?? (tooLarge ? payloadTooLarge() : await dispatch(ctx, route, request)));
  }

  const entry = ctx.requestLog.record({
    at: ctx.clock.iso(),
    method: request.method,
    path: request.path,
    query: Object.fromEntries(request.query),
    headers: Object.fromEntries(
      Object.keys(incoming.headers).map((name) => [name, headerValue(incoming.headers, name) ?? ""]),
    ),
    body: text,
  });
  const fault = ctx.faults.take(request.path);
  if (fault) entry.fault = fault.kind;
  if (fault?.kind === "timeout") {
    ctx.log(`${request.method} ${request.path} held open (injected timeout)`);
    held.add(response);
    response.once("close", () => held.delete(response));
    return;
  }
  if (fault?.kind === "reset") {
    ctx.log(`${request.method} ${request.path} connection reset (injected)`);
    incoming.socket.destroy();
    return;
  }

  const reply = fault?.reply ?? (tooLarge ? payloadTooLarge() : await dispatch(ctx, route, request));
  entry.status = reply.status;
  if (reply.errorCode) entry.error = reply.errorCode;
  ctx.log(
    `${request.method} ${request.path} ${reply.status}${reply.errorCode ? ` ${reply.errorCode}` : ""}${fault ? " (injected)" : ""}`,
  );
  send(response, reply);
}

async function dispatch(ctx: SandboxContext, route: RouteMatch, request: SandboxRequest): Promise<Reply> {
  if (route.kind === "none") return errorReply(404, "not_found", `no endpoint ${request.method} ${request.path}`);
  if (route.kind === "wrong_method") {
    const allowed = route.allowed.join(", ");
    return errorReply(405, "method_not_allowed", `${request.path} accepts ${allowed}`, { Allow: allowed });
  }
  try {
    return await route.route.handle({ ...request, params: route.params });
  } catch (error) {
    if (error instanceof SandboxError) return error.toReply();
    ctx.log(
      `internal error on ${request.method} ${request.path}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return errorReply(500, "internal_error", "the sandbox failed on this request; see its log");
  }
}

const payloadTooLarge = () => errorReply(413, "payload_too_large", `the body exceeds ${MAX_BODY_BYTES} bytes`);

const controlAccessPaths = { dashboardPage: DASHBOARD_PATH, publicAssets: [DASHBOARD_SCRIPT_PATH] };

const isControlPath = (path: string) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);

function send(response: ServerResponse, reply: Reply): void {
  const payload = reply.contentType === undefined ? JSON.stringify(reply.body) : reply.body;
  response.writeHead(reply.status, {
    "Content-Type": reply.contentType ?? "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    "Cache-Control": "no-store",
    // Browsers load the SDK and pages from here: none of them may be read as another type.
    "X-Content-Type-Options": "nosniff",
    ...reply.headers,
  });
  response.end(payload);
}
