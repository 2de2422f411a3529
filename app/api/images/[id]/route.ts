import type { NextRequest } from "next/server";
import { db } from "@/lib/db/client";
import { jsonError } from "@/lib/http/json-error";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";

// Product images uploaded in the back office (lib/catalog/images/). A stored image never changes (a new
// upload is a new id), so browsers and CDNs keep it for a year; the ETag is its SHA-256. Served
// with its sniffed type only, never sniffed again by the browser, and sandboxed in case it is
// opened on its own.
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const image = await postgresImageStore(db()).get(id);
  if (!image) return jsonError(404, "not_found", "no such image", { "Cache-Control": "no-store" });
  const etag = `"${image.sha256}"`;
  const headers = {
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  if (
    request.headers
      .get("if-none-match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(image.bytes, {
    headers: { ...headers, "Content-Type": image.contentType, "Content-Length": String(image.bytes.byteLength) },
  });
}
