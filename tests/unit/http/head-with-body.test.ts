import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { countSocketWrites } from "../../../harness/support/socket-writes";
import { sendHeadWithBody } from "../../../scripts/lib/head-with-body.mjs";

// scripts/serve.mjs: the head of an answer leaves with its body, in one write to the socket,
// instead of on its own when Next calls flushHeaders() before the first chunk.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves one answer written by `write`, and says what the client got and how many writes the socket took. */
async function answer(write: (response: import("node:http").ServerResponse) => void, patched: boolean) {
  let writes: ReturnType<typeof countSocketWrites> | undefined;
  server = createServer((_request, response) => {
    writes = countSocketWrites(response.socket!);
    write(patched ? sendHeadWithBody(response) : response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const got = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    request({ port, host: "127.0.0.1", agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, type: response.headers["content-type"], body }));
    })
      .on("error", reject)
      .end();
  });
  return { ...got, socketWrites: writes?.count };
}

/**
 * As Next's pipe writes an answer, from a web stream's promise callbacks: head flushed, then
 * the chunk, then end() once the stream closes.
 */
const streamed = (response: import("node:http").ServerResponse) => {
  void Promise.resolve()
    .then(() => {
      response.statusCode = 201;
      response.setHeader("Content-Type", "application/json");
      response.flushHeaders();
      response.write('{"received":true}');
    })
    .then(() => response.end());
};

describe("sendHeadWithBody", () => {
  it("sends a streamed answer's head with its body, in one write instead of two", async () => {
    const plain = await answer(streamed, false);
    const patched = await answer(streamed, true);
    for (const got of [plain, patched])
      expect(got).toMatchObject({ status: 201, type: "application/json", body: '{"received":true}' });
    expect(plain.socketWrites).toBe(2);
    expect(patched.socketWrites).toBe(1);
  });

  it("still sends the head of an answer without a body", async () => {
    const got = await answer((response) => {
      response.statusCode = 204;
      response.flushHeaders();
      response.end();
    }, true);
    expect(got).toMatchObject({ status: 204, body: "" });
  });
});
