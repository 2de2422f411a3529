import type { NextRequest } from "next/server";
import { setArchived } from "@/lib/catalog/products-admin";
import { db } from "@/lib/db/client";
import { productAction, productPagePath } from "@/lib/http/product-actions";

// "Restore" on an archived product's page: back in the catalogue at once.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return productAction(request, {
    page: productPagePath(id),
    action: (_, { actor }) => setArchived(id, false, actor, { db: db() }),
  });
}
