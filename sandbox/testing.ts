import { randomUUID } from "node:crypto";
import { randomCredentials } from "./credentials";
import type { LoggedRequest } from "./request-log";
import { startSandbox, type SandboxOptions } from "./server";

/** Helpers for the sandbox's own tests: a sandbox on a free port and plain-fetch clients of both APIs. */

type Headers = Record<string, string | undefined>;

export type TestSandbox = Awaited<ReturnType<typeof startTestSandbox>>;

export async function startTestSandbox(options: Partial<SandboxOptions> = {}) {
  const credentials = options.credentials ?? randomCredentials();
  const logLines: string[] = [];
  const sandbox = await startSandbox({ port: 0, log: (line) => logLines.push(line), ...options, credentials });
  const { url } = sandbox;
  const applicationUUID = credentials.publishableKey.replace(/^pk_test_/, "");
  const basic = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`;

  /** A plain fetch; a header set to undefined is left out, so tests can drop one of the defaults. */
  async function call(method: string, path: string, init: { headers?: Headers; body?: string } = {}) {
    const headers = Object.entries(init.headers ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    const response = await fetch(`${url}${path}`, { method, headers, body: init.body });
    const text = await response.text();
    // `any`: each test asserts the shape it expects.
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : (JSON.parse(text) as any),
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

  /** A call to the control API, `path` relative to /__sandbox. */
  function control(method: string, path: string, body?: unknown) {
    return call(method, `/__sandbox${path}`, {
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function requests(path?: string): Promise<LoggedRequest[]> {
    return (await control("GET", `/requests${path ? `?path=${encodeURIComponent(path)}` : ""}`)).body.requests;
  }

  return {
    url,
    port: sandbox.port,
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
    requests,
  };
}
