import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { moveGalleryImage } from "@/lib/catalog/gallery-admin";
import { GALLERY_FLASH } from "@/lib/catalog/gallery-rules";
import { productPagePath } from "@/lib/http/product-actions";
import { db } from "@/lib/db/client";

// "Move up" / "Move down" (`direction`) of one gallery image; the first is the product's card image.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; imageId: string }> };

export async function POST(request: NextRequest, { params }: Params) {
  const { id, imageId } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: GALLERY_FLASH,
    body: formBody(),
    action: ({ fields }, { actor }) => moveGalleryImage(id, imageId, fields, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, gallery: result.gallery } }),
  });
}
