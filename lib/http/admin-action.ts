import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { refuseWithoutAdminSession } from "./admin-guard";
import type { ImageUpload } from "../catalog/gallery-admin";
import { answersWithRedirect, isFormPost, isJson, isMultipart, refuseCrossSite, seeOther } from "./admin-requests";
import { catalogChanged } from "../catalog/cached-pages";
import { jsonError } from "./json-error";
import { MAX_IMAGE_BYTES } from "../catalog/images/validate";
import { readBodyCapped } from "./request-body";

/**
 * What every back-office route that changes the catalogue shares: the products'
 * (app/api/admin/products, through ./product-actions.ts), the categories' (app/api/admin/categories)
 * and a product's gallery (app/api/admin/products/<id>/gallery). The session guard, the cross-site
 * check, the body (a form, urlencoded or multipart with an image, or JSON) read within a cap, then
 * the action; a form gets a 303 back to its page with the outcome in the query (`?done=` or
 * `?error=…&field=…`), any other client JSON (a multipart client that wants JSON says
 * `Accept: application/json`). A change calls catalogChanged() unless the action says its pages
 * show none of it: the shop's cached pages show products, categories and images.
 */

/** An image of at most 2 MB and the form's other fields. */
export const MAX_PRODUCT_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

export type Body =
  { ok: true; fields: Record<string, unknown>; image?: ImageUpload } | { ok: false; refusal: BodyRefusal };
type BodyRefusal = { status: 400 | 413 | 415; code: string; message: string; flash: string };

/**
 * The body of a back-office form (urlencoded or multipart, with at most one `image`) or of a JSON
 * client. A name a form sends more than once (the categories' checkboxes) becomes an array.
 */
export async function readBody(request: NextRequest): Promise<Body> {
  const multipart = isMultipart(request);
  if (!multipart && !isFormPost(request) && !isJson(request))
    return refused(415, "unsupported_media_type", "send a form or JSON", "invalid_input");
  const body = await readBodyCapped(request, MAX_PRODUCT_BODY_BYTES);
  if (!body.ok)
    return body.reason === "too_large"
      ? refused(413, "image_too_large", `the request exceeds ${MAX_PRODUCT_BODY_BYTES} bytes`, "image_too_large")
      : refused(400, "unreadable_body", "the body could not be read to its end", "invalid_input");
  try {
    if (isJson(request)) {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(body.bytes));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        return refused(400, "invalid_input", "the body must be a JSON object", "invalid_input");
      return { ok: true, fields: parsed as Record<string, unknown> };
    }
    // readBodyCapped allocates a plain ArrayBuffer.
    const form = await new Response(body.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": request.headers.get("content-type")! },
    }).formData();
    const fields: Record<string, unknown> = {};
    let image: ImageUpload | undefined;
    for (const [name, value] of form) {
      if (typeof value === "string") fields[name] = Object.hasOwn(fields, name) ? [fields[name], value].flat() : value;
      else if (name === "image" && value.size > 0) image = { bytes: new Uint8Array(await value.arrayBuffer()) };
    }
    return { ok: true, fields, ...(image ? { image } : {}) };
  } catch {
    return refused(400, "invalid_body", "the body is not the form or JSON it says it is", "invalid_input");
  }
}

const refused = (status: BodyRefusal["status"], code: string, message: string, flash: string): Body => ({
  ok: false,
  refusal: { status, code, message, flash },
});

export type ActionOutcome =
  | { ok: true; done: string }
  | { ok: false; status: 400 | 404 | 409 | 413 | 415; code: string; message: string; field?: string };

/** The query parameters a page reads its flash from, and the part of the page to go back to. */
export interface FlashKeys {
  done: string;
  error: string;
  field: string;
  /** `#…` of the form's section, so the browser comes back to it. */
  hash?: string;
  /** More of the query of a refusal (`&edit=<id>`): which of the page's forms it was, to show the error beside its field. */
  refusedQuery?: string;
}

const PAGE_FLASH: FlashKeys = { done: "done", error: "error", field: "field" };

export interface CatalogueActionOptions<R extends ActionOutcome> {
  /** Where a form goes back to with its error: the page it was posted from. */
  formPage: string;
  /** Where a form goes when it worked; the form's page by default. */
  donePage?: (result: Extract<R, { ok: true }>) => string;
  flash?: FlashKeys;
  readsBody: boolean;
  action: (input: { fields: Record<string, unknown>; image?: ImageUpload }) => Promise<R>;
  /** A JSON client's answer when it worked. */
  json: (result: Extract<R, { ok: true }>) => { status: 200 | 201; body: unknown };
  /**
   * Whether a change shows on the shop's cached pages (default: yes), which are then refreshed
   * (catalogChanged). Delivery methods and promo codes do not: the checkout reads them per request.
   */
  changesCataloguePages?: boolean;
}

export async function catalogueAction<R extends ActionOutcome>(
  request: NextRequest,
  options: CatalogueActionOptions<R>,
): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const redirect = answersWithRedirect(request);
  const keys = options.flash ?? PAGE_FLASH;
  const hash = keys.hash ?? "";
  const which = keys.refusedQuery ?? "";
  const body: Body = options.readsBody ? await readBody(request) : { ok: true, fields: {} };
  if (!body.ok) {
    const { status, code, message, flash } = body.refusal;
    return redirect
      ? seeOther(`${options.formPage}?${keys.error}=${flash}${which}${hash}`)
      : jsonError(status, code, message);
  }
  const result = await options.action(body);
  if (result.ok && options.changesCataloguePages !== false) catalogChanged();
  if (!result.ok && result.code === "not_found") return jsonError(404, "not_found", result.message);
  if (!redirect) {
    if (!result.ok) return jsonError(result.status, result.code, result.message);
    const answer = options.json(result as Extract<R, { ok: true }>);
    return NextResponse.json(answer.body, { status: answer.status });
  }
  if (result.ok) {
    const page = (options.donePage ?? (() => options.formPage))(result as Extract<R, { ok: true }>);
    return seeOther(`${page}?${keys.done}=${result.done}${hash}`);
  }
  const field = result.field ? `&${keys.field}=${result.field}` : "";
  return seeOther(`${options.formPage}?${keys.error}=${result.code}${field}${which}${hash}`);
}
