import "server-only";
import type { NextRequest } from "next/server";
import { catalogueAction } from "./admin-action";
import type { ImageUpload } from "../catalog/gallery-admin";
import type { ProductResult } from "../catalog/products-admin";

/**
 * The routes under app/api/admin/products: ./catalogue-actions.ts's mechanism, answering a JSON
 * client with the product (201 when it was created).
 */

export interface ProductActionOptions {
  /** Where a form goes back to with `?error=`: the page it was posted from. */
  formPage: string;
  /** Where a form goes with `?done=`; the form's page by default. */
  donePage?: (result: Extract<ProductResult, { ok: true }>) => string;
  /** Whether the action reads a body (archive and restore do not). */
  readsBody: boolean;
  action: (input: { fields: Record<string, unknown>; image?: ImageUpload }) => Promise<ProductResult>;
}

export function productAction(request: NextRequest, options: ProductActionOptions): Promise<Response> {
  return catalogueAction(request, {
    ...options,
    json: (result) => ({
      status: result.done === "created" ? 201 : 200,
      body: { done: result.done, product: result.product },
    }),
  });
}

/** The admin page of a product. */
export const productPagePath = (id: string) => `/admin/products/${encodeURIComponent(id)}`;
