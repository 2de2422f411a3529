import { isLoopback } from "../env";

/**
 * Whether a request, or the page it names, comes from the shop itself: what every mutation that
 * a browser sends with its cookies asks first (the back office's, and the shopper's own, such as
 * "Esquecer este telefone"), and what a return path is checked against.
 */

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
