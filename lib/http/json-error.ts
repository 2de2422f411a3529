/**
 * How long a client should wait after a 503 that names no time of its own: the database or
 * the service was briefly out of reach (a restart, a failover, a pooler reconnecting).
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * JSON error bodies share one shape: `{ error: { code, message } }`. A 503 always says when to
 * come back (`Retry-After`), so a client or a proxy retries instead of giving up.
 */
export function jsonError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  const all = new Headers(headers);
  if (status === 503 && !all.has("Retry-After")) all.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return Response.json({ error: { code, message } }, { status, headers: all });
}
