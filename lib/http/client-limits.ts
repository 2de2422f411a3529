import "server-only";
import { clientAddress, rateLimitKeyOf } from "./client-address";
import { getEnv } from "../env";
import { jsonError } from "./json-error";
import { consumeRateLimit, type RateLimitVerdict } from "../db/rate-limit";

/**
 * A route handler's per-client-address limit, checked first thing, before the body is read
 * (every attempt counts, well-formed or not) and before any call to the service or any
 * reservation. Over the limit: 429 in the shop's error shape with Retry-After (whole seconds),
 * and nothing else happens. `pointsPerMinute` 0 turns the limit off.
 */
export async function refuseOverClientLimit(
  request: Request,
  limit: { name: string; pointsPerMinute: number; message: string },
): Promise<Response | undefined> {
  if (!(limit.pointsPerMinute > 0)) return undefined;
  const address = clientAddress(request.headers, getEnv().clientAddress);
  const verdict = await consumeRateLimit(limit.name, rateLimitKeyOf(address), limit);
  return verdict.ok ? undefined : limitRefusal(verdict, limit.message);
}

/**
 * The answer to a refused verdict: 429 `rate_limited` over the limit, 503
 * `rate_limit_unavailable` when a fail-closed limit could not count; both with Retry-After.
 */
export function limitRefusal(verdict: Extract<RateLimitVerdict, { ok: false }>, message: string): Response {
  const headers = { "Retry-After": String(verdict.retryAfterSeconds) };
  return verdict.reason === "unavailable"
    ? jsonError(
        503,
        "rate_limit_unavailable",
        "attempts cannot be counted right now, so none are let through; try again soon",
        headers,
      )
    : jsonError(429, "rate_limited", message, headers);
}
