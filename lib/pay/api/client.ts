import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { PayServiceError } from "./errors";
import {
  isUsableIdentifier,
  MAX_IDENTIFIER_LENGTH,
  readPaymentLookup,
  unusableIdentifier,
  type PaymentLookup,
} from "./payment-status";
import { backoffDelayMs, defaultRetryPolicy, isRetryableStatus, parseRetryAfterMs, type RetryPolicy } from "./retry";
import { TokenCache } from "./token-cache";

/**
 * The only code that talks to the service (contract 4.1 and 5.1). It turns the service's
 * raw shapes into the app's own types and its failures into PayServiceError.
 * Framework-free: everything it needs is passed in, so tests point it at a sandbox.
 */

/** Where the client reports each request: the app passes its own logger (lib/log.ts has the same shape). */
export type PayLogger = (
  level: "info" | "warn" | "error",
  event: string,
  fields?: Record<string, string | number | boolean | null | undefined>,
) => void;

/** Without an app's logger: one JSON line per event. The client's fields never carry a shopper's data. */
const jsonLineLogger: PayLogger = (level, event, fields = {}) => {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === "info") console.log(line);
  else console[level](line);
};

export interface PayClientConfig {
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  applicationUUID: string;
  lang: string;
}

export interface PayClientDeps {
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  log?: PayLogger;
  retry?: Partial<RetryPolicy>;
}

export interface CreatePaymentOrderInput {
  /** `order_` + UUID v4; the service's idempotency key, so retrying creation is safe. */
  externalTransactionId: string;
  clientId: string;
  name: string;
  /** Integer AOA recomputed by the server; never a client-sent total. */
  amountAoa: number;
  /** Absolute URL of an image of the order. */
  image: string;
  /** Informational only (contract 2.2): it configures nothing at the service. */
  additionalInfo: string;
}

/** Per call: overrides of the client's retry policy, for callers that cannot wait as long. */
export interface CallOptions {
  retry?: Partial<RetryPolicy>;
}

export interface StatusQueryOptions extends CallOptions {
  /** The order's amount: an answer that carries another amount is an `invalid_response`. */
  expectedAmountAoa?: number;
}

export interface PayClient {
  createPaymentOrder(input: CreatePaymentOrderInput): Promise<{ referenceNumber: string }>;
  /**
   * The order's status at the service. An answer about another order (another
   * `externalTransactionId`, or another amount when both are known) is an `invalid_response`:
   * it is never what we asked about, so nothing may be applied from it.
   */
  paymentByExternalTransaction(externalTransactionId: string, options?: StatusQueryOptions): Promise<PaymentLookup>;
}

/** The token lifetime we ask for, in seconds (contract 5.1 and 8). */
export const REQUESTED_TOKEN_VALIDITY = 3600;

const tokenResponse = z.object({
  access_token: z.string().trim().min(1),
  // Not named by the contract (2.7); used when present and sensible, else the requested lifetime.
  expires_in: z.coerce.number().positive().finite().optional().catch(undefined),
});

const createOrderResponse = z.object({
  data: z.object({ referenceNumber: z.string().trim().min(1).refine(isUsableIdentifier) }),
});

interface Answer {
  status: number;
  body: unknown;
  requestId: string;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPayClient(config: PayClientConfig, deps: PayClientDeps = {}): PayClient {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? sleepFor;
  const random = deps.random ?? Math.random;
  const log = deps.log ?? jsonLineLogger;
  const clientPolicy: RetryPolicy = { ...defaultRetryPolicy, ...deps.retry };
  const baseUrl = config.apiBaseUrl.replace(/\/+$/, "");

  /** One logical call: retried on network errors, timeouts, 408, 429 and 5xx. */
  async function send(operation: string, url: string, init: RequestInit, policy: RetryPolicy): Promise<Answer> {
    const requestId = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const started = now();
      let delayMs: number;
      let failure: { status?: number; reason: string; cause?: unknown };
      try {
        const response = await doFetch(url, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), "X-Request-Id": requestId },
          signal: AbortSignal.timeout(policy.timeoutMs),
        });
        const text = await response.text();
        log("info", "pay.request", {
          operation,
          requestId,
          attempt,
          status: response.status,
          durationMs: now() - started,
        });
        if (!isRetryableStatus(response.status)) return { status: response.status, body: parseJson(text), requestId };
        const retryAfterMs = parseRetryAfterMs(response.headers.get("retry-after"), now());
        if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
          throw new PayServiceError(
            "unavailable",
            `${operation}: the service asks to retry later (HTTP ${response.status})`,
            {
              operation,
              requestId,
              status: response.status,
            },
          );
        }
        failure = { status: response.status, reason: `HTTP ${response.status}` };
        delayMs = retryAfterMs ?? backoffDelayMs(policy, attempt - 1, random);
      } catch (error) {
        if (error instanceof PayServiceError) throw error;
        const reason = isTimeout(error) ? `no answer within ${policy.timeoutMs} ms` : "network error";
        log("warn", "pay.request", { operation, requestId, attempt, error: reason, durationMs: now() - started });
        failure = { reason, cause: error };
        delayMs = backoffDelayMs(policy, attempt - 1, random);
      }
      if (attempt >= policy.maxAttempts) {
        throw new PayServiceError(
          "unavailable",
          `${operation}: the service is unavailable (${failure.reason} after ${attempt} attempts)`,
          { operation, requestId, status: failure.status, cause: failure.cause },
        );
      }
      await sleep(delayMs);
    }
  }

  // A token renewal runs under the policy of the call that needed it, so a quick call stays quick.
  const tokens = new TokenCache<RetryPolicy>({
    now,
    requestedLifetimeSeconds: REQUESTED_TOKEN_VALIDITY,
    async fetchToken(policy) {
      const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`, "utf8").toString("base64");
      const answer = await send(
        "token",
        `${baseUrl}/token`,
        {
          method: "POST",
          headers: {
            Authorization: `Basic ${basic}`,
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "application/json",
          },
          body: new URLSearchParams({
            grant_type: "client_credentials",
            validity_period: String(REQUESTED_TOKEN_VALIDITY),
          }).toString(),
        },
        policy,
      );
      if (answer.status === 401 || answer.status === 403) {
        throw rejected(
          "token",
          answer,
          "the service refused our credentials: check PAY_CLIENT_ID and PAY_CLIENT_SECRET",
        );
      }
      const parsed = expectOk("token", answer, tokenResponse);
      return { accessToken: parsed.access_token, expiresInSeconds: parsed.expires_in };
    },
  });

  /** A partner endpoint call with the bearer token; a 401 drops the token and retries once. */
  async function callPartner(
    operation: string,
    url: string,
    init: RequestInit,
    options: CallOptions = {},
  ): Promise<Answer> {
    const policy: RetryPolicy = { ...clientPolicy, ...options.retry };
    const withToken = (token: string): RequestInit => ({
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        Authorization: `Bearer ${token}`,
        "Accept-Language": config.lang,
        Accept: "application/json",
      },
    });
    const token = await tokens.get(policy);
    const answer = await send(operation, url, withToken(token), policy);
    if (answer.status !== 401) return answer;
    tokens.invalidate(token);
    return send(operation, url, withToken(await tokens.get(policy)), policy);
  }

  return {
    async createPaymentOrder(input) {
      if (!Number.isSafeInteger(input.amountAoa) || input.amountAoa <= 0) {
        throw new RangeError(`amountAoa must be a positive whole number of kwanza, got ${input.amountAoa}`);
      }
      const answer = await callPartner("createPaymentOrder", `${baseUrl}/paypartner/createPaymentOrder`, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify({
          externalTransactionId: input.externalTransactionId,
          clientId: input.clientId,
          applicationUUID: config.applicationUUID,
          name: input.name,
          image: input.image,
          amount: input.amountAoa,
          quantity: 1,
          additionalInfo: input.additionalInfo,
        }),
      });
      return { referenceNumber: expectOk("createPaymentOrder", answer, createOrderResponse).data.referenceNumber };
    },

    async paymentByExternalTransaction(externalTransactionId, options) {
      const query = new URLSearchParams({ externalTransactionId, applicationUUID: config.applicationUUID });
      const answer = await callPartner(
        "paymentByExternalTransaction",
        `${baseUrl}/paypartner/paymentByExternalTransaction?${query}`,
        { method: "GET" },
        options,
      );
      if (answer.status === 404) return { found: false };
      if (answer.status < 200 || answer.status > 299) throw rejected("paymentByExternalTransaction", answer);
      const lookup = readPaymentLookup(answer.body);
      const invalid = (problem: string) =>
        new PayServiceError("invalid_response", `paymentByExternalTransaction: ${problem}`, {
          operation: "paymentByExternalTransaction",
          requestId: answer.requestId,
          status: answer.status,
        });
      const unusable = unusableIdentifier(lookup);
      if (unusable)
        throw invalid(
          `the service's ${unusable} has control characters or more than ${MAX_IDENTIFIER_LENGTH} characters`,
        );
      if (
        lookup.found &&
        lookup.externalTransactionId !== undefined &&
        lookup.externalTransactionId !== externalTransactionId
      )
        throw invalid("the answer is about another externalTransactionId");
      if (
        lookup.found &&
        lookup.amountAoa !== undefined &&
        options?.expectedAmountAoa !== undefined &&
        lookup.amountAoa !== options.expectedAmountAoa
      )
        throw invalid(`the answer carries another amount (${lookup.amountAoa}, not ${options.expectedAmountAoa})`);
      return lookup;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** The service's own short error code, when it sent one; never the whole body. */
function serviceErrorCode(body: unknown): string {
  const code = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  return typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? ` ${code}` : "";
}

function rejected(operation: string, answer: Answer, hint?: string): PayServiceError {
  return new PayServiceError(
    "rejected",
    `${operation}: the service answered HTTP ${answer.status}${serviceErrorCode(answer.body)}${hint ? `; ${hint}` : ""}`,
    { operation, requestId: answer.requestId, status: answer.status },
  );
}

function expectOk<T>(operation: string, answer: Answer, schema: z.ZodType<T>): T {
  if (answer.status < 200 || answer.status > 299) throw rejected(operation, answer);
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new PayServiceError(
      "invalid_response",
      `${operation}: the service's answer lacks ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`,
      { operation, requestId: answer.requestId, status: answer.status },
    );
  }
  return parsed.data;
}
