import "server-only";
import { NextResponse } from "next/server";
import { getEnv, isLoopback } from "../env";
import { jsonError } from "../http";
import { bodyRefusal, readBodyCapped } from "../request-body";

/** What every back-office mutation shares: the cross-site refusal, and how a form post is told apart and answered. */

/**
 * Whether a request comes from one of the shop's own pages. Browsers send `Origin` with every
 * POST and DELETE: it must be APP_URL's origin, or, while the shop runs on this machine, the
 * origin of the Host the browser used (localhost or 127.0.0.1). Without `Origin`, a
 * `Sec-Fetch-Site` must say same-origin. With neither, the client is not a browser (curl, a
 * script), which no other site can make send a request, and it may go on.
 */
export function isSameOriginRequest(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) {
    const fetchSite = request.headers.get("sec-fetch-site");
    return fetchSite === null || fetchSite === "same-origin";
  }
  if (!URL.canParse(origin)) return false;
  const from = new URL(origin);
  const app = new URL(appUrl);
  if (from.origin === app.origin) return true;
  return isLoopback(app.hostname) && isLoopback(from.hostname) && from.host === request.headers.get("host");
}

/** 403 for a request from another site; every admin mutation asks this first. */
export function refuseCrossSite(request: Request): Response | undefined {
  if (isSameOriginRequest(request, getEnv().appUrl)) return undefined;
  return jsonError(403, "cross_site", "requests to the back office must come from the shop's own pages");
}

/** A post of an HTML form (application/x-www-form-urlencoded): it is answered with a redirect, not JSON. */
export const isFormPost = (request: Request) =>
  /^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("content-type") ?? "");

/** 303 See Other: where a form post sends the browser next. */
export const seeOther = (location: string) => new NextResponse(null, { status: 303, headers: { Location: location } });

/** A request whose body is JSON. */
export const isJson = (request: Request) =>
  /^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? "");

/**
 * The small body of a back-office form post (urlencoded, as an object of strings) or of a JSON
 * client, read up to `maxBytes`; the 4xx answer to anything else (too large, broken off, not JSON).
 */
export async function readFormOrJson(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; input: unknown } | { ok: false; response: Response }> {
  const body = await readBodyCapped(request, maxBytes);
  if (!body.ok) return { ok: false, response: bodyRefusal(body, maxBytes) };
  const text = new TextDecoder().decode(body.bytes);
  if (isFormPost(request)) return { ok: true, input: Object.fromEntries(new URLSearchParams(text)) };
  if (!isJson(request)) return { ok: false, response: jsonError(415, "unsupported_media_type", "send JSON or a form") };
  try {
    return { ok: true, input: JSON.parse(text) };
  } catch {
    return { ok: false, response: jsonError(400, "invalid_json", "the body is not valid JSON") };
  }
}
