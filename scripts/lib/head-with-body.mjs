// What scripts/serve.mjs does to every response's head. Next sends a streamed answer's head on
// its own (`flushHeaders()`) just before it writes the first chunk, so every answer costs the
// server two socket writes, each a system call, where one would do: on a small server under a
// burst of webhooks that was 6 % of the process's CPU (bench/README.md). Here the head waits for
// the first chunk, written in the same tick, and leaves with it; an answer without a body still
// gets its head from `end()`. Plain JavaScript for plain `node`.

/** Makes `response.flushHeaders()` leave the head to the first write (or `end()`), which sends it with the body. */
export function sendHeadWithBody(response) {
  response.flushHeaders = () => {};
  return response;
}
