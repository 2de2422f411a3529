import type { NextRequest } from "next/server";
import { adminAction } from "@/lib/http/admin-action";
import { productPagePath } from "@/lib/http/product-actions";
import { setVariantArchived } from "@/lib/catalog/variants-admin";
import { VARIANTS_FLASH } from "@/lib/catalog/variant-rules";
import { db } from "@/lib/db/client";

// "Archive" one variant: it leaves the shop and open carts, its orders keep it; 409 last_variant.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; variantId: string }> };

export async function POST(request: NextRequest, { params }: Params) {
  const { id, variantId } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: VARIANTS_FLASH,
    action: (_, { actor }) => setVariantArchived(id, variantId, true, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, ...result.product } }),
  });
}
