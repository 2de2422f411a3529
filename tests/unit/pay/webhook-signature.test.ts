import { describe, expect, it } from "vitest";
import { decodeSignature, signPayload, verifySignature } from "@/lib/pay/webhooks/signature";

// Public test vectors: GitHub's documented webhook example (hex), a published Shopify-style
// base64 example, and Shopify's `test_secret_key` example (computed with `openssl dgst`).
const GITHUB = {
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  hex: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
};
const SHOPIFY = {
  secret: "test_secret_key",
  body: '{"foo": "bar"}',
  base64: "B23tXN681gZ0qIWNRrgtzBE9XSDo5yaUu6wfmhu3a7g=",
};
const GIST = { secret: "secret", body: "foo", base64: "dzukRpPHVT1u4g9h6l0nV6mk9KRNKEGuTpW1LkzWLbQ=" };

const bytes = (text: string) => new TextEncoder().encode(text);
const verify = (vector: { secret: string; body: string }, header: string | null) =>
  verifySignature(vector.secret, bytes(vector.body), header);

describe("verifySignature", () => {
  it.each([
    ["lower-case hex", GITHUB.hex],
    ["upper-case hex", GITHUB.hex.toUpperCase()],
    ["sha256= hex (GitHub's header form)", `sha256=${GITHUB.hex}`],
    ["SHA256= prefix, any case", `SHA256=${GITHUB.hex}`],
    ["surrounding whitespace", `  ${GITHUB.hex}\t`],
  ])("accepts GitHub's vector as %s", (_, header) => {
    expect(verify(GITHUB, header)).toEqual({ valid: true });
  });

  it.each([
    ["padded base64", SHOPIFY.base64],
    ["unpadded base64", SHOPIFY.base64.replace(/=$/, "")],
    ["sha256= base64", `sha256=${SHOPIFY.base64}`],
    ["URL-safe base64", Buffer.from(SHOPIFY.base64, "base64").toString("base64url")],
  ])("accepts Shopify's vector as %s", (_, header) => {
    expect(verify(SHOPIFY, header)).toEqual({ valid: true });
  });

  it("accepts a second published base64 vector", () => {
    expect(verify(GIST, GIST.base64)).toEqual({ valid: true });
  });

  it("signPayload reproduces the vectors", () => {
    expect(signPayload(GITHUB.secret, bytes(GITHUB.body)).toString("hex")).toBe(GITHUB.hex);
    expect(signPayload(SHOPIFY.secret, bytes(SHOPIFY.body)).toString("base64")).toBe(SHOPIFY.base64);
  });

  it.each<[string, string | null, string]>([
    ["no header", null, "missing"],
    ["an empty header", "", "missing"],
    ["a blank header", "   ", "missing"],
    ["a repeated header (joined by the platform)", `${GITHUB.hex}, ${GITHUB.hex}`, "repeated"],
    ["a truncated hex digest", GITHUB.hex.slice(0, 63), "undecodable"],
    ["a hex digest one byte short", GITHUB.hex.slice(0, 62), "undecodable"],
    ["a hex digest one byte long", `${GITHUB.hex}00`, "undecodable"],
    ["non-hex characters", `${GITHUB.hex.slice(0, 63)}g`, "undecodable"],
    ["a SHA-1 sized digest", "a".repeat(40), "undecodable"],
    ["a truncated base64 digest", SHOPIFY.base64.slice(0, 40), "undecodable"],
    ["base64 of 33 bytes", Buffer.alloc(33, 1).toString("base64"), "undecodable"],
    ["base64 with both alphabets", `+_${SHOPIFY.base64.slice(2)}`, "undecodable"],
    ["another prefix", `sha1=${GITHUB.hex}`, "undecodable"],
    ["the secret itself", GITHUB.secret, "undecodable"],
    ["another body's digest", signPayload(GITHUB.secret, bytes("Hello, World?")).toString("hex"), "mismatch"],
    [
      "the right body under another secret",
      signPayload("It's a secret to everybody", bytes(GITHUB.body)).toString("hex"),
      "mismatch",
    ],
  ])("refuses %s", (_, header, reason) => {
    expect(verify(GITHUB, header)).toEqual({ valid: false, reason });
  });

  it("refuses a tampered body: one flipped bit, a trailing newline, re-encoded text", () => {
    const body = bytes(SHOPIFY.body);
    const flipped = Uint8Array.from(body);
    flipped[3]! ^= 1;
    expect(verifySignature(SHOPIFY.secret, flipped, SHOPIFY.base64).valid).toBe(false);
    expect(verifySignature(SHOPIFY.secret, bytes(`${SHOPIFY.body}\n`), SHOPIFY.base64).valid).toBe(false);
    expect(verifySignature(SHOPIFY.secret, bytes('{"foo":"bar"}'), SHOPIFY.base64).valid).toBe(false);
  });

  it("verifies the exact bytes, including bytes that are not valid UTF-8", () => {
    const raw = Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const header = signPayload("s3cret", raw).toString("hex");
    expect(verifySignature("s3cret", raw, header)).toEqual({ valid: true });
    // What a text round trip would do to it: the invalid bytes become U+FFFD.
    const reencoded = bytes(new TextDecoder().decode(raw));
    expect(verifySignature("s3cret", reencoded, header).valid).toBe(false);
  });

  it("keys with the secret exactly as configured, whitespace included", () => {
    const header = signPayload("secret", bytes("{}")).toString("hex");
    expect(verifySignature("secret ", bytes("{}"), header).valid).toBe(false);
  });
});

describe("decodeSignature", () => {
  it("decodes hex and base64 to the same 32 bytes", () => {
    const fromHex = decodeSignature(GITHUB.hex);
    expect(fromHex?.length).toBe(32);
    expect(decodeSignature(fromHex!.toString("base64"))?.equals(fromHex!)).toBe(true);
  });

  it("refuses a non-canonical base64 whose spare bits are set", () => {
    const canonical = SHOPIFY.base64.replace(/=$/, "");
    const last = canonical.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const sibling = alphabet[alphabet.indexOf(last) + 1]!;
    expect(decodeSignature(canonical.slice(0, -1) + sibling)).toBeNull();
  });
});
