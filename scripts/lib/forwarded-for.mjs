// What scripts/serve.mjs does to every request before Next sees it, kept apart so it can be
// tested without a build. Plain JavaScript: the production server runs on plain `node`.

/** The entry written when the socket has no address any more (the client already hung up). */
export const UNKNOWN_PEER = "unknown";

/**
 * `X-Forwarded-For` with the TCP peer's address appended, as any proxy appends the address it
 * was connected from, the header created when the request had none. So its last entry is
 * always the real peer: whatever a client writes in its own header stays to the left, where
 * lib/client-address.ts never reads (TRUST_PROXY=n reads n entries left of the last one, which
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
