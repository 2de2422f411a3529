/**
 * The shop's Content-Security-Policy, sent with every page by proxy.ts. Scripts run only with
 * this response's nonce (Next puts it on its own scripts; the PayButton's loader on the SDK's
 * tag), and 'strict-dynamic' lets those scripts load what they need, so the SDK's address does
 * not have to be listed and one build serves the sandbox and production.
 */

export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export function contentSecurityPolicy({ nonce, development }: { nonce: string; development: boolean }): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; never in production.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // Next and next/image set style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
