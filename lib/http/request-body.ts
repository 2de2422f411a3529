import { jsonError } from "./json-error";

/**
 * Reads a request body as raw bytes, refusing it once it passes `maxBytes` — before it is read
 * whole, so an oversized or endless body costs us at most `maxBytes` of memory. A declared
 * Content-Length above the cap is refused without reading anything. A body that breaks off
 * (the client aborted mid-upload) is `unreadable`, the client's fault rather than ours.
 */
export type CappedBody = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too_large" | "unreadable" };

export async function readBodyCapped(request: Request, maxBytes: number): Promise<CappedBody> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: "too_large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** The answer to a body {@link readBodyCapped} refused: 413 when too large, 400 when it broke off. */
export function bodyRefusal(body: Extract<CappedBody, { ok: false }>, maxBytes: number): Response {
  return body.reason === "too_large"
    ? jsonError(413, "payload_too_large", `the body exceeds ${maxBytes} bytes`)
    : jsonError(400, "unreadable_body", "the body could not be read to its end");
}

/** A form body (urlencoded or multipart) already read by {@link readBodyCapped}, parsed; throws when it is not the form its type says. */
export function formDataOf(bytes: Uint8Array, contentType: string): Promise<FormData> {
  // readBodyCapped allocates a plain ArrayBuffer.
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
}
