import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  errorReply,
  headerValue,
  requireMediaType,
  SandboxError,
  type JsonReply,
  type SandboxRequest,
} from "./http.js";

/**
 * Who may use the control API and the dashboard (`/__sandbox/*`). Listening on 127.0.0.1 is
 * not enough: any web page the developer opens can send a "simple" cross-site request there,
 * and a DNS-rebound page reaches it under a foreign Host. So every request must
 *   1. name this machine in Host (127.0.0.1, localhost or [::1], any port), or 403;
 *   2. carry the run's token in the `x-sandbox-token` header, or 401 (the dashboard page alone
 *      may carry it as `?token=`, for a person opening it from the printed address);
 *   3. when it has a body or a Content-Type, be `application/json`, or 415.
 * A browser cannot add a custom header to a cross-origin request without a CORS preflight,
 * which the sandbox answers 401 (no token), so 2 alone stops cross-site calls; 3 is belt and
 * braces. The service API and the browser SDK and checkout are not guarded here: the shop
 * and shoppers' browsers call them as they would call the service.
 */

/** The header every control client sends the token in. */
export const CONTROL_TOKEN_HEADER = "x-sandbox-token";

/** 32 random bytes, base64url: 43 characters. */
export const randomControlToken = (): string => randomBytes(32).toString("base64url");

const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,}$/;

/** Refuses a token given by hand (flag, SANDBOX_TOKEN, options) that is short or unsafe in a header or URL. */
export function checkControlToken(token: string): string {
  if (!TOKEN_PATTERN.test(token)) {
    throw new Error("The sandbox token must be at least 16 characters of A-Z, a-z, 0-9, '.', '_', '~' or '-'");
  }
  return token;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether a Host header names this machine: 127.0.0.1, localhost or [::1], with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  const name = host === undefined ? undefined : /^(\[[^\]]*\]|[^:[\]]*)(?::\d*)?$/.exec(host.trim().toLowerCase())?.[1];
  return name !== undefined && LOOPBACK_HOSTS.has(name);
}

/** Compares in constant time: both sides are hashed first, so neither length nor content leaks. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface ControlAccessPaths {
  /** The dashboard page, which also takes the token as `?token=` (GET only). */
  dashboardPage: string;
  /** Static files of the dashboard that hold no data (its script): Host-checked, no token. */
  publicAssets: readonly string[];
}

/** The refusal of a `/__sandbox/*` request, or undefined when it may go on. */
export function controlRefusal(
  request: SandboxRequest,
  token: string,
  paths: ControlAccessPaths,
): JsonReply | undefined {
  if (!isLoopbackHost(headerValue(request.headers, "host"))) {
    return errorReply(
      403,
      "forbidden_host",
      "the control API answers only requests whose Host is 127.0.0.1, localhost or [::1]",
    );
  }
  if (request.method === "GET" && paths.publicAssets.includes(request.path)) return undefined;

  const fromQuery =
    request.method === "GET" && request.path === paths.dashboardPage ? request.query.get("token") : null;
  const given = headerValue(request.headers, CONTROL_TOKEN_HEADER) ?? fromQuery ?? undefined;
  if (given === undefined || !sameToken(given, token)) {
    return errorReply(
      401,
      "unauthorized",
      `${given === undefined ? "missing" : "wrong"} ${CONTROL_TOKEN_HEADER} header: send the token the sandbox printed at start as SANDBOX_TOKEN=…`,
    );
  }

  const hasBody = request.body !== "" || headerValue(request.headers, "content-type") !== undefined;
  if (BODY_METHODS.has(request.method) && hasBody) {
    try {
      requireMediaType(request, "application/json");
    } catch (error) {
      if (error instanceof SandboxError) return error.toReply();
      throw error;
    }
  }
  return undefined;
}
