import "server-only";
import { clientAddress, rateLimitKeyOf } from "./client-address";
import { getEnv } from "./env";
import { jsonError } from "./http";
import { consumeRateLimit } from "./rate-limit";

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
  if (verdict.ok) return undefined;
  return jsonError(429, "rate_limited", limit.message, { "Retry-After": String(verdict.retryAfterSeconds) });
}
