import { isShopOrigin } from "./same-origin";

/**
 * Where a sign-in sends its visitor back to, as a relative path of this shop, never anywhere else
 * (no open redirect): the owner to a page of the back office after a session ended under a form,
 * a shopper to a page of the shop (`?next=` of /account/sign-in). Pure.
 */

/** The longest path kept: an address bar's worth, well inside any server's limit. */
const MAX_PATH_LENGTH = 1024;
const BASE = "http://shop.invalid";
/**
 * The query parameters a back-office page is navigated by (a list's filters and page, which edit
 * form is open). The rest report a form's outcome (`done=saved`, `error=…`, the catalogue
 * import's summary): coming back with them would claim an outcome the refused post never had.
 */
const NAVIGATION = new Set(["edit", "page", "search", "q", "status", "method", "fulfilment"]);

/**
 * `value` when it is a path of the back office (`/admin` or under it, with a query and no
 * fragment) written as the URL parser writes it; undefined for anything else: another origin,
 * `//host`, a backslash, control characters, `..`, an encoding the parser would change.
 */
export function safeAdminPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > MAX_PATH_LENGTH) return undefined;
  if (!/^\/admin(?:[/?]|$)/.test(value) || /[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  if (!URL.canParse(value, BASE)) return undefined;
  const url = new URL(value, BASE);
  const path = `${url.pathname}${url.search}`;
  return url.origin === BASE && /^\/admin(?:\/|$)/.test(url.pathname) && path === value ? value : undefined;
}

/**
 * `value` when it is a page of the shop a shopper may be sent back to after signing in (a path
 * with a query, no fragment, written as the URL parser writes it), never the back office or the
 * API; `fallback` for anything else: another origin, `//host`, a backslash, control characters,
 * `..`, an encoding the parser would change.
 */
export function safeShopPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value.length > MAX_PATH_LENGTH) return fallback;
  if (!value.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  if (!URL.canParse(value, BASE)) return fallback;
  const url = new URL(value, BASE);
  const path = `${url.pathname}${url.search}`;
  if (url.origin !== BASE || path !== value || /^\/(?:admin|api)(?:\/|$)/.test(url.pathname)) return fallback;
  return value;
}

/**
 * The back-office page a request's `Referer` names, when it is one of this shop's (APP_URL's
 * origin, or on this machine the Host the browser used), with only its navigation parameters;
 * undefined otherwise. Browsers send the full address to the same origin
 * (Referrer-Policy: strict-origin-when-cross-origin, next.config.mjs).
 */
export function returnPathOf(referer: string | null, appUrl: string, host: string | null): string | undefined {
  if (!referer || !URL.canParse(referer)) return undefined;
  const from = new URL(referer);
  if (!isShopOrigin(from, appUrl, host)) return undefined;
  const query = new URLSearchParams([...from.searchParams].filter(([name]) => NAVIGATION.has(name)));
  const search = query.size > 0 ? `?${query}` : "";
  return safeAdminPath(`${from.pathname}${search}`);
}

/** `path` with one more query parameter. */
export function withQueryParameter(path: string, name: string, value: string): string {
  const url = new URL(path, BASE);
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}
