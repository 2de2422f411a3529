import { describe, expect, it } from "vitest";
import { backoffDelayMs, defaultRetryPolicy, isRetryableStatus, parseRetryAfterMs } from "@/lib/pay/api/retry";

describe("retry rules", () => {
  it("retries 408, 429 and 5xx only", () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 409, 413, 422].some(isRetryableStatus)).toBe(false);
  });

  it("draws full-jitter delays below an exponentially growing, capped ceiling", () => {
    const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(policy, 0, () => 0.999)).toBe(99);
    expect(backoffDelayMs(policy, 2, () => 0.999)).toBe(399);
    expect(backoffDelayMs(policy, 10, () => 0.999)).toBe(999);
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(parseRetryAfterMs("3", now)).toBe(3000);
    expect(parseRetryAfterMs("Sat, 21 Nov 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfterMs("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfterMs("soon", now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });
});
