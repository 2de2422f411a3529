import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { controlClient } from "./control-client.js";
import { randomCredentials } from "./credentials.js";
import { startSandbox, type SandboxOptions } from "./server.js";
import type { SandboxSettings } from "./settings.js";

/**
 * Helpers for tests (this package's own, and a shop's): a sandbox on a free port with a
 * plain-fetch client of the service's API and the typed control client, and a real HTTP
 * receiver of webhooks that checks their signatures.
 */

type Headers = Record<string, string | undefined>;

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;

export interface TestSandboxOptions extends Partial<SandboxOptions> {
  /** Initial settings (webhookUrl, signatureEncoding, webhookRetryBaseMs...); a reset restores them. */
  settings?: Partial<SandboxSettings>;
}

export async function startTestSandbox(options: TestSandboxOptions = {}) {
  const { settings, ...rest } = options;
  const credentials = options.credentials ?? randomCredentials();
  const logLines: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    log: (line) => logLines.push(line),
    ...settings,
    ...rest,
    credentials,
  });
  const { url, token } = sandbox;
  const controlApi = controlClient({ url, token });
  const applicationUUID = credentials.publishableKey.replace(/^pk_test_/, "");
  const basic = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`;

  /** A plain fetch; a header set to undefined is left out, so tests can drop one of the defaults. */
  async function call(method: string, path: string, init: { headers?: Headers; body?: string } = {}) {
    const headers = Object.entries(init.headers ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const response = await fetch(`${url}${path}`, { method, headers, body: init.body });
    const text = await response.text();
    const isJson = response.headers.get("content-type")?.startsWith("application/json") ?? false;
    // `any`: each test asserts the shape it expects. Pages and scripts come back as text.
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : isJson ? (JSON.parse(text) as any) : text,
    };
  }

  /** POST /token; `form` and `headers` replace the correct defaults. */
  const requestToken = (
    form: Record<string, string> = { grant_type: "client_credentials", validity_period: "3600" },
    headers: Headers = {},
  ) =>
    call("POST", "/token", {
      headers: { Authorization: basic, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    });

  async function accessToken(): Promise<string> {
    const answer = await requestToken();
    if (answer.status !== 200) throw new Error(`token: HTTP ${answer.status}`);
    return answer.body.access_token as string;
  }

  /** A valid createPaymentOrder body; pass fields to change or `undefined` to remove one. */
  function orderBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      externalTransactionId: `order_${randomUUID()}`,
      clientId: "shopper_1",
      applicationUUID,
      name: "Café 1 kg",
      image: "http://localhost:3000/cafe.svg",
      amount: 6500,
      quantity: 1,
      additionalInfo: "1 artigo",
      ...changes,
    };
  }

  const partnerHeaders = (token: string) => ({ Authorization: `Bearer ${token}`, "Accept-Language": "pt" });

  /** POST /paypartner/createPaymentOrder with correct headers unless `headers` overrides them. */
  const createOrder = (token: string, body: unknown, headers: Headers = {}) =>
    call("POST", "/paypartner/createPaymentOrder", {
      headers: { ...partnerHeaders(token), "Content-Type": "application/json; charset=utf-8", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  const paymentStatus = (token: string, query: Record<string, string>, headers: Headers = {}) =>
    call("GET", `/paypartner/paymentByExternalTransaction?${new URLSearchParams(query)}`, {
      headers: { ...partnerHeaders(token), ...headers },
    });

  /** A call to the control API with the run's token, `path` relative to /__sandbox; `call` sends anything else. */
  const control = (method: string, path: string, body?: unknown) => controlApi.request(method, path, body);

  return {
    url,
    port: sandbox.port,
    /** The control API's token (x-sandbox-token). */
    token,
    dashboardUrl: sandbox.dashboardUrl,
    credentials,
    applicationUUID,
    logLines,
    close: () => sandbox.close(),
    call,
    requestToken,
    accessToken,
    orderBody,
    createOrder,
    paymentStatus,
    control,
    /** The typed control client (controlClient) of this sandbox. */
    client: controlApi,
    requests: controlApi.requests,
    deliveries: controlApi.deliveries,
    waitForDeliveries: controlApi.waitForDeliveries,
  };
}

// A webhook receiver ------------------------------------------------------------------------

export interface ReceivedWebhook {
  /** The raw body, exactly as it arrived. */
  body: string;
  headers: IncomingHttpHeaders;
  /** Whether x-pay-content-token is the HMAC-SHA256 of the raw body with the receiver's secret. */
  signatureValid: boolean;
  /** The parsed body (`any`: each test asserts the shape it expects). */
  json: any;
  /** performance.now() when the request arrived, and when the receiver answered it. */
  arrivedAt: number;
  answeredAt?: number;
  /** The sender gave up (timeout, reset, close) before the answer. */
  aborted: boolean;
}

/** What the receiver answers: a status, optionally after a delay, or never ("hang"). */
export type ReceiverAnswer = number | { status: number; delayMs?: number } | "hang";

export interface ReceiverOptions {
  secret: string;
  encoding?: "hex" | "base64";
  prefix?: boolean;
  /** Called for each request with a valid signature (default: 200); an invalid one gets 401. */
  respond?: (webhook: ReceivedWebhook, index: number) => ReceiverAnswer;
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * A real node:http server on a free port that verifies each notification the way contract
 * 4.2 B asks (HMAC-SHA256 of the raw body, constant-time comparison) and records it. Its
 * verification is written here on its own, not borrowed from the sandbox, so a bug in the
 * sandbox's signing cannot hide behind the same bug.
 */
export async function startWebhookReceiver(initial: ReceiverOptions) {
  const options = { encoding: "hex" as const, prefix: false, ...initial };
  const received: ReceivedWebhook[] = [];
  const timers = new Set<NodeJS.Timeout>();

  function verify(body: string, header: string | string[] | undefined): boolean {
    if (typeof header !== "string") return false;
    const digest = createHmac("sha256", options.secret).update(Buffer.from(body, "utf8")).digest(options.encoding);
    const expected = Buffer.from(options.prefix ? `sha256=${digest}` : digest);
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString("utf8");
    const webhook: ReceivedWebhook = {
      body,
      headers: request.headers,
      signatureValid: verify(body, request.headers["x-pay-content-token"]),
      json: safeJson(body),
      arrivedAt: performance.now(),
      aborted: false,
    };
    const index = received.push(webhook) - 1;
    response.once("close", () => {
      if (!response.writableFinished) webhook.aborted = true;
    });
    const answer: ReceiverAnswer = webhook.signatureValid ? (options.respond?.(webhook, index) ?? 200) : 401;
    if (answer === "hang") return;
    const { status, delayMs = 0 } = typeof answer === "number" ? { status: answer } : answer;
    const reply = () => {
      if (response.destroyed) return;
      webhook.answeredAt = performance.now();
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(status === 200 ? { received: true } : { error: `answered ${status}` }));
    };
    if (delayMs === 0) return reply();
    const timer = setTimeout(() => {
      timers.delete(timer);
      reply();
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/pay/webhook`,
    received,
    /** Changes what later requests get, or how signatures are checked. */
    configure(changes: Partial<ReceiverOptions>) {
      Object.assign(options, changes);
    },
    clear() {
      received.length = 0;
    },
    close(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
