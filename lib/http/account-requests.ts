import "server-only";
import { NextResponse } from "next/server";
import { signedInShopper, type SignedInShopper } from "../accounts/current-shopper";
import { getEnv } from "../env";
import { PAGE_FLASH, type FlashKeys, type FlashParams } from "../flash";
import { consoleLogger, errorKind } from "../log";
import type { Refusal } from "../refusal";
import { outcomeParams, seeOtherWithFlash } from "./flash";
import { isFormPost, readFormOrJson, seeOther } from "./form-requests";
import { jsonError } from "./json-error";
import { withQueryParameter } from "./return-path";
import { isSameOriginRequest } from "./same-origin";
import { isUuid } from "../uuid";

/**
 * The one shape of a signed-in shopper's change (the routes under app/api/account): from the
 * shop's own pages only (403), by a signed-in shopper only (401 for JSON, a 303 to the sign-in
 * for a form, which comes back to the form's page), the body read within a cap, the change done
 * by lib/accounts/ (which validates it), then one answer: a browser's form gets a 303 to its page
 * with the outcome in the query (lib/flash.ts), refusals included; any other client gets JSON with
 * the status. Never a 500: what fails unexpectedly is logged by its kind and answered 503.
 */

/** The sign-in page, which sends the shopper on to `next=` once signed in. */
export const SIGN_IN_PAGE = "/account/sign-in";
export const ACCOUNT_PAGE = "/account";

/** A profile, an address, an order's number: a few hundred bytes. */
export const MAX_ACCOUNT_FORM_BYTES = 8 * 1024;

const NO_STORE = { "Cache-Control": "private, no-store" };

/** The sign-in that comes back to `page` (a path of the shop's own) once done. */
export const signInFor = (page: string) => withQueryParameter(SIGN_IN_PAGE, "next", page);

/** Whether an address form asks for its address to become the default: a ticked box, or `true` in JSON. */
export const makesDefault = (input: Record<string, unknown>) =>
  input.makeDefault === true || input.makeDefault === "on" || input.makeDefault === "true";

/** The page of the shopper's saved address `id` (an id that is no address's goes to the account). */
export const addressPage = (id: string) => (isUuid(id) ? `/account/addresses/${id}` : ACCOUNT_PAGE);

/** A cookie a change sets or expires (Next's `response.cookies.set`). */
type SetCookie = Extract<Parameters<NextResponse["cookies"]["set"]>, [unknown]>[0];

/** What a change did: `value` for its answer, cookies to set. */
export interface AccountDone<T> {
  ok: true;
  value: T;
  cookies?: SetCookie[];
}

export interface AccountActionOptions<T> {
  /** The page the form was posted from: a browser goes back to it, and signs in to come back to it. */
  page: string;
  /** Where a browser goes when it worked, if not `page` with `done`. */
  donePage?: (value: T) => string;
  /** What a browser's page is told when it worked (`?done=saved`). */
  done?: string;
  /** The query parameters the page reads the outcome from, and its section. */
  flash?: FlashKeys;
  /** Read the body (a form or a JSON object) up to this many bytes; without it none is read (a button). */
  maxBytes?: number;
  action: (shopper: SignedInShopper, input: Record<string, unknown>) => Promise<AccountDone<T> | Refusal>;
  /** A JSON client's answer when it worked, with `jsonStatus` (200 unless given). */
  json: (value: T) => unknown;
  jsonStatus?: number;
}

export async function accountAction<T>(request: Request, options: AccountActionOptions<T>): Promise<Response> {
  if (!isSameOriginRequest(request, getEnv().appUrl))
    return jsonError(403, "cross_site", "this request must come from the shop's own pages", NO_STORE);
  const browser = isFormPost(request);
  const keys = options.flash ?? PAGE_FLASH;
  const back = (code: string, field?: string) =>
    seeOtherWithFlash(options.page, outcomeParams({ ok: false, code, field }, keys), keys.hash);
  try {
    const shopper = await signedInShopper(request.headers);
    if (!shopper)
      return browser
        ? seeOther(signInFor(options.page))
        : jsonError(401, "signed_out", "sign in with your phone first", NO_STORE);

    let input: Record<string, unknown> = {};
    if (options.maxBytes !== undefined) {
      const body = await readFormOrJson(request, options.maxBytes);
      if (!body.ok) return browser ? back("invalid_input") : body.response;
      if (typeof body.input !== "object" || body.input === null || Array.isArray(body.input))
        return browser
          ? back("invalid_input")
          : jsonError(400, "invalid_input", "the body must be a JSON object", NO_STORE);
      input = body.input as Record<string, unknown>;
    }

    const result = await options.action(shopper, input);
    if (!result.ok)
      return browser
        ? back(result.code, result.field)
        : jsonError(result.status, result.code, result.message, NO_STORE);
    const response = browser
      ? seeOtherPage(options, result.value, keys)
      : NextResponse.json(options.json(result.value), { status: options.jsonStatus ?? 200, headers: NO_STORE });
    for (const cookie of result.cookies ?? []) response.cookies.set(cookie);
    return response;
  } catch (error) {
    consoleLogger("error", "accounts.change_failed", { error: errorKind(error) });
    return browser
      ? back("unavailable")
      : jsonError(503, "unavailable", "the account cannot be changed right now; please try again", NO_STORE);
  }
}

function seeOtherPage<T>(options: AccountActionOptions<T>, value: T, keys: FlashKeys): NextResponse {
  if (options.donePage) return seeOther(options.donePage(value));
  const params: FlashParams = outcomeParams({ ok: true, done: options.done }, keys);
  return seeOtherWithFlash(options.page, params, keys.hash);
}
