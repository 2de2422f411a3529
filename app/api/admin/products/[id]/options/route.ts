import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { productPagePath } from "@/lib/http/product-actions";
import { setProductOptions } from "@/lib/catalog/options-admin";
import { VARIANTS_FLASH } from "@/lib/catalog/variant-rules";
import { db } from "@/lib/db/client";

// "Options": replaces a product's options (`option1Name`, `option1Values`… or JSON `options`) and
// makes its active variants their combinations (lib/catalog/options-admin.ts). 200 with options and variants.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: VARIANTS_FLASH,
    body: formBody(),
    action: ({ fields }, { actor }) => setProductOptions(id, fields, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, ...result.product } }),
  });
}
