import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { guardAdminRoute } from "./admin-route-guard";
import type { Actor } from "../admin/staff-events";
import type { ImageUpload } from "../catalog/gallery-admin";
import { answersWithRedirect, isFormPost, isJson, isMultipart, refuseCrossSite } from "./admin-requests";
import { catalogChanged } from "../catalog/cached-pages";
import type { Refusal } from "../refusal";
import { PAGE_FLASH, type FlashKeys, type FlashParams } from "../flash";
import { outcomeParams, seeOtherWithFlash } from "./flash";
import { jsonError } from "./json-error";
import { MAX_IMAGE_BYTES } from "../catalog/images/validate";
import { formDataOf, readBodyCapped } from "./request-body";

/**
 * The one back-office action, behind every route under app/api/admin that changes something: the
 * session guard, the cross-site refusal, the body read within a cap, the action, then one answer.
 * A browser's form (answersWithRedirect) gets a 303 to its page with the outcome in the query
 * (./flash.ts); any other client gets JSON with the status. A change the shop's cached pages
 * show (products, categories, images, stock) refreshes them.
 */

/** Why an action did nothing: the shop's refusal, and the page's code for it when that differs from the client's. */
export type ActionRefusal = Refusal & { flash?: string };
export type ActionResult = { ok: true; done?: string } | ActionRefusal;
type Done<R> = Extract<R, { ok: true }>;

/** A body as read by {@link AdminActionOptions.body}, or why it could not be. */
export type BodyRead<B> = { ok: true; body: B } | ActionRefusal;
export type BodyReader<B> = (request: NextRequest) => Promise<BodyRead<B>>;

/** A back-office form's fields (a name sent more than once is an array) and its one `image`, or a JSON object. */
export interface FormBody {
  fields: Record<string, unknown>;
  image?: ImageUpload;
}

export interface AdminActionOptions<R extends ActionResult, B> {
  /** The page the form was posted from: a browser goes back to it with the outcome. */
  page: string;
  /** Where a browser goes when it worked, if not `page`. */
  donePage?: (result: Done<R>) => string;
  /** The query parameters the page reads the outcome from, and its section. */
  flash?: FlashKeys;
  /** More of a refusal's query: which of the page's forms it was (`edit=<id>`). */
  refusedFlash?: FlashParams;
  /** A success's query, when it says more than `done` (the CSV import's summary). */
  doneFlash?: (result: Done<R>) => FlashParams;
  /** How the body is read; without it, none is (a button), and the action gets no fields. */
  body?: BodyReader<B>;
  /** The action's own answer to a body that could not be read (by default, the reader's refusal). */
  bodyRefused?: (refusal: ActionRefusal) => R;
  /** The action, told whether a browser asked and who (the guard's person, to record the change by). */
  action: (body: B, context: { browser: boolean; actor: Actor }) => Promise<R>;
  /** A JSON client's answer when it worked. */
  json: (result: Done<R>) => { status: number; body: unknown; headers?: HeadersInit };
  /**
   * Whether a change shows on the shop's cached pages (default: yes), which are then refreshed.
   * Delivery methods and promo codes do not: the checkout reads them per request.
   */
  changesShopPages?: boolean | ((result: Done<R>) => boolean);
}

export async function adminAction<R extends ActionResult, B = FormBody>(
  request: NextRequest,
  options: AdminActionOptions<R, B>,
): Promise<Response> {
  const guard = await guardAdminRoute(request);
  if (!guard.ok) return guard.response;
  const crossSite = refuseCrossSite(request);
  if (crossSite) return crossSite;
  const { actor } = guard;
  const browser = answersWithRedirect(request);
  const read: BodyRead<B> = options.body ? await options.body(request) : { ok: true, body: { fields: {} } as B };
  const result: R | ActionRefusal = read.ok
    ? await options.action(read.body, { browser, actor })
    : (options.bodyRefused?.(read) ?? read);
  if (result.ok) {
    const done = result as Done<R>;
    const changes = options.changesShopPages ?? true;
    if (typeof changes === "function" ? changes(done) : changes) catalogChanged();
  }
  if (!result.ok && result.code === "not_found") return jsonError(404, "not_found", result.message);
  const keys = options.flash ?? PAGE_FLASH;
  if (!result.ok)
    return browser
      ? seeOtherWithFlash(options.page, outcomeParams(result, keys, options.refusedFlash), keys.hash)
      : jsonError(result.status, result.code, result.message);
  const done = result as Done<R>;
  if (!browser) {
    const answer = options.json(done);
    return NextResponse.json(answer.body, { status: answer.status, headers: answer.headers });
  }
  const page = options.donePage?.(done) ?? options.page;
  return seeOtherWithFlash(page, options.doneFlash?.(done) ?? outcomeParams(done, keys), keys.hash);
}

/** An image of at most 2 MB and the form's other fields. */
export const MAX_FORM_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

const bodyRefusal = (status: 400 | 413 | 415, code: string, message: string, flash: string): ActionRefusal => ({
  ok: false,
  status,
  code,
  message,
  flash,
});

/**
 * The body of a back-office form (urlencoded or multipart, with at most one `image`) or of a JSON
 * client (an object), read up to `maxBytes`. A name a form sends more than once (the categories'
 * checkboxes) becomes an array.
 */
export const formBody =
  (maxBytes = MAX_FORM_BODY_BYTES): BodyReader<FormBody> =>
  async (request) => {
    if (!isMultipart(request) && !isFormPost(request) && !isJson(request))
      return bodyRefusal(415, "unsupported_media_type", "send a form or JSON", "invalid_input");
    const body = await readBodyCapped(request, maxBytes);
    if (!body.ok)
      return body.reason === "too_large"
        ? bodyRefusal(413, "image_too_large", `the request exceeds ${maxBytes} bytes`, "image_too_large")
        : bodyRefusal(400, "unreadable_body", "the body could not be read to its end", "invalid_input");
    try {
      if (isJson(request)) {
        const parsed: unknown = JSON.parse(new TextDecoder().decode(body.bytes));
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
          return bodyRefusal(400, "invalid_input", "the body must be a JSON object", "invalid_input");
        return { ok: true, body: { fields: parsed as Record<string, unknown> } };
      }
      const form = await formDataOf(body.bytes, request.headers.get("content-type")!);
      const fields: Record<string, unknown> = {};
      let image: ImageUpload | undefined;
      for (const [name, value] of form) {
        if (typeof value === "string")
          fields[name] = Object.hasOwn(fields, name) ? [fields[name], value].flat() : value;
        else if (name === "image" && value.size > 0) image = { bytes: new Uint8Array(await value.arrayBuffer()) };
      }
      return { ok: true, body: { fields, ...(image ? { image } : {}) } };
    } catch {
      return bodyRefusal(400, "invalid_body", "the body is not the form or JSON it says it is", "invalid_input");
    }
  };
