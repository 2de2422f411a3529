/** A request body that sends `firstChunk`, then breaks off, as an upload the client aborted. */
export function abortedUpload(firstChunk = '{"data":'): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("the client aborted the upload"));
      sent = true;
      controller.enqueue(new TextEncoder().encode(firstChunk));
    },
  });
}
