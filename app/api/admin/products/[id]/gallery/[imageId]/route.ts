import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { saveGalleryAlt } from "@/lib/catalog/gallery-admin";
import { GALLERY_FLASH } from "@/lib/catalog/gallery-rules";
import { productPagePath } from "@/lib/http/product-actions";
import { db } from "@/lib/db/client";

// One gallery image's text alternative (`alt`); 409 image_gone when another change removed the image.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; imageId: string }> };

export async function POST(request: NextRequest, { params }: Params) {
  const { id, imageId } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: GALLERY_FLASH,
    body: formBody(),
    action: ({ fields }, { actor }) => saveGalleryAlt(id, imageId, fields, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, gallery: result.gallery } }),
  });
}
