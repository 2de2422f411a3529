import "server-only";
import { shopperAuth } from "../accounts/shopper-auth";
import { SHOPPER_AUTH_BASE_PATH, SHOPPER_AUTH_PATHS } from "../accounts/auth";
import { CLIENT_ADDRESS_HEADER } from "../accounts/sign-in-limits";
import { getEnv } from "../env";
import { consoleLogger, errorKind } from "../log";
import { clientAddress } from "./client-address";
import { jsonError } from "./json-error";
import { isSameOriginRequest } from "./same-origin";

/**
 * The edge of the shopper's sign-in (app/api/auth/[...all]/route.ts): better-auth's handler,
 * reached only for the endpoints a phone account uses (SHOPPER_AUTH_PATHS; anything else is 404),
 * only from the shop's own pages for a POST, with the client's address as the shop reads it,
 * and answering 503 while accounts are off (production without BETTER_AUTH_SECRET).
 */

const NO_STORE = { "Cache-Control": "private, no-store" };

export async function handleShopperAuth(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(SHOPPER_AUTH_BASE_PATH.length);
  if (!(SHOPPER_AUTH_PATHS as readonly string[]).includes(path))
    return jsonError(404, "not_found", "no such endpoint", NO_STORE);
  const auth = shopperAuth();
  if (!auth)
    return jsonError(503, "accounts_off", "shoppers' accounts are off: the shop has no BETTER_AUTH_SECRET", NO_STORE);
  const env = getEnv();
  if (request.method !== "GET" && !isSameOriginRequest(request, env.appUrl))
    return jsonError(403, "cross_site", "this request must come from the shop's own pages", NO_STORE);
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, clientAddress(request.headers, env.clientAddress));
  try {
    const response = await auth.handler(new Request(request, { headers }));
    // better-auth answers refusals itself (and the shop's, thrown from its hooks); anything
    // unexpected it throws (lib/accounts/auth.ts), so a bare 500 is not one of them either.
    if (response.status === 500) throw new Error("better-auth answered 500");
    return response.ok ? await privately(response) : await inShopWords(response);
  } catch (error) {
    consoleLogger("error", "accounts.auth_failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "signing in is not possible right now; please try again", NO_STORE);
  }
}

/**
 * better-auth's answer, private, and without the session's token: it puts the token (the very
 * value of the httpOnly cookie) in the JSON of a verify (`token`) and of a session (`session.token`),
 * where a page's scripts could read it; the cookie alone carries it here.
 */
async function privately(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "private, no-store");
  if (!headers.get("content-type")?.includes("application/json"))
    return new Response(response.body, { status: response.status, headers });
  const body = (await response.json()) as unknown;
  if (body && typeof body === "object") {
    delete (body as { token?: unknown }).token;
    const session = (body as { session?: unknown }).session;
    if (session && typeof session === "object") delete (session as { token?: unknown }).token;
  }
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/**
 * A refusal in the shop's one shape (`{ error: { code, message } }`, lib/http/json-error.ts):
 * better-auth's `{ code, message }` with its code in the shop's lower case (`INVALID_OTP` →
 * `invalid_otp`), its rate limiter's bare 429 as `rate_limited` with a Retry-After, and the
 * cookies and headers it set kept.
 */
async function inShopWords(response: Response): Promise<Response> {
  const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
  const code =
    response.status === 429
      ? "rate_limited"
      : typeof body?.code === "string" && /^[A-Za-z_]{1,64}$/.test(body.code)
        ? body.code.toLowerCase()
        : "refused";
  const message = typeof body?.message === "string" ? body.message : "the request was refused";
  const headers = new Headers(NO_STORE);
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  const retryAfter = response.headers.get("Retry-After") ?? response.headers.get("X-Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return jsonError(response.status, code, message, headers);
}
