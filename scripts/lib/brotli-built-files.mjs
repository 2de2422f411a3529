// What scripts/serve.mjs does to the answers for the build's own files (/_next/static/…: the
// JavaScript and CSS every page loads). Next compresses with gzip alone; a browser that accepts
// Brotli gets these in Brotli at its best quality, about 14 % fewer bytes (22 KB on a first
// visit to the catalogue, whose scripts are 147 KB in gzip), which a shopper on prepaid data pays
// for (docs/data-budget.md#the-data-budget). Next still answers the request, with its headers, as
// for a client that takes no compression; the body is compressed here. The files are named by
// their content, so each is compressed once and kept in memory for the life of the process.
// Plain JavaScript for plain `node`.
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import { mergeVary } from "./keep-vary.mjs";

const BUILT_FILES = "/_next/static/";
/** Text worth compressing; images and fonts in there are compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|manifest\+json)|image\/svg\+xml)/i;
const compress = promisify(brotliCompress);

/** Whether an Accept-Encoding value takes `br` (named, without `q=0`). */
export function acceptsBrotli(acceptEncoding) {
  return String(acceptEncoding ?? "")
    .split(",")
    .some((coding) => {
      const [name, ...parameters] = coding.split(";").map((part) => part.trim().toLowerCase());
      const q = parameters.find((parameter) => parameter.startsWith("q="));
      return name === "br" && (q === undefined || Number(q.slice(2)) > 0);
    });
}

/**
 * Returns the function serve.mjs calls on each request before Next handles it: a GET of a built
 * file from a browser that accepts Brotli has its answer's body compressed with Brotli; any
 * other request, and any answer but a whole 200 of text, is left as Next sends it.
 */
export function brotliBuiltFiles() {
  /** Compressed bodies, by address and validator: a promise each, so a file is compressed once. */
  const compressed = new Map();
  const compressedBody = (key, body) => {
    let pending = compressed.get(key);
    if (!pending) {
      pending = compress(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      compressed.set(key, pending);
      pending.catch(() => compressed.delete(key));
    }
    return pending;
  };

  return function brotliBuiltFile(request, response) {
    if (request.method !== "GET" || !request.url?.startsWith(BUILT_FILES)) return;
    if (request.headers.range || !acceptsBrotli(request.headers["accept-encoding"])) return;
    // Next then sends the file as it is, and its headers: its gzip would only be undone here.
    request.headers["accept-encoding"] = "identity";
    const chunks = [];
    const writeHead = response.writeHead.bind(response);
    const write = response.write.bind(response);
    const end = response.end.bind(response);
    const asBuffer = (chunk, encoding) =>
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
    // Held back until the end: nothing, the head included, leaves before the body is compressed.
    // A head written now becomes the status and headers it sets.
    response.writeHead = (status, reason, headers) => {
      response.statusCode = status;
      const fields = typeof reason === "string" ? headers : reason;
      if (typeof reason === "string") response.statusMessage = reason;
      if (Array.isArray(fields))
        for (let i = 0; i < fields.length; i += 2) response.setHeader(fields[i], fields[i + 1]);
      else for (const [name, value] of Object.entries(fields ?? {})) response.setHeader(name, value);
      return response;
    };
    response.write = (chunk, encoding, callback) => {
      chunks.push(asBuffer(chunk, encoding));
      (typeof encoding === "function" ? encoding : callback)?.();
      return true;
    };
    response.end = (chunk, encoding, callback) => {
      const done = [chunk, encoding, callback].find((argument) => typeof argument === "function");
      if (chunk !== undefined && typeof chunk !== "function") chunks.push(asBuffer(chunk, encoding));
      const body = Buffer.concat(chunks);
      Object.assign(response, { writeHead, write, end });
      const type = String(response.getHeader("content-type") ?? "");
      if (response.statusCode !== 200 || response.getHeader("content-encoding") || !COMPRESSIBLE.test(type))
        return end(body, done);
      const key = `${request.url}\0${response.getHeader("etag") ?? body.length}`;
      compressedBody(key, body).then(
        (brotli) => {
          response.setHeader("Content-Encoding", "br");
          response.setHeader("Content-Length", brotli.length);
          response.setHeader("Vary", mergeVary(response.getHeader("vary"), "Accept-Encoding"));
          end(brotli, done);
        },
        // Not compressed: the file as it is is still the right answer.
        () => end(body, done),
      );
      return response;
    };
  };
}
