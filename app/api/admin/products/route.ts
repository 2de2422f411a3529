import type { NextRequest } from "next/server";
import { createProduct } from "@/lib/catalog/products-admin";
import { db } from "@/lib/db/client";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { formBody } from "@/lib/http/admin-action";
import { productAction, productPagePath } from "@/lib/http/product-actions";

// The back office's "new product" form (/admin/products/new): multipart with its image, or JSON
// (then without one: the product shows its placeholder until the gallery gets one). 201 with the product.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return productAction(request, {
    page: "/admin/products/new",
    donePage: (result) => productPagePath(result.product.id),
    body: formBody(),
    action: ({ fields, image }, { actor }) =>
      createProduct(fields, image, actor, { db: db(), images: postgresImageStore(db()) }),
  });
}
