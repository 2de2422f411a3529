import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { productPagePath } from "@/lib/http/product-actions";
import { updateVariants } from "@/lib/catalog/variants-admin";
import { VARIANTS_FLASH } from "@/lib/catalog/variant-rules";
import { db } from "@/lib/db/client";

// "Variants": saves the variants' table (SKU, price, stock compared with the one shown, image) with
// one reason for the stock changes (lib/catalog/variants-admin.ts). 200 with options and variants.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: VARIANTS_FLASH,
    body: formBody(),
    action: ({ fields }, { actor }) => updateVariants(id, fields, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, ...result.product } }),
  });
}
