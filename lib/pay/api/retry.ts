/** When a call to the service is tried again, and how long the client waits before it does. */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails as unavailable instead. */
  maxRetryAfterMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
  timeoutMs: 8_000,
};

/** 408, 429 and 5xx mean "try again later"; any other status is the service's answer. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with full jitter: a random delay in [0, min(max, base·2^retry)). */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number): number {
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
