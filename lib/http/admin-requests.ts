import "server-only";
import { getEnv, isLoopback } from "../env";
import { isFormPost } from "./form-requests";
import { jsonError } from "./json-error";

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
  return URL.canParse(origin) && isShopOrigin(new URL(origin), appUrl, request.headers.get("host"));
}

/**
 * Whether `from` (an Origin, a Referer) is one of the shop's own pages: APP_URL's origin, or,
 * while the shop runs on this machine, the origin of the Host the browser used.
 */
export function isShopOrigin(from: URL, appUrl: string, host: string | null): boolean {
  const app = new URL(appUrl);
  if (from.origin === app.origin) return true;
  return isLoopback(app.hostname) && isLoopback(from.hostname) && from.host === host;
}

/** 403 for a request from another site; every admin mutation asks this first. */
export function refuseCrossSite(request: Request): Response | undefined {
  if (isSameOriginRequest(request, getEnv().appUrl)) return undefined;
  return jsonError(403, "cross_site", "requests to the back office must come from the shop's own pages");
}

// How a form post is told apart and answered, and a small body read: shared with the shop's own
// forms (lib/http/form-requests.ts), re-exported here for the back office's routes.
export { isFormPost, isJson, readFormOrJson, seeOther } from "./form-requests";

/** A multipart form (a form with a file input). */
export const isMultipart = (request: Request) =>
  /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");

/** A client that asks for JSON (`Accept`), even from a form. */
const wantsJson = (request: Request) => /application\/json/i.test(request.headers.get("accept") ?? "");

/**
 * The one rule of the back office for "browser or JSON": a form post (urlencoded or multipart)
 * that does not ask for JSON is a browser's, answered with a redirect; anything else gets JSON.
 */
export const answersWithRedirect = (request: Request) =>
  (isFormPost(request) || isMultipart(request)) && !wantsJson(request);
