import { CONTROL_TOKEN_HEADER } from "./control-access.js";
import type { Delivery, DeliveryFilter, DeliveryStateFilter } from "./delivery-log.js";
import type { Fault } from "./faults.js";
import type { DriveResult, ReferenceOptions } from "./orders.js";
import type { LoggedRequest } from "./request-log.js";
import type { SandboxSettings } from "./settings.js";
import type { Order, PaymentStatus } from "./store.js";
import type { ShapeOptions } from "./webhooks.js";

/**
 * The typed client of a running sandbox's control API (`/__sandbox/*`). This package's tests,
 * its CLI (`pay-sandbox trigger`, `forward-to`) and a shop's tests all go through it, so the token
 * header and the JSON bodies are sent one way everywhere. It needs nothing but `fetch`, so it
 * loads in Playwright's workers and in any Node test runner.
 *
 * Each named method throws a ControlError unless the sandbox answers 2xx; `request` is the raw
 * call, for a test that wants to see a refusal.
 */

export interface ControlAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON answer (`any`: a raw call reads the shape it expects); undefined when the answer is not JSON. */
  body: any;
}

export interface ControlAddress {
  /** The sandbox, e.g. http://127.0.0.1:4010, without a trailing slash. */
  url: string;
  /** The run's token, printed at start as SANDBOX_TOKEN=…. */
  token: string;
}

/** A control call the sandbox refused (or a wait that ran out): the status and the sandbox's own answer. */
export class ControlError extends Error {
  override name = "ControlError";
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** How the notification a control call causes is sent (`drop`, `bad_signature`, `late`…); default `normal`. */
export type DeliveryShapeOptions = Partial<ShapeOptions>;

/** The actions that move an order; each answers with the order and the notifications it caused. */
export type OrderAction = "approve" | "pending" | "confirm" | "cancel" | "expire";

export interface DeliveryWait extends DeliveryFilter {
  state?: DeliveryStateFilter;
  /** How many matching deliveries to wait for (default 1). */
  count?: number;
  /** How long the sandbox holds the request before it answers 408 (default 10 000). */
  timeoutMs?: number;
}

export interface ClockReading {
  now: number;
  iso: string;
  offsetSeconds: number;
}

export function controlClient({ url, token }: ControlAddress) {
  /** One call, `path` relative to /__sandbox; a body is sent as JSON. Rejects only when nothing answers. */
  async function request(method: string, path: string, body?: unknown): Promise<ControlAnswer> {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: {
        [CONTROL_TOKEN_HEADER]: token,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  }

  /** A call that must succeed: its JSON answer, or a ControlError with the sandbox's reason. */
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await request(method, path, body);
    if (answer.status < 200 || answer.status >= 300 || answer.body === undefined) {
      const reason = (answer.body as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`;
      throw new ControlError(`sandbox control ${method} ${path}: ${reason}`, answer.status, answer.body);
    }
    return answer.body as T;
  }

  const orderPath = (externalTransactionId: string) => `/orders/${encodeURIComponent(externalTransactionId)}`;

  return {
    url,
    token,
    dashboardUrl: dashboardUrlOf({ url, token }),
    request,
    call,

    /** Every order the sandbox holds, in creation order. */
    orders: async () => (await call<{ orders: Order[] }>("GET", "/orders")).orders,
    order: async (externalTransactionId: string) =>
      (await call<{ order: Order }>("GET", orderPath(externalTransactionId))).order,
    /** Moves an order as the shopper or the service would; `pending` may carry the reference it issues. */
    drive: (
      externalTransactionId: string,
      action: OrderAction,
      options: DeliveryShapeOptions & ReferenceOptions = {},
    ) => call<DriveResult>("POST", `${orderPath(externalTransactionId)}/${action}`, options),
    confirm: (externalTransactionId: string, shape: DeliveryShapeOptions = {}) =>
      call<DriveResult>("POST", `${orderPath(externalTransactionId)}/confirm`, shape),
    cancel: (externalTransactionId: string, shape: DeliveryShapeOptions = {}) =>
      call<DriveResult>("POST", `${orderPath(externalTransactionId)}/cancel`, shape),
    /** Sends a notification of `paymentStatus` for the order without changing it (a stale or repeated one). */
    deliver: (externalTransactionId: string, paymentStatus: PaymentStatus, shape: DeliveryShapeOptions = {}) =>
      call<DriveResult>("POST", `${orderPath(externalTransactionId)}/deliver`, { paymentStatus, ...shape }),
    /** Sends the order's latest notification again. */
    redeliver: (externalTransactionId: string) =>
      call<DriveResult>("POST", `${orderPath(externalTransactionId)}/redeliver`, {}),

    /** The service-API requests the sandbox received, optionally of one path only. */
    requests: async (path?: string) =>
      (await call<{ requests: LoggedRequest[] }>("GET", `/requests${path ? `?${searchOf({ path })}` : ""}`)).requests,
    clearRequests: () => call<{ ok: true }>("DELETE", "/requests"),

    deliveries: async (filter: DeliveryFilter = {}) =>
      (await call<{ deliveries: Delivery[] }>("GET", `/deliveries?${searchOf(filter)}`)).deliveries,
    /**
     * Waits on the sandbox's long poll (never a sleep) until `count` deliveries matching the filter
     * reach `state` (default settled); a ControlError saying where they are when time runs out.
     */
    waitForDeliveries: async (wait: DeliveryWait) =>
      (
        await call<{ deliveries: Delivery[] }>(
          "GET",
          `/deliveries/wait?${searchOf({ state: "settled", timeoutMs: 10_000, ...wait })}`,
        )
      ).deliveries,
    clearDeliveries: () => call<{ ok: true }>("DELETE", "/deliveries"),

    /** Makes the next `count` service-API calls fail (500, 503, 429, timeout or reset). */
    failNext: (fault: Fault) => call<{ faults: Fault[] }>("POST", "/faults", fault),
    settings: async () => (await call<{ settings: SandboxSettings }>("GET", "/settings")).settings,
    changeSettings: async (changes: Partial<SandboxSettings>) =>
      (await call<{ settings: SandboxSettings }>("POST", "/settings", changes)).settings,
    revokeTokens: () => call<{ revoked: number }>("POST", "/tokens/revoke"),
    /** Moves the sandbox's clock forward: tokens and payment references expire on it. */
    advanceClock: (seconds: number) => call<ClockReading>("POST", "/clock", { advanceSeconds: seconds }),
    /** Forgets every order, token, request, delivery and fault, and restores the starting settings. */
    reset: () => call<{ ok: true }>("POST", "/reset"),
  };
}

export type ControlClient = ReturnType<typeof controlClient>;

/** The dashboard's address for a person: the token rides in the query, and the page's own calls send the header. */
export const dashboardUrlOf = ({ url, token }: ControlAddress): string =>
  `${url}/__sandbox/dashboard?token=${encodeURIComponent(token)}`;

/** A query string of the defined fields. */
function searchOf(query: object): string {
  return new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  ).toString();
}

function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
