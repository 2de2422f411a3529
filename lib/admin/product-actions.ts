import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { refuseWithoutAdminSession } from "./guard";
import type { ImageUpload, ProductResult } from "./products";
import { isFormPost, isJson, refuseCrossSite, seeOther } from "./requests";
import { catalogChanged } from "../catalog-pages";
import { jsonError } from "../http";
import { MAX_IMAGE_BYTES } from "../images/validate";
import { readBodyCapped } from "../request-body";

/**
 * What every route under app/api/admin/products shares: the session guard, the cross-site check,
 * the body (a form, urlencoded or multipart with an image, or JSON) read within a cap, then the
 * action of lib/admin/products.ts; its result as a 303 back to the page (`?done=` or
 * `?error=…&field=…`) for the back office's forms, or JSON for anyone else (a multipart client
 * that wants JSON says `Accept: application/json`).
 */

/** An image of at most 2 MB and the form's other fields. */
export const MAX_PRODUCT_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

const isMultipart = (request: Request) => /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");

/** A browser's form post, answered with a redirect; a client asking for JSON gets JSON. */
export const answersWithRedirect = (request: Request) =>
  (isFormPost(request) || isMultipart(request)) && !/application\/json/i.test(request.headers.get("accept") ?? "");

export type Body =
  { ok: true; fields: Record<string, unknown>; image?: ImageUpload } | { ok: false; refusal: ProductRefusal };
type ProductRefusal = { status: 400 | 413 | 415; code: string; message: string; flash: string };

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

const refused = (status: ProductRefusal["status"], code: string, message: string, flash: string): Body => ({
  ok: false,
  refusal: { status, code, message, flash },
});

export interface ProductActionOptions {
  /** Where a form goes back to with `?error=`: the page it was posted from. */
  formPage: string;
  /** Where a form goes with `?done=`; the form's page by default. */
  donePage?: (result: Extract<ProductResult, { ok: true }>) => string;
  /** Whether the action reads a body (archive and restore do not). */
  readsBody: boolean;
  action: (input: { fields: Record<string, unknown>; image?: ImageUpload }) => Promise<ProductResult>;
}

export async function productAction(request: NextRequest, options: ProductActionOptions): Promise<Response> {
  const refusal = (await refuseWithoutAdminSession(request)) ?? refuseCrossSite(request);
  if (refusal) return refusal;
  const redirect = answersWithRedirect(request);
  const body: Body = options.readsBody ? await readBody(request) : { ok: true, fields: {} };
  if (!body.ok) {
    const { status, code, message, flash } = body.refusal;
    return redirect ? seeOther(`${options.formPage}?error=${flash}`) : jsonError(status, code, message);
  }
  const result = await options.action(body);
  // What the shop shows changed (price, stock, name, image, on sale or not): the cached pages follow.
  if (result.ok) catalogChanged();
  if (!result.ok && result.code === "not_found") return jsonError(404, "not_found", result.message);
  if (!redirect)
    return result.ok
      ? NextResponse.json(
          { done: result.done, product: result.product },
          { status: result.done === "created" ? 201 : 200 },
        )
      : jsonError(result.status, result.code, result.message);
  if (result.ok) return seeOther(`${(options.donePage ?? (() => options.formPage))(result)}?done=${result.done}`);
  const field = result.field ? `&field=${result.field}` : "";
  return seeOther(`${options.formPage}?error=${result.code}${field}`);
}

/** The admin page of a product. */
export const productPagePath = (id: string) => `/admin/products/${encodeURIComponent(id)}`;
