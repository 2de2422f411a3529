/**
 * The shop's Content-Security-Policy, sent with every page: with a per-response nonce where a
 * proxy runs (proxy.ts), without one for the pages served from the cache (next.config.mjs).
 */

export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The policy, in one of two forms:
 *
 * - **With a nonce** (checkout, result and order pages, the cart, the back office; proxy.ts): scripts run
 *   only with this response's nonce (Next puts it on its own scripts; the PayButton's loader on
 *   the SDK's tag), and 'strict-dynamic' lets those scripts load what they need, so the SDK's
 *   address does not have to be listed and one build serves the sandbox and production.
 * - **Without a nonce** (the catalogue and product pages and the offline page, built once and served from the cache
 *   to every shopper, so they cannot carry a per-response secret): scripts from the shop's own
 *   origin, plus the inline scripts Next writes into the page (its data for hydration), and
 *   nothing from anywhere else. These pages show only the owner's catalogue, escaped by React,
 *   never a shopper's data or the query string, and never load the SDK.
 *   next.config.mjs sends it, as a header of those addresses: no proxy runs for a cached page.
 */
export function contentSecurityPolicy({
  nonce,
  development,
}: {
  /** null for a page served from the cache (see above). */
  nonce: string | null;
  development: boolean;
}): string {
  const scripts = nonce === null ? "'self' 'unsafe-inline'" : `'self' 'nonce-${nonce}' 'strict-dynamic'`;
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; never in production.
    `script-src ${scripts}${development ? " 'unsafe-eval'" : ""}`,
    // Next and next/image set style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The service worker (/serwist/sw.js, app/sw.ts). Without it, the nonce policy's script-src
    // would decide, and a worker's script can carry no nonce ('strict-dynamic' drops 'self').
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
