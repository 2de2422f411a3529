import type { NextRequest } from "next/server";
import { setArchived } from "@/lib/catalog/products-admin";
import { db } from "@/lib/db/client";
import { productAction, productPagePath } from "@/lib/http/product-actions";

// "Archive" on a product's page: it leaves the catalogue, carts and checkout; never deleted.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return productAction(request, {
    page: productPagePath(id),
    action: (_, { actor }) => setArchived(id, true, actor, { db: db() }),
  });
}
