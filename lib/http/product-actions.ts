import "server-only";
import type { NextRequest } from "next/server";
import { adminAction, type AdminActionOptions, type FormBody } from "./admin-action";
import type { ProductResult } from "../catalog/products-admin";

/** The routes under app/api/admin/products: ./admin-action.ts, answering a JSON client with the product (201 when it was created). */

export function productAction(
  request: NextRequest,
  options: Omit<AdminActionOptions<ProductResult, FormBody>, "json">,
): Promise<Response> {
  return adminAction(request, {
    ...options,
    json: (result) => ({
      status: result.done === "created" ? 201 : 200,
      body: { done: result.done, product: result.product },
    }),
  });
}

/** The admin page of a product. */
export const productPagePath = (id: string) => `/admin/products/${encodeURIComponent(id)}`;
