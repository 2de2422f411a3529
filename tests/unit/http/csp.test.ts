import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "@/lib/http/csp";

describe("the shop's Content-Security-Policy", () => {
  it("a fresh, unguessable nonce each time: 16 random bytes in base64", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("scripts run only with the nonce (and what they load), nothing inline, no framing", () => {
    const directives = contentSecurityPolicy({ nonce: "abc123==", development: false }).split("; ");
    expect(directives).toContain("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives).toContain("object-src 'none'");
    expect(directives).toContain("form-action 'self'");
    expect(directives.join("; ")).not.toContain("unsafe-eval");
  });

  it("for the cached pages: the shop's own scripts and inline ones, no nonce, no other origin, the rest the same", () => {
    const cached = contentSecurityPolicy({ nonce: null, development: false }).split("; ");
    expect(cached).toContain("script-src 'self' 'unsafe-inline'");
    expect(cached.join("; ")).not.toMatch(/nonce|https?:|\*|unsafe-eval/);
    const withNonce = contentSecurityPolicy({ nonce: "n", development: false }).split("; ");
    expect(cached.filter((directive) => !directive.startsWith("script-src"))).toEqual(
      withNonce.filter((directive) => !directive.startsWith("script-src")),
    );
  });

  it("allows eval only in development, for React's error overlay", () => {
    expect(contentSecurityPolicy({ nonce: "n", development: true })).toContain(
      "script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'",
    );
  });
});
