import { createHmac } from "node:crypto";

/**
 * An authenticator app, for tests: the code of an otpauth:// address's key at this moment
 * (RFC 6238: HMAC-SHA-1 of the 30-second step, 6 digits), as Google Authenticator computes it.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Bytes(text: string): Buffer {
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** The 6-digit code of `totpURI`'s key, `stepsFromNow` 30-second steps away (-1: the one before). */
export function totpCode(totpURI: string, stepsFromNow = 0): string {
  const uri = new URL(totpURI);
  const key = base32Bytes(uri.searchParams.get("secret")!);
  const period = Number(uri.searchParams.get("period") ?? 30);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000 / period) + stepsFromNow));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 15;
  const value = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}
