import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env";
import { jsonError } from "./json-error";

/**
 * The guard of every /api/cron/* route. Vercel Cron calls them with
 * `Authorization: Bearer <CRON_SECRET>`; so may any scheduler you point at them (curl from
 * crontab, a GitHub Action). Returns the refusal to send, or null when the caller may proceed:
 *
 *   const refused = authorizeCron(request);
 *   if (refused) return refused;
 *
 * - CRON_SECRET unset: 503, every call refused — an unprotected route that runs jobs is never
 *   the default.
 * - Missing or wrong secret: 401. Compared in constant time (over SHA-256 digests, so not even
 *   the secret's length leaks).
 */
export function authorizeCron(request: Request, secret: string | undefined = getEnv().cronSecret): Response | null {
  if (!secret)
    return jsonError(503, "cron_disabled", "the cron routes are disabled until CRON_SECRET is set on the server");
  if (!hasBearerSecret(request, secret))
    return jsonError(401, "unauthorized", "send Authorization: Bearer <CRON_SECRET>", {
      "WWW-Authenticate": 'Bearer realm="cron"',
    });
  return null;
}

/**
 * Whether the request carries `Authorization: Bearer <secret>`: the cron routes' guard, and what
 * opens GET /api/health's details. Compared in constant time, as above.
 */
export function hasBearerSecret(request: Request, secret: string): boolean {
  const match = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "");
  return Boolean(match && sameSecret(match[1]!, secret));
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
