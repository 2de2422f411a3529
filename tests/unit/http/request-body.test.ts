import { describe, expect, it } from "vitest";
import { readBodyCapped } from "@/lib/http/request-body";
import { abortedUpload } from "../../../harness/support/streams";

/** A POST whose body is `stream`, as Next hands a streamed upload to a route handler. */
const requestWith = (stream: ReadableStream<Uint8Array>, headers: HeadersInit = {}) =>
  new Request("http://localhost:3000/upload", { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);

describe("readBodyCapped", () => {
  it("reads a body under the cap whole", async () => {
    const body = await readBodyCapped(
      new Request("http://localhost:3000/upload", { method: "POST", body: "hello" }),
      5,
    );
    expect(body).toEqual({ ok: true, bytes: new TextEncoder().encode("hello") });
  });

  it("reports a body that breaks off mid-upload (the client aborted) as unreadable, not as a thrown error", async () => {
    expect(await readBodyCapped(requestWith(abortedUpload()), 1024)).toEqual({ ok: false, reason: "unreadable" });
  });

  it("refuses a declared Content-Length above the cap without reading a byte", async () => {
    let pulls = 0;
    const neverToBeRead = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          controller.enqueue(new Uint8Array(1));
        },
      },
      // No read ahead: pull runs only when someone reads.
      { highWaterMark: 0 },
    );
    const request = requestWith(neverToBeRead, { "content-length": "1025" });
    expect(await readBodyCapped(request, 1024)).toEqual({ ok: false, reason: "too_large" });
    expect(pulls).toBe(0);
  });
});
