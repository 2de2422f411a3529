import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies `x-pay-content-token` (contract 5.2): the HMAC-SHA256 of the raw body, keyed with
 * the webhook secret. The contract does not show the digest's encoding, so we accept lower- or
 * upper-case hex and base64 (standard or URL-safe, padded or not), each with or without a
 * `sha256=` prefix — and nothing that does not decode to exactly 32 bytes. The comparison is
 * constant-time over the 32 bytes (docs/contract-decisions.md).
 */

export const SIGNATURE_HEADER = "x-pay-content-token";

const DIGEST_BYTES = 32;

export type SignatureCheck = { valid: true } | { valid: false; reason: SignatureProblem };

export type SignatureProblem = "missing" | "repeated" | "undecodable" | "mismatch";

/** The 32 digest bytes the header carries, or null when it is not a well-formed digest. */
export function decodeSignature(header: string): Buffer | null {
  const value = header.trim().replace(/^sha256=/i, "");
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  // 32 bytes are 43 base64 characters and one "=" of padding; URL-safe letters are mapped to standard ones.
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/").replace(/=$/, "");
  const mixedAlphabets = /[+/]/.test(value) && /[-_]/.test(value);
  if (/^[A-Za-z0-9+/]{43}$/.test(base64) && !mixedAlphabets) {
    const bytes = Buffer.from(base64, "base64");
    // The last character carries two spare bits; only the canonical encoding (spare bits zero) is accepted.
    if (bytes.toString("base64").slice(0, 43) === base64) return bytes;
  }
  return null;
}

export const signPayload = (secret: string, rawBody: Uint8Array) =>
  createHmac("sha256", secret).update(rawBody).digest();

/**
 * `header` is the header's value as the platform gives it: a Fetch `Headers.get` joins repeated
 * headers with ", ", which can never decode to a digest, so a repeated header fails as
 * "repeated" rather than matching either copy.
 */
export function verifySignature(secret: string, rawBody: Uint8Array, header: string | null): SignatureCheck {
  if (header === null || header.trim() === "") return { valid: false, reason: "missing" };
  if (header.includes(",")) return { valid: false, reason: "repeated" };
  const received = decodeSignature(header);
  if (!received) return { valid: false, reason: "undecodable" };
  const expected = signPayload(secret, rawBody);
  return timingSafeEqual(received, expected) ? { valid: true } : { valid: false, reason: "mismatch" };
}
