import "server-only";
import { getEnv } from "../env";
import { isFormPost } from "./form-requests";
import { jsonError } from "./json-error";
import { isSameOriginRequest } from "./same-origin";

/** What every back-office mutation shares: the cross-site refusal, and how a form post is told apart and answered. */

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
