import type { NextRequest } from "next/server";
import { adjustStock } from "@/lib/catalog/products-admin";
import { db } from "@/lib/db/client";
import { formBody } from "@/lib/http/admin-action";
import { productAction, productPagePath } from "@/lib/http/product-actions";

// "Adjust stock" on a product's page: a signed delta and a reason, kept in the product's history.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return productAction(request, {
    page: productPagePath(id),
    body: formBody(),
    action: ({ fields }, { actor }) => adjustStock(id, fields, actor, { db: db() }),
  });
}
