import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { refuseWithoutAdminSession } from "./guard";
import { answersWithRedirect, readBody } from "./product-actions";
import type { ImageUpload } from "./products";
import { refuseCrossSite, seeOther } from "./requests";
import { catalogChanged } from "../catalog-pages";
import { jsonError } from "../http";

/**
 * What the routes of the categories (app/api/admin/categories) and of a product's gallery
 * (app/api/admin/products/<id>/gallery) share, as ./product-actions.ts does for the product
 * form: the session guard, the cross-site check, the body (a form, multipart with an image, or
 * JSON), then the action; a form gets a 303 back to its page with the outcome in the query, any
 * other client JSON. Every change calls catalogChanged(): the shop's cached pages show categories
 * and images.
 */

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
  const body = options.readsBody ? await readBody(request) : ({ ok: true, fields: {} } as const);
  if (!body.ok) {
    const { status, code, message, flash } = body.refusal;
    return redirect ? seeOther(`${options.formPage}?${keys.error}=${flash}${hash}`) : jsonError(status, code, message);
  }
  const result = await options.action(body);
  if (result.ok) catalogChanged();
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
  return seeOther(`${options.formPage}?${keys.error}=${result.code}${field}${hash}`);
}
