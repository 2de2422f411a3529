import "server-only";
import type { RateLimits } from "../db/rate-limit";

/**
 * How many sign-in codes may be sent: per phone (SIGN_IN_CODES_PER_PHONE_PER_HOUR, from any
 * addresses, so a phone is not flooded with messages the shop pays for) and per client address
 * (SIGN_IN_CODES_PER_ADDRESS_PER_HOUR, for any phones, so one client cannot walk through
 * thousands of numbers). Counted with the shop's atomic counters (lib/db/rate-limit.ts
 * `spendAttempt`), every request before its code is made, so a burst from many instances gets no
 * more than the allowance. A code is never given back: each one sent costs a message.
 */

/**
 * The header the auth route sets to the client's address as the shop reads it
 * (lib/http/client-address.ts), replacing whatever a client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-shop-client-address";

export interface SignInCodeLimits {
  /** 0: no limit. */
  perPhonePerHour: number;
  /** 0: no limit. */
  perAddressPerHour: number;
  /**
   * Requests to the code endpoints (asking for a code, checking one) per client address per
   * minute, counted by better-auth's own limiter; 0: no limit.
   */
  requestsPerMinute: number;
}

const HOUR_SECONDS = 3600;

/**
 * Spends one code of the address's allowance, then of the phone's: `allowed`, or which limit
 * refused it (the address's refusal spends none of the phone's), or `unavailable` when the
 * counters cannot be reached (no code is sent uncounted).
 */
export async function spendSignInCode(
  rateLimits: Pick<RateLimits, "spendAttempt">,
  limits: SignInCodeLimits,
  who: { phoneKey: string; address: string },
): Promise<"allowed" | "phone_limited" | "address_limited" | "unavailable"> {
  try {
    if (limits.perAddressPerHour > 0) {
      const spent = await rateLimits.spendAttempt("sign-in-code-address", who.address, {
        failures: limits.perAddressPerHour,
        windowSeconds: HOUR_SECONDS,
      });
      if (!spent.allowed) return "address_limited";
    }
    if (limits.perPhonePerHour > 0) {
      const spent = await rateLimits.spendAttempt("sign-in-code-phone", who.phoneKey, {
        failures: limits.perPhonePerHour,
        windowSeconds: HOUR_SECONDS,
      });
      if (!spent.allowed) return "phone_limited";
    }
    return "allowed";
  } catch {
    return "unavailable";
  }
}
