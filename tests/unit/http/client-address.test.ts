import { describe, expect, it } from "vitest";
import {
  clientAddress,
  forwardedForEntries,
  normalizeAddress,
  rateLimitKeyOf,
  UNKNOWN_CLIENT_ADDRESS,
  type ClientAddressSettings,
} from "@/lib/http/client-address";
import { appendForwardedFor, UNKNOWN_PEER } from "../../../scripts/lib/forwarded-for.mjs";

// Where a request's client address comes from (lib/http/client-address.ts), and what the shop's own
// server (scripts/serve.mjs) does to X-Forwarded-For before Next sees the request.

const selfHosted: ClientAddressSettings = { onVercel: false, trustedProxies: 0 };
const behind = (trustedProxies: number): ClientAddressSettings => ({ onVercel: false, trustedProxies });
const vercel: ClientAddressSettings = { onVercel: true, trustedProxies: 0 };

const headers = (values: Record<string, string>) => new Headers(values);

/** The headers as scripts/serve.mjs hands them to Next: the client's own X-Forwarded-For (if any) plus the peer. */
const throughServe = (peer: string | undefined, clientHeader?: string) =>
  headers({ "x-forwarded-for": appendForwardedFor(clientHeader, peer) });

describe("normalizeAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["  203.0.113.7  ", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:0db8::0001", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::1", "::1"],
    // What a dual-stack socket reports for an IPv4 peer, in either spelling.
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["::FFFF:C633:6404", "198.51.100.4"],
  ])("%j is %j", (value, expected) => {
    expect(normalizeAddress(value)).toBe(expected);
  });

  it.each([
    "",
    "   ",
    "unknown",
    "_hidden",
    "not-an-ip",
    "203.0.113",
    "203.0.113.7.9",
    "203.0.113.256",
    "01.2.3.4",
    "2001:db8::1::2",
    "<script>",
    "203.0.113.7, 198.51.100.4",
  ])("%j is no address", (value) => {
    expect(normalizeAddress(value)).toBeUndefined();
  });

  it("null and undefined are no address", () => {
    expect(normalizeAddress(null)).toBeUndefined();
    expect(normalizeAddress(undefined)).toBeUndefined();
  });
});

describe("forwardedForEntries", () => {
  it("splits on commas and trims, keeping every position", () => {
    expect(forwardedForEntries(" 203.0.113.7 ,198.51.100.4,  , garbage")).toEqual([
      "203.0.113.7",
      "198.51.100.4",
      "",
      "garbage",
    ]);
  });

  it("no header, or an empty one, has no entries", () => {
    expect(forwardedForEntries(null)).toEqual([]);
    expect(forwardedForEntries(undefined)).toEqual([]);
    expect(forwardedForEntries("  ")).toEqual([]);
  });
});

describe("clientAddress, self-hosted (behind scripts/serve.mjs)", () => {
  it("is the peer the server appended, whatever the client wrote before it", () => {
    expect(clientAddress(throughServe("198.51.100.4"), selfHosted)).toBe("198.51.100.4");
    expect(clientAddress(throughServe("198.51.100.4", "1.2.3.4"), selfHosted)).toBe("198.51.100.4");
    expect(clientAddress(throughServe("198.51.100.4", "1.2.3.4, 5.6.7.8"), selfHosted)).toBe("198.51.100.4");
    expect(clientAddress(throughServe("198.51.100.4", "garbage,,"), selfHosted)).toBe("198.51.100.4");
  });

  it("a client sending a new X-Forwarded-For on every request still has one address", () => {
    const seen = new Set(
      Array.from({ length: 20 }, (_, i) => clientAddress(throughServe("198.51.100.4", `10.0.0.${i}`), selfHosted)),
    );
    expect([...seen]).toEqual(["198.51.100.4"]);
  });

  it("normalises an IPv4-mapped or IPv6 peer", () => {
    expect(clientAddress(throughServe("::ffff:198.51.100.4"), selfHosted)).toBe("198.51.100.4");
    expect(clientAddress(throughServe("2001:DB8::7"), selfHosted)).toBe("2001:db8::7");
  });

  it("with TRUST_PROXY=1, is the address the proxy appended, left of the proxy's own", () => {
    // nginx appends the client it was connected from; serve.mjs then appends nginx.
    const viaNginx = throughServe("10.0.0.2", "203.0.113.7");
    expect(clientAddress(viaNginx, behind(1))).toBe("203.0.113.7");
    // A client's own header stays further left and is never read.
    const forged = throughServe("10.0.0.2", "1.2.3.4, 203.0.113.7");
    expect(clientAddress(forged, behind(1))).toBe("203.0.113.7");
  });

  it("with TRUST_PROXY=2, skips both proxies' entries", () => {
    const twoHops = throughServe("10.0.0.3", "1.2.3.4, 203.0.113.7, 10.0.0.2");
    expect(clientAddress(twoHops, behind(2))).toBe("203.0.113.7");
    expect(clientAddress(twoHops, behind(1))).toBe("10.0.0.2");
    expect(clientAddress(twoHops, selfHosted)).toBe("10.0.0.3");
  });

  it("with fewer entries than trusted proxies, takes the earliest", () => {
    expect(clientAddress(throughServe("10.0.0.2", "203.0.113.7"), behind(5))).toBe("203.0.113.7");
  });

  it("garbage at the position read, a lost peer or no header at all is the shared unknown key", () => {
    expect(clientAddress(throughServe("10.0.0.2", "1.2.3.4, garbage"), behind(1))).toBe(UNKNOWN_CLIENT_ADDRESS);
    expect(clientAddress(throughServe("10.0.0.2", "1.2.3.4, "), behind(1))).toBe(UNKNOWN_CLIENT_ADDRESS);
    expect(clientAddress(throughServe(undefined), selfHosted)).toBe(UNKNOWN_CLIENT_ADDRESS);
    expect(clientAddress(headers({}), selfHosted)).toBe(UNKNOWN_CLIENT_ADDRESS);
    expect(clientAddress(headers({ "x-forwarded-for": "" }), selfHosted)).toBe(UNKNOWN_CLIENT_ADDRESS);
  });

  it("ignores x-real-ip off Vercel: any client can send it", () => {
    expect(clientAddress(headers({ "x-real-ip": "1.2.3.4", "x-forwarded-for": "198.51.100.4" }), selfHosted)).toBe(
      "198.51.100.4",
    );
    expect(clientAddress(headers({ "x-real-ip": "1.2.3.4" }), selfHosted)).toBe(UNKNOWN_CLIENT_ADDRESS);
  });
});

describe("clientAddress, on Vercel", () => {
  it("is x-real-ip, which Vercel sets", () => {
    expect(clientAddress(headers({ "x-real-ip": "203.0.113.7", "x-forwarded-for": "203.0.113.7" }), vercel)).toBe(
      "203.0.113.7",
    );
    expect(clientAddress(headers({ "x-real-ip": " 2001:DB8::1 " }), vercel)).toBe("2001:db8::1");
  });

  it("falls back to the first X-Forwarded-For entry, then to the unknown key", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" }), vercel)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-real-ip": "garbage", "x-forwarded-for": "203.0.113.7" }), vercel)).toBe(
      "203.0.113.7",
    );
    expect(clientAddress(headers({}), vercel)).toBe(UNKNOWN_CLIENT_ADDRESS);
  });
});

describe("rateLimitKeyOf", () => {
  it("is the address for IPv4 and the unknown key", () => {
    expect(rateLimitKeyOf("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitKeyOf(UNKNOWN_CLIENT_ADDRESS)).toBe(UNKNOWN_CLIENT_ADDRESS);
  });

  it("is the /64 network for IPv6, so one subscriber's many addresses share one allowance", () => {
    expect(rateLimitKeyOf("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(rateLimitKeyOf("2001:db8:1:2::1")).toBe(rateLimitKeyOf("2001:db8:1:2:ffff::9"));
    expect(rateLimitKeyOf("2001:db8::1")).toBe("2001:db8::/64");
    expect(rateLimitKeyOf("2001:db8:1:3::1")).not.toBe(rateLimitKeyOf("2001:db8:1:2::1"));
    expect(rateLimitKeyOf("::1")).toBe("::/64");
  });
});

describe("appendForwardedFor (scripts/serve.mjs)", () => {
  it("creates the header with the peer when the request has none", () => {
    expect(appendForwardedFor(undefined, "198.51.100.4")).toBe("198.51.100.4");
    expect(appendForwardedFor("", "198.51.100.4")).toBe("198.51.100.4");
    expect(appendForwardedFor("   ", "198.51.100.4")).toBe("198.51.100.4");
  });

  it("appends the peer after whatever the request carried", () => {
    expect(appendForwardedFor("1.2.3.4", "198.51.100.4")).toBe("1.2.3.4, 198.51.100.4");
    expect(appendForwardedFor(" 1.2.3.4, 5.6.7.8 ", "::ffff:198.51.100.4")).toBe(
      "1.2.3.4, 5.6.7.8, ::ffff:198.51.100.4",
    );
    expect(appendForwardedFor(["1.2.3.4", "5.6.7.8"], "198.51.100.4")).toBe("1.2.3.4, 5.6.7.8, 198.51.100.4");
  });

  it("a socket without an address (the client already gone) appends the unknown peer, never nothing", () => {
    expect(appendForwardedFor("1.2.3.4", undefined)).toBe(`1.2.3.4, ${UNKNOWN_PEER}`);
    expect(forwardedForEntries(appendForwardedFor("1.2.3.4", undefined)).at(-1)).toBe(UNKNOWN_PEER);
  });
});
