import "server-only";
import { createHash } from "node:crypto";
import { appRateLimits, type RateLimits } from "../db/rate-limit";
import { getEnv } from "../env";

/**
 * How many of the shop's free mails one address may receive a day: whoever checks out types the
 * e-mail address, and choosing a bank reference costs nothing, so without a cap the shop would
 * mail a stranger as often as someone likes. Counted in the database (lib/db/rate-limit.ts), so
 * every instance and the worker share one count, under a hash of the normalised address: the
 * `rate_limits` table never holds an address.
 */

/** The limit's name in `rate_limits` (its keys are `shopper-mail:<hash>`). */
export const SHOPPER_MAIL_LIMIT = "shopper-mail";
/** A day, from the first mail counted to that address (a fixed window, not the calendar day). */
export const SHOPPER_MAIL_WINDOW_SECONDS = 86_400;

/** Mailboxes that ignore dots in the name and are one mailbox under either domain. */
const DOTLESS_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * One mailbox, however its address is written: lower case, without a `+tag` (most providers
 * deliver ana+1@… and ana+2@… to ana@…), and for Gmail without the dots it ignores. Only for
 * counting: mails go to the address as typed.
 */
export function mailboxOf(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at < 1) return trimmed;
  let local = trimmed.slice(0, at).split("+")[0] || trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replace(/\./g, "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

/** The counter's key for `address`: SHA-256 of its mailbox, never the address itself. */
export const recipientKey = (address: string): string => createHash("sha256").update(mailboxOf(address)).digest("hex");

export interface RecipientLimit {
  /**
   * Spends one of the address's mails for the day: false when they are spent. Throws when the
   * counters cannot be reached (the caller's job retries; a mail never goes out uncounted).
   */
  spend(address: string): Promise<boolean>;
}

/** The allowance of `perDay` mails per address, counted through `limits`; 0 turns it off. */
export const recipientLimit = (limits: RateLimits, perDay: number): RecipientLimit => ({
  // An attempt that is never given back: every mail sent counts.
  spend: async (address) =>
    (
      await limits.spendAttempt(SHOPPER_MAIL_LIMIT, recipientKey(address), {
        failures: perDay,
        windowSeconds: SHOPPER_MAIL_WINDOW_SECONDS,
      })
    ).allowed,
});

/** The app's allowance: its database's counters, SHOPPER_MAILS_PER_ADDRESS_PER_DAY. */
export const appRecipientLimit = (): RecipientLimit =>
  recipientLimit(appRateLimits(), getEnv().mail.shopperMailsPerAddressPerDay);
