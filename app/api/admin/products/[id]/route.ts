import type { NextRequest } from "next/server";
import { updateProduct } from "@/lib/catalog/products-admin";
import { db } from "@/lib/db/client";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { formBody } from "@/lib/http/admin-action";
import { productAction, productPagePath } from "@/lib/http/product-actions";

// The product form (/admin/products/<id>): name, slug, description, price, a new image, and the
// stock against the one the form showed (409 stock_changed when a checkout took units meanwhile).
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function POST(request: NextRequest, { params }: Params) {
  const { id } = await params;
  return productAction(request, {
    page: productPagePath(id),
    body: formBody(),
    action: ({ fields, image }, { actor }) =>
      updateProduct(id, fields, image, actor, { db: db(), images: postgresImageStore(db()) }),
  });
}
