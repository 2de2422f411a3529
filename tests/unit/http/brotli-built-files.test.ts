import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { acceptsBrotli, brotliBuiltFiles } from "../../../scripts/lib/brotli-built-files.mjs";

// scripts/serve.mjs: the build's own files (/_next/static/…) go out in Brotli to a browser that
// takes it; everything else is answered as Next answers it.

/** Script-like text, as a built chunk is: repetitive enough that either compression shrinks it. */
const SCRIPT = Array.from(
  { length: 400 },
  (_, i) => `function chunk${i}(e,t){return e.i(${i * 7})&&t.exports[${i}]||"module ${i % 13}"}`,
).join(";");

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A stand-in for Next's static files: the head by writeHead, the body piped in chunks, gzip when
 * the request asks for it, as Next's own compression does. Records the Accept-Encoding it saw.
 */
function nextLike(seen: string[]) {
  return (incoming: IncomingMessage, response: ServerResponse) => {
    const acceptEncoding = String(incoming.headers["accept-encoding"] ?? "");
    seen.push(acceptEncoding);
    if (!incoming.url!.startsWith("/_next/static/") && incoming.url !== "/page") {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const gzip = /\bgzip\b/.test(acceptEncoding);
    response.writeHead(200, {
      "Content-Type": incoming.url!.endsWith(".png") ? "image/png" : "application/javascript; charset=UTF-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      ...(gzip ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : {}),
    });
    const body = gzip ? gzipSync(SCRIPT) : Buffer.from(SCRIPT);
    Readable.from([body.subarray(0, 1000), body.subarray(1000)]).pipe(response);
  };
}

async function get(path: string, headers: Record<string, string>) {
  const seen: string[] = [];
  const handle = nextLike(seen);
  const brotliBuiltFile = brotliBuiltFiles();
  server = createServer((incoming, response) => {
    brotliBuiltFile(incoming, response);
    handle(incoming, response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const answer = await new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>(
    (resolve, reject) => {
      request({ port, host: "127.0.0.1", path, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    },
  );
  return { ...answer, seen: seen[0] };
}

describe("brotliBuiltFiles", () => {
  it("sends a built file in Brotli to a browser that takes it, with Next's headers, smaller than gzip", async () => {
    const answer = await get("/_next/static/chunks/abc.js", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(gzipSync(SCRIPT).length);
    expect(answer.headers).toMatchObject({
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      vary: "Accept-Encoding",
    });
    // Next was asked for the file as it is: its gzip would only have been undone.
    expect(answer.seen).toBe("identity");
  });

  it("leaves every other answer as Next sends it", async () => {
    const gzipOnly = await get("/_next/static/chunks/abc.js", { "Accept-Encoding": "gzip" });
    expect(gzipOnly.headers["content-encoding"]).toBe("gzip");
    expect(gzipOnly.seen).toBe("gzip");
    const refused = await get("/_next/static/chunks/abc.js", { "Accept-Encoding": "gzip, br;q=0" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const page = await get("/page", { "Accept-Encoding": "gzip, br" });
    expect(page.headers["content-encoding"]).toBe("gzip");
    const notFound = await get("/elsewhere.js", { "Accept-Encoding": "br" });
    expect(notFound.status).toBe(404);
    expect(notFound.body.toString()).toBe("not found");
    // A picture is compressed already.
    const picture = await get("/_next/static/media/photo.png", { "Accept-Encoding": "br" });
    expect(picture.headers["content-encoding"]).toBeUndefined();
    expect(picture.body.toString()).toBe(SCRIPT);
  });

  it("reads Accept-Encoding's br and its weight", () => {
    expect(acceptsBrotli("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsBrotli("BR;q=0.5")).toBe(true);
    expect(acceptsBrotli("br;q=0")).toBe(false);
    expect(acceptsBrotli("gzip")).toBe(false);
    expect(acceptsBrotli("brotli, gzip")).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});
