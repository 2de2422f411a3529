import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { addGalleryImage } from "@/lib/catalog/gallery-admin";
import { GALLERY_FLASH } from "@/lib/catalog/gallery-rules";
import { productPagePath } from "@/lib/http/product-actions";
import { db } from "@/lib/db/client";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";

// "Add an image" in a product's gallery: multipart with the image and its `alt` text, last in the
// gallery (JSON cannot carry an image: 400 image_required). 201 with the gallery.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    page: productPagePath(id),
    flash: GALLERY_FLASH,
    body: formBody(),
    action: ({ fields, image }, { actor }) =>
      addGalleryImage(id, fields, image, actor, { db: db(), images: postgresImageStore(db()) }),
    json: (result) => ({ status: 201, body: { done: result.done, gallery: result.gallery } }),
  });
}
