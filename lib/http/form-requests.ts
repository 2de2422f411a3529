import "server-only";
import { NextResponse } from "next/server";
import { jsonError } from "./json-error";
import { bodyRefusal, readBodyCapped } from "./request-body";

/**
 * Routes that a plain HTML form posts to (it works without JavaScript) and that JSON clients call
 * too: the back office's (lib/http/admin-requests.ts).
 */

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

/**
 * A JSON-only body (the shop's own JSON endpoints), read up to `maxBytes`: 415 unless the request
 * says JSON (which also keeps cross-site HTML forms out: they cannot send that content type),
 * then 413/400 for a body too large or broken off, 400 for invalid JSON.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  what: string,
): Promise<{ ok: true; input: unknown } | { ok: false; response: Response }> {
  if (!isJson(request))
    return {
      ok: false,
      response: jsonError(415, "unsupported_media_type", `send ${what} as Content-Type: application/json`),
    };
  return readFormOrJson(request, maxBytes);
}
