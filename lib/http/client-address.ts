import { isIPv4, isIPv6 } from "node:net";

/**
 * The address of the client a request came from, read only from what the platform guarantees,
 * so that a client cannot pick its own (and dodge a per-address limit) by sending headers. Pure:
 * no I/O, no environment.
 */

export const UNKNOWN_CLIENT_ADDRESS = "unknown";

export interface ClientAddressSettings {
  /** Running on Vercel: trust its `x-real-ip`. */
  onVercel: boolean;
  /** Reverse proxies in front of the shop's server that append to `x-forwarded-for` (TRUST_PROXY). */
  trustedProxies: number;
}

/** Only `get` is read, so a `Headers` object or anything shaped like it will do. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The client's address (IPv4 dotted, IPv6 in canonical form):
 *
 * - **On Vercel** (`VERCEL=1`): `x-real-ip`, which Vercel sets to the client's address; its
 *   `x-forwarded-for` is overwritten the same way, so its first entry is the fallback. Neither
 *   can be forged: Vercel replaces what the client sent
 *   (https://vercel.com/docs/headers/request-headers; `ipAddress()` of @vercel/functions reads
 *   the same header).
 * - **Self-hosted**, the shop's own server (`npm start`, scripts/serve.mjs) appends the TCP
 *   peer's address to `x-forwarded-for` on every request, as a proxy does, so the list's last
 *   entry is always the real peer, whatever the client sent before it. With `TRUST_PROXY=0`
 *   that peer is the client. Behind n reverse proxies that each append the address they were
 *   connected from (`TRUST_PROXY=n`: nginx's `$proxy_add_x_forwarded_for`, a load balancer), the
 *   client is the entry n places left of the last one; anything further left is the client's
 *   own say and is never read.
 * - Under `next dev`, and under a bare `next start`, Next sets `x-forwarded-for` to the peer only
 *   when the request has none, so a client's own header is taken as it is. Fine in development;
 *   production runs scripts/serve.mjs (`npm start`), which is why it exists.
 *
 * A missing or unreadable address is `UNKNOWN_CLIENT_ADDRESS`, one shared key, so limits still
 * apply to such requests.
 */
export function clientAddress(headers: HeaderSource, settings: ClientAddressSettings): string {
  const forwarded = forwardedForEntries(headers.get("x-forwarded-for"));
  if (settings.onVercel) {
    return normalizeAddress(headers.get("x-real-ip")) ?? normalizeAddress(forwarded[0]) ?? UNKNOWN_CLIENT_ADDRESS;
  }
  if (forwarded.length === 0) return UNKNOWN_CLIENT_ADDRESS;
  // Fewer entries than trusted hops means every entry came from a trusted hop: the first is the earliest.
  const index = Math.max(0, forwarded.length - 1 - settings.trustedProxies);
  return normalizeAddress(forwarded[index]) ?? UNKNOWN_CLIENT_ADDRESS;
}

/**
 * The key a per-address limit counts under: the address itself for IPv4, and the /64 network
 * for IPv6, because one subscriber usually gets a whole /64 and could otherwise walk through
 * its 2^64 addresses, each with a fresh allowance.
 */
export function rateLimitKeyOf(address: string): string {
  if (!isIPv6(address)) return address;
  return `${canonicalIPv6(`${expandIPv6(address).slice(0, 4).join(":")}::`)}/64`;
}

/** `x-forwarded-for`'s entries, left (earliest) to right (the last hop), trimmed; empty for no header. */
export function forwardedForEntries(header: string | null | undefined): string[] {
  if (header == null || header.trim() === "") return [];
  return header.split(",").map((entry) => entry.trim());
}

/**
 * One address as a proxy may write it, in the form a key uses, or undefined when it is none:
 * surrounding spaces and `[…]` dropped, a `:port` on IPv4 or bracketed IPv6 dropped, an IPv6
 * zone (`%eth0`) dropped, IPv6 lower-cased and compressed, and an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports for an IPv4 peer) as the IPv4 address.
 */
export function normalizeAddress(value: string | null | undefined): string | undefined {
  let text = value?.trim();
  if (!text) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  if (isIPv4(text)) return text;
  text = text.replace(/%[\w.-]+$/, "");
  if (!isIPv6(text)) return undefined;
  const canonical = canonicalIPv6(text);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return canonical;
}

/** The WHATWG URL parser writes IPv6 in its canonical form: lower case, no leading zeros, the longest zero run as `::`. */
function canonicalIPv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The eight 16-bit groups of a valid IPv6 address, in hex. */
function expandIPv6(address: string): string[] {
  const [head = "", tail] = canonicalIPv6(address).split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right];
}
