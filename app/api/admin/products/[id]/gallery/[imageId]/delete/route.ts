import type { NextRequest } from "next/server";
import { adminAction } from "@/lib/http/admin-action";
import { removeGalleryImage } from "@/lib/catalog/gallery-admin";
import { GALLERY_FLASH } from "@/lib/catalog/gallery-rules";
import { productPagePath } from "@/lib/http/product-actions";
import { db } from "@/lib/db/client";

// "Remove" one gallery image, the last one too (the product then shows the placeholder).
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; imageId: string }> };

export async function POST(request: NextRequest, { params }: Params) {
  const { id, imageId } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: GALLERY_FLASH,
    action: (_, { actor }) => removeGalleryImage(id, imageId, actor, { db: db() }),
    json: (result) => ({ status: 200, body: { done: result.done, gallery: result.gallery } }),
  });
}
