import "server-only";
import { rateLimitKeyOf } from "./client-address";
import { getEnv } from "../env";
import { consoleLogger, throttledLogger, type LogFields } from "../log";
import { consumeRateLimit, type RateLimitVerdict } from "../db/rate-limit";

/**
 * What every back-office sign-in attempt (a password or an authenticator's code) goes through
 * before it is looked at: the two limits, and the log lines it leaves (./admin-sign-in.ts).
 */

/** A log line of the back office's sessions: what happened, from which address, when. */
export function logSession(
  level: "info" | "warn" | "error",
  event: string,
  address: string,
  fields: LogFields = {},
  log = consoleLogger,
) {
  log(level, event, { ...fields, address, at: new Date().toISOString() });
}

/** One log line per sign-in attempt past the cross-site check: the client's address and the time, never the password, the e-mail or a cookie. */
export const logAttempt = (outcome: "succeeded" | "failed", address: string, fields: LogFields = {}) =>
  logSession(outcome === "succeeded" ? "info" : "warn", `admin.sign_in.${outcome}`, address, fields);

// The attempts no limit bounds (refused by the limit itself, or before it) can come by the
// thousand: their lines are throttled. Those the limits let through are each logged.
const unboundedAttemptLog = throttledLogger(consoleLogger);
export const logUnboundedAttempt = (address: string, fields: LogFields) =>
  logSession("warn", "admin.sign_in.failed", address, fields, unboundedAttemptLog);

/**
 * The two limits every attempt (a password or a code) counts against before it is looked at,
 * per address then shop-wide (against a guess spread over many addresses); an attempt refused by
 * the first does not count against the second. Both fail closed: when their counters cannot be
 * reached, sign-in is refused (503) rather than left without a limit. better-auth's own limiter
 * only guards its HTTP handler, which the back office does not expose.
 */
export async function spendAttempt(
  address: string,
): Promise<{ ok: true } | { ok: false; verdict: Extract<RateLimitVerdict, { ok: false }>; limit: string }> {
  const { adminSignInPerMinute, adminSignInShopPerMinute } = getEnv().rateLimits;
  const limits = [
    { name: "admin-sign-in", key: rateLimitKeyOf(address), pointsPerMinute: adminSignInPerMinute },
    { name: "admin-sign-in-shop", key: "shop", pointsPerMinute: adminSignInShopPerMinute },
  ];
  for (const limit of limits) {
    const verdict = await consumeRateLimit(limit.name, limit.key, { ...limit, failClosed: true });
    if (!verdict.ok) return { ok: false, verdict, limit: limit.name };
  }
  return { ok: true };
}
