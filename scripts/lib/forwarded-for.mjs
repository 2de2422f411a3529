// What scripts/serve.mjs does to every request before Next sees it, kept apart so it can be
// tested without a build. Plain JavaScript: the production server runs on plain `node`.

/** The entry written when the socket has no address any more (the client already hung up). */
export const UNKNOWN_PEER = "unknown";

/**
 * `X-Forwarded-For` with the TCP peer's address appended, as any proxy appends the address it
 * was connected from, the header created when the request had none. So its last entry is
 * always the real peer: whatever a client writes in its own header stays to the left, where
 * lib/http/client-address.ts never reads (TRUST_PROXY=n reads n entries left of the last one, which
 * trusted proxies wrote).
 *
 * @param {string | string[] | undefined} header the request's X-Forwarded-For as Node parsed it
 *   (repeated headers arrive joined by ", ")
 * @param {string | undefined} peer `req.socket.remoteAddress`
 * @returns {string}
 */
export function appendForwardedFor(header, peer) {
  const earlier = (Array.isArray(header) ? header : header === undefined ? [] : [header])
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return [...earlier, peer?.trim() || UNKNOWN_PEER].join(", ");
}

/**
 * The warning scripts/serve.mjs logs (once) when a request arrives that already carries
 * `X-Forwarded-For` while `TRUST_PROXY` is 0: either a proxy is in front that the shop does not
 * count, so every shopper behind it shares one address (and one rate-limit allowance), or a
 * client writes the header itself (harmless with TRUST_PROXY=0, which never reads it). Null when
 * there is nothing to say.
 *
 * @param {string | string[] | undefined} header the request's X-Forwarded-For before the server appends to it
 * @param {string | undefined} trustProxy the TRUST_PROXY setting as written in the environment
 * @returns {string | null}
 */
export function untrustedProxyWarning(header, trustProxy) {
  const present = Array.isArray(header) ? header.some((value) => value.trim() !== "") : Boolean(header?.trim());
  if (!present || Number(trustProxy || "0") !== 0) return null;
  return (
    "a request arrived with X-Forwarded-For, but TRUST_PROXY=0 counts no proxy in front of this server: " +
    "if a reverse proxy or load balancer forwards to it, every client behind it shares the proxy's address " +
    "and one rate-limit allowance; set TRUST_PROXY to the number of proxies (docs/self-hosting.md). " +
    "If clients reach this server directly, ignore this: their own header is never read."
  );
}
